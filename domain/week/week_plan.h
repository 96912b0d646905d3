// What "fill open shifts" and "build the week" (week_builder.h) take and give back: the staffing
// requirements, the plan's score broken down, and one explanation per choice (why this person,
// why not the others, in the words of the call-out ranking: docs/scheduling.md, "Fill and build").
// Plain values; the JSON is the API's and the CLI's.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/canonical_json.h"
#include "base/result.h"
#include "domain/forecast/shift_blocks.h"
#include "domain/site/site_model.h"
#include "domain/week/week_draft.h"

namespace atoms::week {

enum class BuildMode {
  kFillOpen,  // keep every assigned shift; put people on the draft's open shifts
  kBuild,     // add the shifts the requirements ask for; (re)assign every shift not started
};
std::string_view buildModeName(BuildMode mode);  // "fill", "build"

// `heads` people at `stationId` on day `day` of the week (0 = its first day), from `startMinute`
// for `minutes` (local wall time; a start past 1439 is after midnight).
struct Requirement {
  std::string stationId;
  int day = 0;          // 0..6
  int startMinute = 0;  // 0..1439
  int minutes = 0;      // 1..1440
  int heads = 1;        // 1..50
  std::optional<std::string> certificationId;
  friend bool operator==(const Requirement&, const Requirement&) = default;
};
// Range checks; kInvalid naming the requirement ("requirements[2]: heads must be 1..50").
Status checkRequirements(const std::vector<Requirement>& requirements);
// The forecast's shift blocks (domain/forecast/shift_blocks.h) as requirements of `week`, one
// head each; blocks on days outside the week are left out.
std::vector<Requirement> requirementsFromBlocks(Week week,
                                                const std::vector<forecast::ShiftBlock>& blocks);

// How long the engine may search. The caller owns time (domain code reads no clock):
// `shouldStop` comes from its deadline; `maxIterations` bounds the moves (with
// one thread and a seed the plan is then the same every time).
struct BuildLimits {
  std::function<bool()> shouldStop;
  std::uint64_t maxIterations = 0;  // 0: as many as the site's size asks for
  int threads = 1;
  std::uint64_t seed = 1;
};

// The plan's score, lower is better on each line. The builder keeps the draft as it is unless
// the plan's total is lower (week_builder.h), so building twice changes nothing the second time.
struct PlanScore {
  std::int64_t shortfallShifts = 0;   // shifts nobody can legally take (left open)
  std::int64_t shortfallMinutes = 0;  // their length
  std::int64_t premiumCents = 0;  // what the engine's premiums add above regular pay (extraCents)
  std::int64_t wageCents = 0;     // regular pay of the week's shifts
  std::int64_t hoursSpreadMinutes = 0;  // most minus fewest scheduled, among the people placed
  std::int64_t undesirableSpread = 0;   // the same for closing and weekend shifts
  std::int64_t preferenceMisses = 0;    // shifts away from a person's main station (first role)
  std::int64_t changes = 0;             // shifts whose person differs from the draft's
  std::int64_t total() const;           // the weighted sum the builder compares (week_plan.cpp)
};

// Why one person was not given a shift.
struct PassedOver {
  std::string personId;
  // "denied", "needs_consent", "unavailable", "works_that_day", "premium", "over_hours",
  // "placed_elsewhere"
  std::string reason;
  std::vector<std::string> rules;  // denied / needs_consent: the rule ids
  std::string detail;              // one plain line
};

// One choice of the plan: who got the shift (none: it stays open), why, and why not the others
// who work the station.
struct PlanChoice {
  std::string shiftId;
  std::optional<std::string> personId;
  std::string why;
  std::vector<PassedOver> others;
};

struct WeekPlan {
  BuildMode mode = BuildMode::kFillOpen;
  std::vector<site::Shift> shifts;  // the draft's shifts of the week after the plan, by start
  std::int64_t nextShift = 1;       // the draft's next shift number after new ones
  PlanScore score;
  PlanScore draftScore;    // the draft as it was (with the requirements' new shifts open)
  bool keptDraft = false;  // the plan was no better than the draft: nothing changes
  std::vector<PlanChoice> choices;
  std::int64_t added = 0;  // shifts added for the requirements
  bool feasible = false;   // the engine found a roster keeping its hard rules
  std::string summary;     // one line ("filled 4 of 5 open shifts; 1 left open")
};

json::Value planScoreJson(const PlanScore& score);
json::Value planChoiceJson(const PlanChoice& choice);
// The score, the draft's score, the choices and the summary (not the shifts: the draft has them).
json::Value weekPlanJson(const WeekPlan& plan);

}  // namespace atoms::week
