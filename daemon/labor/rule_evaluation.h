// The engine's findings: one RuleEvaluation per rule checked (citing the rule id from the tables,
// or a stable engine id such as "R-SCH-OVERLAP" for structural checks) and the Verdict they add
// up to. Plain value types (copyable, not synchronised). Money is integer cents, durations
// integer minutes; there are no floats.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/labor/rule_table.h"
#include "store/canonical_json.h"

namespace atoms::labor {

enum class EvalResult { kPass, kFail, kThresholdExceeded, kNotApplicable };
// "pass", "fail", "threshold_exceeded", "n/a".
std::string_view evalResultName(EvalResult result);

// Ordered from most permissive to strictest: the verdict is the maximum over the evaluations.
enum class VerdictKind { kAllowed, kAllowedWithPremium, kNeedsConsent, kDenied };
// "allowed", "allowed_with_premium", "needs_consent", "denied".
std::string_view verdictKindName(VerdictKind kind);

struct RuleEvaluation {
  std::string ruleId;
  json::Object input;  // the figures the finding was computed from (minutes, limits, dates...)
  EvalResult result = EvalResult::kNotApplicable;
  std::string detail;  // one sentence a manager can read
  // What this finding alone would make of the assignment.
  VerdictKind effect = VerdictKind::kAllowed;
  std::int64_t premiumMinutes = 0;  // hours paid at a premium (overtime, hours inside a rest)
  std::int64_t premiumCents = 0;    // their cost, or a flat premium
  // Set for weekly_overtime, daily_overtime and double_time findings (see Verdict).
  std::optional<RuleKind> overtimeKind;
};

struct Verdict {
  VerdictKind kind = VerdictKind::kAllowed;
  // Overtime findings overlap (the same hour can be over 8 in the day and over 40 in the week),
  // so they are not summed: the overtime premium is the costlier of the weekly figure and the
  // daily one (daily overtime plus double time, which count disjoint hours), each the costliest
  // over the jurisdictions (strictest wins). Other premiums (rest between shifts) are added.
  std::int64_t premiumMinutes = 0;
  std::int64_t premiumCents = 0;
  // The person's manager of record, set when a premium or overtime applies.
  std::optional<std::string> approver;
  std::vector<RuleEvaluation> evaluations;

  // Folds the evaluations into kind/premium/approver (approver is the given manager, if any).
  static Verdict combine(std::vector<RuleEvaluation> evaluations,
                         const std::optional<std::string>& managerOfRecord);
  const RuleEvaluation* find(std::string_view ruleId) const;
};

}  // namespace atoms::labor
