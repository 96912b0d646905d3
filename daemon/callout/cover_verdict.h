// judgeCover: the verification of a cover the box gave on its own (the gate executed shift.assign
// AUTONOMOUS; seed 001 section 6, "AUTONOMOUS decision Verified" and "Verification MISMATCH"),
// as a pure predicate over what the store says (docs/policy-gate.md, "What feeds trust"):
// - a call-out opened about the same shift after the cover's (the cover did not come, a lead had
//   to fix it): a mismatch, whenever it is seen;
// - on a site with time clocks, at the clock-in deadline (the shift's start, or the assignment
//   when it came later, + callout.no_show_grace_minutes): a clock-in by the cover is verified,
//   none is a mismatch;
// - without time clocks, once the shift ended with no new call-out: verified (unknown without
//   complaint).
// Before its time the verdict is pending. Threading: none (pure).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sms/mailbox/mailbox_clock.h"

namespace atoms::callout {

struct CoverFacts {
  bool timeClocks = false;                    // the site has time clocks
  sms::mailbox::TimePoint clockInDeadline{};  // start (or assignment) + grace
  sms::mailbox::TimePoint shiftEnd{};
  std::optional<sms::mailbox::TimePoint> clockIn;  // the cover's, by the deadline
  std::optional<std::int64_t> laterCallout;        // a call-out about the shift after the cover
};

enum class CoverVerdict { kPending, kVerified, kMismatch };

struct CoverJudgement {
  CoverVerdict verdict = CoverVerdict::kPending;
  std::string reason;  // "clocked_in", "no_clock_in", "new_callout", "no_complaint"; pending: ""
};

// When judgeCover stops answering pending without a new call-out: the deadline with time clocks,
// else the shift's end.
sms::mailbox::TimePoint coverDue(const CoverFacts& facts);
CoverJudgement judgeCover(const CoverFacts& facts, sms::mailbox::TimePoint now);
// "pending", "verified", "mismatch".
std::string_view coverVerdictName(CoverVerdict v);

}  // namespace atoms::callout
