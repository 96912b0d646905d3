#include "daemon/callout/cover_verdict.h"

namespace atoms::callout {

sms::mailbox::TimePoint coverDue(const CoverFacts& facts) {
  return facts.timeClocks ? facts.clockInDeadline : facts.shiftEnd;
}

CoverJudgement judgeCover(const CoverFacts& facts, sms::mailbox::TimePoint now) {
  if (facts.laterCallout) return {CoverVerdict::kMismatch, "new_callout"};
  if (now < coverDue(facts)) return {CoverVerdict::kPending, ""};
  if (!facts.timeClocks) return {CoverVerdict::kVerified, "no_complaint"};
  if (facts.clockIn) return {CoverVerdict::kVerified, "clocked_in"};
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
