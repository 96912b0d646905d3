// Structural conflicts: P cannot work two shifts at once, nor during approved time off
// (R-SCH-OVERLAP, R-SCH-TIME-OFF). Both deny.
#include "domain/labor/evaluation.h"

namespace atoms::labor {

namespace {

void checkOverlap(const Evaluation& ev, Findings& out) {
  RuleEvaluation& e = ev.addFinding(out, kRuleOverlap);
  json::Array clashes;
  for (const WorkSpan& w : ev.work()) {
    if (w.start < ev.end() && w.end > ev.start()) clashes.push_back(w.shiftId);
  }
  if (!clashes.empty()) {
    e.result = EvalResult::kFail;
    e.effect = VerdictKind::kDenied;
    e.detail = ev.person().id + " already works an overlapping shift";
  }
  e.input.set("overlapping", std::move(clashes));
}

void checkTimeOff(const Evaluation& ev, Findings& out) {
  RuleEvaluation& e = ev.addFinding(out, kRuleTimeOff);
  const std::vector<WorkSpan>& off = ev.timeOffOverlapping();
  if (!off.empty()) {
    e.result = EvalResult::kFail;
    e.effect = VerdictKind::kDenied;
    e.detail =
        ev.person().id + " is on time off from " + site::formatLocal(ev.toLocal(off.front().start));
  }
  e.input.set("timeOffPeriods", static_cast<std::int64_t>(off.size()));
}

}  // namespace

void checkConflicts(const Evaluation& ev, Findings& out) {
  checkOverlap(ev, out);
  checkTimeOff(ev, out);
}

}  // namespace atoms::labor
