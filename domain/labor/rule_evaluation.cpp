#include "domain/labor/rule_evaluation.h"

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
  std::int64_t extraCents = 0;
  bool costlierThan(const Premium& o) const {
    return cents != o.cents ? cents > o.cents : minutes > o.minutes;
  }
};

// One way of paying a premium group: the sum of its parts.
struct Alternative {
  std::string_view group;
  std::string_view name;
  Premium sum;
};

}  // namespace

Verdict Verdict::combine(std::vector<RuleEvaluation> evaluations,
                         const std::optional<std::string>& managerOfRecord) {
  Verdict v;
  std::vector<Alternative> alternatives;
  alternatives.reserve(evaluations.size());  // one allocation, not one per doubling
  for (const RuleEvaluation& e : evaluations) {
    v.kind = std::max(v.kind, e.effect);
    if (e.premiumGroup.empty()) {
      v.premiumMinutes += e.premiumMinutes;
      v.premiumCents += e.premiumCents;
      v.extraCents += e.extraCents;
      continue;
    }
    auto it = std::find_if(alternatives.begin(), alternatives.end(), [&](const Alternative& a) {
      return a.group == e.premiumGroup && a.name == e.premiumAlternative;
    });
    if (it == alternatives.end()) {
      it = alternatives.insert(alternatives.end(),
                               Alternative{e.premiumGroup, e.premiumAlternative, {}});
    }
    it->sum.minutes += e.premiumMinutes;
    it->sum.cents += e.premiumCents;
    it->sum.extraCents += e.extraCents;
  }
  // Each group counts its costliest alternative once (the first of equals).
  for (std::size_t i = 0; i < alternatives.size(); ++i) {
    const Alternative& a = alternatives[i];
    bool counted = true;
    for (std::size_t j = 0; j < alternatives.size() && counted; ++j) {
      const Alternative& b = alternatives[j];
      if (j == i || b.group != a.group) continue;
      counted = !(b.sum.costlierThan(a.sum) || (j < i && !a.sum.costlierThan(b.sum)));
    }
    if (!counted) continue;
    v.premiumMinutes += a.sum.minutes;
    v.premiumCents += a.sum.cents;
    v.extraCents += a.sum.extraCents;
  }
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
