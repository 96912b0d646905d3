// The labor check of a week's draft (docs/decisions/0032-schedule-drafts.md): the draft's shifts
// put in place of the week's published ones, the labor engine (domain/labor/labor_engine.h) run
// on every assigned shift of the week in start order (Scope::kEarlierShifts: each overtime hour,
// short rest and overlap once, the week before counted), and the labor hours and cost per day.
//
// Contract: pure; the model and the rule book are only read during the call. Errors are values
// (unknown time zone; an evaluation error names the shift). Findings are not errors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/canonical_json.h"
#include "base/result.h"
#include "domain/labor/labor_engine.h"
#include "domain/labor/rule_evaluation.h"
#include "domain/labor/rule_table.h"
#include "domain/site/site_model.h"
#include "domain/week/week_draft.h"

namespace atoms::week {

// One rule's finding about one shift of the week.
struct WeekFinding {
  std::string ruleId;
  std::string personId;
  std::string shiftId;
  labor::EvalResult result = labor::EvalResult::kFail;
  labor::VerdictKind effect = labor::VerdictKind::kAllowed;
  std::int64_t premiumMinutes = 0;
  std::int64_t premiumCents = 0;
  std::string detail;
  bool overridable = false;  // a denied finding the manager may override with a reason

  bool denied() const { return effect == labor::VerdictKind::kDenied; }
  bool consentNeeded() const { return effect == labor::VerdictKind::kNeedsConsent; }
  // The same finding in two checks: same rule, person and shift.
  bool sameAs(const WeekFinding& o) const {
    return ruleId == o.ruleId && personId == o.personId && shiftId == o.shiftId;
  }
};

// Whether a denied finding of `ruleId` may be overridden by a manager with a recorded reason:
// approved time off (the person agreed to come in after all: R-SCH-TIME-OFF) and a late posting
// (advance_notice rules at publication). Never a minor's limits, a station's age or
// certification, or two shifts at once.
bool overridable(std::string_view ruleId, const labor::RuleBook& rules);

struct DayLabor {
  Week day{};                     // the workday
  std::int64_t minutes = 0;       // assigned shifts' elapsed minutes
  std::int64_t wageCents = 0;     // their regular pay (hourly rate x time)
  std::int64_t premiumCents = 0;  // the engine's premiums (overtime, short rest...) on those shifts
  // The part of premiumCents above the regular pay already in wageCents (0.5 x of overtime
  // paid at 1.5 x; all of a flat premium): what the premiums add to the cost.
  std::int64_t extraCents = 0;
  std::int64_t openMinutes = 0;  // open shifts: time nobody works yet
  std::int64_t shifts = 0;
  std::int64_t openShifts = 0;
  std::int64_t costCents() const { return wageCents + extraCents; }
};

struct WeekLabor {
  std::vector<DayLabor> days;  // seven, in order
  std::int64_t minutes = 0;
  std::int64_t wageCents = 0;
  std::int64_t premiumCents = 0;
  std::int64_t extraCents = 0;
  std::int64_t openMinutes = 0;
  std::int64_t costCents() const { return wageCents + extraCents; }
};

struct WeekCheck {
  std::vector<WeekFinding> findings;  // by shift start, then person, then rule
  WeekLabor labor;
  std::size_t denied = 0;
  std::size_t needsConsent = 0;
};

// `live`: the site as stored (its shifts are the published schedule); `shifts`: the draft's.
// The model checked is `live` with the week's shifts replaced by `shifts` (and no schedule
// versions: notice and change premiums are judged at publication, week_publish.h).
Result<WeekCheck> checkWeek(const site::SiteModel& live, const labor::RuleBook& rules,
                            const labor::LaborOptions& options, Week week,
                            const std::vector<site::Shift>& shifts);

// The site model `live` with the shifts of `week` replaced by `shifts` (kept in start order).
site::SiteModel withWeek(const site::SiteModel& live, Week week,
                         const std::vector<site::Shift>& shifts);

// Findings of `after` that are denied and were not in `before`.
std::vector<WeekFinding> newDenials(const WeekCheck& before, const WeekCheck& after);

json::Value findingJson(const WeekFinding& f);
json::Value weekLaborJson(const WeekLabor& labor);

}  // namespace atoms::week
