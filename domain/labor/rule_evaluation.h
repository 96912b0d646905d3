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

#include "base/canonical_json.h"
#include "domain/labor/finding_input.h"
#include "domain/labor/rule_table.h"

namespace atoms::labor {

enum class EvalResult { kPass, kFail, kThresholdExceeded, kNotApplicable };
// "pass", "fail", "threshold_exceeded", "n/a".
std::string_view evalResultName(EvalResult result);

// Ordered from most permissive to strictest: the verdict is the maximum over the evaluations.
enum class VerdictKind { kAllowed, kAllowedWithPremium, kNeedsConsent, kDenied };
// "allowed", "allowed_with_premium", "needs_consent", "denied".
std::string_view verdictKindName(VerdictKind kind);

struct RuleEvaluation {
  // User-provided, so that emplace_back() constructs the members instead of first zeroing the
  // whole finding, FindingInput's inline room included (twenty findings an evaluation).
  RuleEvaluation() {}  // NOLINT(modernize-use-equals-default)

  std::string ruleId;
  FindingInput input;  // the figures the finding was computed from (minutes, limits, dates...)
  EvalResult result = EvalResult::kNotApplicable;
  std::string detail;  // one sentence a manager can read
  // What this finding alone would make of the assignment.
  VerdictKind effect = VerdictKind::kAllowed;
  // Time paid at a premium (overtime, hours worked inside a short rest) and its pay at the
  // premium rate, or a premium owed as such (an hour of pay for a missed meal period, a flat
  // amount): docs/labor-rules.md, "Engine". An overtime finding may be negative when S moves
  // hours from this rule to another (a shift that completes a seven-day workweek).
  std::int64_t premiumMinutes = 0;
  std::int64_t premiumCents = 0;
  // The part of premiumCents above the regular pay of the same hours: the extra cost (pay.h,
  // PremiumAmount::extraCents). 0.5 x of overtime at 1.5 x; all of a flat premium.
  std::int64_t extraCents = 0;
  // How the verdict counts this premium. Findings of one non-empty `premiumGroup` pay for the same
  // obligation under different rules (the same overtime hours under federal and state law, one
  // day's meal premium under two meal rules): only the costliest alternative counts. Findings that
  // share both the group and `premiumAlternative` are parts of one alternative and add up (a
  // jurisdiction's daily, seventh-day and weekly overtime split the hours between them). An empty
  // group: the premium adds to the verdict on its own.
  std::string premiumGroup;
  std::string premiumAlternative;
  // A meal or rest period S's workday needs and the schedule does not give yet: not a finding
  // (result pass), what the manager has to plan; `detail` says what and by when.
  bool toPlan = false;
  // Set for the overtime kinds (weekly_overtime, daily_overtime, double_time, seventh_day).
  std::optional<RuleKind> overtimeKind;
};

struct Verdict {
  VerdictKind kind = VerdictKind::kAllowed;
  // The sum over premium groups of each group's costliest alternative, plus the ungrouped
  // premiums (see RuleEvaluation::premiumGroup).
  std::int64_t premiumMinutes = 0;
  std::int64_t premiumCents = 0;
  std::int64_t extraCents = 0;  // the extra cost within premiumCents, counted the same way
  // The person's manager of record, set when a premium or overtime applies.
  std::optional<std::string> approver;
  std::vector<RuleEvaluation> evaluations;

  // Folds the evaluations into kind/premium/approver (approver is the given manager, if any).
  static Verdict combine(std::vector<RuleEvaluation> evaluations,
                         const std::optional<std::string>& managerOfRecord);
  const RuleEvaluation* find(std::string_view ruleId) const;
};

}  // namespace atoms::labor
