// "Fill open shifts" and "build the week" (issue 18; docs/scheduling.md, "Fill and build";
// decision 0035): a plan for a week's draft made by the roster engine that `atoms-edge solve` runs
// on the benchmark (domain/schedule/roster_solver.h), through the site adapter (site_roster.h).
//
// 1. kBuild adds, for each requirement, the open shifts the draft does not have yet (a shift of
//    the same station, times and certification counts as one of its heads); the manager's other
//    shifts stay. Shifts that have started are never touched.
// 2. The free shifts (kFillOpen: the open ones; kBuild: every one not started) go to the engine
//    with the kept ones as fixed; its roster is mapped back onto them.
// 3. Every shift the plan gives to someone new is checked by the labor engine over the whole
//    week (week_check.h); one it denies or that needs the person's consent is opened again, until
//    none is left. Shifts still open then go, one at a time, to the best person the labor engine
//    allows (no premium before premium, then fewer hours), checked the same way. So nothing the
//    labor engine denies is ever proposed; what nobody can take stays open as shortfall.
// 4. The plan is scored (week_plan.h) and kept only when its total beats the draft's: building
//    on a plan's own result changes nothing.
// 5. Each choice is explained (plan_explanation.h).
//
// Pure: the site, rules and draft are only read; time comes from `limits` (and `now`, which says
// what has started). Errors are values: kInvalid for a bad requirement (named), kNotFound for an
// unknown station, a labor or time zone error otherwise.
#pragma once

#include <vector>

#include "base/result.h"
#include "domain/labor/labor_engine.h"
#include "domain/labor/rule_table.h"
#include "domain/site/site_model.h"
#include "domain/site/time_zone.h"
#include "domain/week/week_draft.h"
#include "domain/week/week_plan.h"

namespace atoms::week {

struct BuildInput {
  const site::SiteModel* live = nullptr;  // the site as stored; all pointers outlive the call
  const labor::RuleBook* rules = nullptr;
  labor::LaborOptions options;
  const site::TimeZone* zone = nullptr;
  const WeekDraft* draft = nullptr;
  site::Instant now{};
  BuildMode mode = BuildMode::kFillOpen;
  std::vector<Requirement> requirements;  // kBuild only
  BuildLimits limits;
};

Result<WeekPlan> buildWeek(const BuildInput& input);

}  // namespace atoms::week
