// The site adapter of the roster engine (domain/schedule/): a week's draft turned into a
// RosterInstance, so "fill" and "build" (week_builder.h) run the same solver as `atoms-edge solve`
// on the benchmark, and the engine's roster turned back into assignees on the draft's shifts.
//
// The model (docs/scheduling.md, "Fill and build"; decision 0035):
// - a person per site person, a day per workday of the week, a shift type per distinct
//   (station, certification, start in the workday, length) among the free shifts; the cover of a
//   (day, type) is how many free shifts it has, one short costs as much as a shift left open and
//   one over is never worth it (nobody is placed on a shift that does not exist);
// - hard in the model: a type of a station the person does not work (maxPerType 0), a day they
//   already work a kept shift (dayOff: one shift a day), minutes past the weekly overtime line
//   less their kept minutes, six days in a row at most, a turn with less than ten hours of rest;
// - a (person, day, type) the labor engine denies in isolation (time off, certification, age,
//   minors' windows, overlap) or that is outside the person's availability weighs more than
//   leaving the shift open, so the engine never prefers it; whatever it proposes is checked by
//   the labor engine again before it is kept (week_builder.cpp);
// - soft, as requests: keeping the draft's person on a shift, pay and premiums, a station that is
//   not the person's main one (their first role).
//
// Pure; the site model and the rule book are only read during the call.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"
#include "domain/labor/labor_engine.h"
#include "domain/labor/rule_table.h"
#include "domain/schedule/roster_model.h"
#include "domain/site/site_model.h"
#include "domain/week/week_draft.h"

namespace atoms::week {

// The weekly hours the plan keeps each person under unless a shift would stay open otherwise
// (the federal and California weekly overtime line; daily lines are the labor engine's).
inline constexpr std::int64_t kOvertimeLineMinutes = 40 * 60;

struct SiteRoster {
  schedule::RosterInstance instance;
  std::vector<std::string> personIds;  // [person of the instance]
  // [day][type]: the free shifts of that type on that day, as indexes into the shifts given.
  std::vector<std::vector<std::vector<std::size_t>>> slots;
};

struct SiteRosterInput {
  const site::SiteModel* live = nullptr;  // as stored; must outlive the call
  const labor::RuleBook* rules = nullptr;
  labor::LaborOptions options;
  Week week{};
  const std::vector<site::Shift>* shifts = nullptr;  // the week's shifts of the draft
  std::vector<bool> free;  // [shift]: the engine may give it to anyone (else it is kept)
};

// Errors: an unknown time zone, a labor evaluation error naming the shift.
Result<SiteRoster> siteRoster(const SiteRosterInput& input);

// The roster's cells as assignees of the free shifts (every free shift is opened first); a person
// who had a shift of the same type on that day keeps that very shift.
void applyRoster(const SiteRoster& roster, const schedule::Roster& cells,
                 const std::vector<bool>& free, std::vector<site::Shift>& shifts);

// The week's workday a shift belongs to (0..6) and its start in minutes after that workday's
// local midnight (past 1439 after midnight).
int workdayIndex(const site::SiteInfo& site, Week week, const site::Shift& shift);
int workdayMinute(const site::SiteInfo& site, const site::Shift& shift);
std::int64_t shiftMinutes(const site::Shift& shift);
// Whether the shift lies inside one of the person's availability windows (always, when they
// gave none).
bool availableFor(const site::Person& person, const site::Shift& shift);
// A closing shift (ending after 22:00) or one on a Saturday or Sunday: the shifts spread fairly.
bool undesirable(const site::Shift& shift);
bool worksStation(const site::Person& person, const std::string& stationId);

}  // namespace atoms::week
