#include "daemon/labor/rule_evaluation.h"

#include <algorithm>

namespace atoms::labor {

std::string_view evalResultName(EvalResult result) {
  switch (result) {
    case EvalResult::kPass:
      return "pass";
    case EvalResult::kFail:
      return "fail";
    case EvalResult::kThresholdExceeded:
      return "threshold_exceeded";
    case EvalResult::kNotApplicable:
      return "n/a";
  }
  return "n/a";
}

std::string_view verdictKindName(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::kAllowed:
      return "allowed";
    case VerdictKind::kAllowedWithPremium:
      return "allowed_with_premium";
    case VerdictKind::kNeedsConsent:
      return "needs_consent";
    case VerdictKind::kDenied:
      return "denied";
  }
  return "denied";
}

namespace {

struct Premium {
  std::int64_t minutes = 0;
  std::int64_t cents = 0;
  bool costlierThan(const Premium& o) const {
    return cents != o.cents ? cents > o.cents : minutes > o.minutes;
  }
};

}  // namespace

Verdict Verdict::combine(std::vector<RuleEvaluation> evaluations,
                         const std::optional<std::string>& managerOfRecord) {
  Verdict v;
  Premium weekly, daily, doubleTime;
  for (const RuleEvaluation& e : evaluations) {
    v.kind = std::max(v.kind, e.effect);
    const Premium p{e.premiumMinutes, e.premiumCents};
    if (!e.overtimeKind) {
      v.premiumMinutes += p.minutes;
      v.premiumCents += p.cents;
      continue;
    }
    Premium& slot = *e.overtimeKind == RuleKind::kWeeklyOvertime  ? weekly
                    : *e.overtimeKind == RuleKind::kDailyOvertime ? daily
                                                                  : doubleTime;
    if (p.costlierThan(slot)) slot = p;
  }
  const Premium dailyTotal{daily.minutes + doubleTime.minutes, daily.cents + doubleTime.cents};
  const Premium overtime = dailyTotal.costlierThan(weekly) ? dailyTotal : weekly;
  v.premiumMinutes += overtime.minutes;
  v.premiumCents += overtime.cents;
  if (v.premiumMinutes > 0 || v.premiumCents > 0) v.approver = managerOfRecord;
  v.evaluations = std::move(evaluations);
  return v;
}

const RuleEvaluation* Verdict::find(std::string_view ruleId) const {
  for (const RuleEvaluation& e : evaluations) {
    if (e.ruleId == ruleId) return &e;
  }
  return nullptr;
}

}  // namespace atoms::labor
