// The exact evaluator of a roster against the roster model: every hard rule checked and each
// violation listed in plain words, and the objective as the benchmark's integer programming
// formulation (Curtois & Qu, schedulingbenchmarks.org, instances 1-24) defines it, including how
// the rules treat the horizon's edges (docs/decisions/0027-shift-scheduling-solver.md):
//
// - maximum consecutive shifts: a day off is assumed before and after the horizon, so a run that
//   touches an edge counts in full;
// - minimum consecutive shifts and minimum consecutive days off: only a run with the other state on
//   both sides inside the horizon is too short; a run touching day 0 or the last day is not;
// - weekends: Saturday and Sunday both inside the horizon; worked when either day is;
// - forbidden successions: within the horizon only (nothing is known of the day before day 0).
//
// Pure functions of their arguments; safe to call from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "domain/schedule/roster_model.h"

namespace atoms::schedule {

enum class RosterRule {
  kShape,           // the roster's size does not match the instance, or a cell names no shift
  kDayOff,          // works on a day that must be off
  kMaxPerType,      // more shifts of a type than allowed (0 allowed: may not work it)
  kMaxMinutes,      // total minutes above the maximum
  kMinMinutes,      // total minutes below the minimum
  kMaxConsecutive,  // a run of working days longer than allowed
  kMinConsecutive,  // a run of working days, inside the horizon, shorter than required
  kMinDaysOff,      // a run of days off, inside the horizon, shorter than required
  kMaxWeekends,     // more weekends worked than allowed
  kSuccession,      // a shift followed the next day by one that may not follow it
};

struct RosterViolation {
  RosterRule rule = RosterRule::kShape;
  int person = -1;          // -1 for kShape of the whole roster
  int day = -1;             // the first day concerned; -1 for a rule over the whole horizon
  std::int64_t amount = 0;  // by how much: shifts, minutes, days or weekends
  std::string text;         // "B: works 6 days in a row from day 3, at most 5"
};

struct RosterEvaluation {
  bool feasible = false;  // no violation
  std::int64_t objective = 0;
  std::int64_t onRequests = 0;   // weights of on-requests not met
  std::int64_t offRequests = 0;  // weights of off-requests not met
  std::int64_t underCover = 0;   // weighted shortfall below the requirements
  std::int64_t overCover = 0;    // weighted excess above them
  std::vector<RosterViolation> violations;
};

// The roster checked and scored. The objective is computed even when the roster is infeasible.
RosterEvaluation evaluateRoster(const RosterInstance& instance, const Roster& roster);

// For the solver: a measure of how far one person's line (`cells`, instance.days entries, every
// entry kOff or a type index) is from keeping the hard rules, 0 exactly when it keeps them all.
// The same checks as evaluateRoster, with minutes counted in shortest shifts, rounded up (one
// shift too many or too few weighs about as much as one day too many in a row).
std::int64_t lineHardExcess(const RosterInstance& instance, int person, const int* cells);

}  // namespace atoms::schedule
