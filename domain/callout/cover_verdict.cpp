#include "domain/callout/cover_verdict.h"

namespace atoms::callout {

atoms::TimePoint coverDue(const CoverFacts& facts, atoms::TimePoint now) {
  return facts.timeClocks && now < facts.clockInDeadline ? facts.clockInDeadline : facts.shiftEnd;
}

CoverJudgement judgeCover(const CoverFacts& facts, atoms::TimePoint now) {
  if (facts.laterCallout) return {CoverVerdict::kMismatch, "new_callout"};
  if (!facts.timeClocks) {
    if (now < facts.shiftEnd) return {CoverVerdict::kPending, ""};
    return {CoverVerdict::kVerified, "no_complaint"};
  }
  if (now < facts.clockInDeadline) return {CoverVerdict::kPending, ""};
  if (facts.clockIn && *facts.clockIn <= facts.clockInDeadline) {
    return {CoverVerdict::kVerified, "clocked_in"};
  }
  if (now < facts.shiftEnd) return {CoverVerdict::kPending, ""};
  if (facts.clockIn) return {CoverVerdict::kVerified, "clocked_in_late"};
  return {CoverVerdict::kMismatch, "no_clock_in"};
}

std::string_view coverVerdictName(CoverVerdict v) {
  switch (v) {
    case CoverVerdict::kPending:
      return "pending";
    case CoverVerdict::kVerified:
      return "verified";
    case CoverVerdict::kMismatch:
      return "mismatch";
  }
  return "pending";
}

}  // namespace atoms::callout
