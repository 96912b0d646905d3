// judgeCover: the verification of a cover the box gave on its own (the gate executed shift.assign
// AUTONOMOUS; seed 001 section 6, "AUTONOMOUS decision Verified" and "Verification MISMATCH"),
// as a pure predicate over what the store says (docs/policy-gate.md, "What feeds trust"):
// - a call-out opened about the same shift after the cover's (the cover did not come, a lead had
//   to fix it): a mismatch, whenever it is seen;
// - on a site with time clocks: a clock-in by the cover by the clock-in deadline (the shift's
//   start, or the assignment when it came later, + callout.no_show_grace_minutes) is verified at
//   the deadline; without one the lead is asked (the no-show watch) and the verdict waits for the
//   shift's end: a late clock-in is verified then (they came: nothing needed putting right), none
//   is a mismatch;
// - without time clocks, once the shift ended with no new call-out: verified (unknown without
//   complaint).
// Before its time the verdict is pending. Threading: none (pure).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/unix_time.h"

namespace atoms::callout {

struct CoverFacts {
  bool timeClocks = false;             // the site has time clocks
  atoms::TimePoint clockInDeadline{};  // start (or assignment) + grace
  atoms::TimePoint shiftEnd{};
  std::optional<atoms::TimePoint> clockIn;   // the cover's earliest, by now or the end
  std::optional<std::int64_t> laterCallout;  // a call-out about the shift after the cover
};

enum class CoverVerdict { kPending, kVerified, kMismatch };

struct CoverJudgement {
  CoverVerdict verdict = CoverVerdict::kPending;
  // "clocked_in", "clocked_in_late", "no_clock_in", "new_callout", "no_complaint"; pending: ""
  std::string reason;
};

// When judgeCover may next answer other than pending without a new call-out, seen at `now`: the
// deadline with time clocks until it has passed, then (and without time clocks) the shift's end.
atoms::TimePoint coverDue(const CoverFacts& facts, atoms::TimePoint now);
CoverJudgement judgeCover(const CoverFacts& facts, atoms::TimePoint now);
// "pending", "verified", "mismatch".
std::string_view coverVerdictName(CoverVerdict v);

}  // namespace atoms::callout
