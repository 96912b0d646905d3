// Predictive-scheduling ("Fair Workweek") rules over published schedules: advance notice of a
// published version, the premium owed for a change made after publication (predictability pay),
// and the right to decline hours added after publication (docs/labor-changes.md). The rest
// between shifts, and its premium or consent, is the assignment engine's (labor_engine.h): it is
// not evaluated here.
//
// Contract:
// - FairWorkweek::build() indexes the model's schedule versions once (which shifts each one
//   published, and the local days it covers); the queries then read that index only.
// - It keeps a pointer to the LaborContext (and through it the SiteModel and RuleBook): all must
//   outlive it and must not change while it lives. Every method is const; not synchronised.
// - Time is passed in (`at`, `now`): nothing here reads a clock. Notice is real elapsed time from
//   the instant a schedule reaches the people to the start of the shift.
// - Errors are values naming the record (a version that names an unknown shift). Rule outcomes
//   are RuleEvaluations, never errors.
// - Rules are picked like the engine picks them: in force on the local date of the shift
//   concerned and covering the employer (applicability.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "domain/labor/labor_engine.h"
#include "domain/labor/rule_evaluation.h"
#include "domain/labor/rule_table.h"
#include "domain/site/site_model.h"
#include "domain/site/time_zone.h"

namespace atoms::labor {

// One person's work changed after publication, as the premium rules see it. Built by the
// schedule-change evaluation (schedule_change.h) from a proposed change.
struct WorkChange {
  std::string personId;
  std::string shiftId;  // the shift concerned (for an addition, the new one)
  ChangeType type = ChangeType::kAddedHours;
  // The earlier of the shift's old and new start: notice counts up to it, and its local date
  // picks the rule versions.
  site::Instant firstAffected{};
  site::Seconds oldLength{0};  // 0 for an addition
  site::Seconds newLength{0};  // 0 for a cancellation
  // Work time of the new shift outside the old one: the hours that were not in the person's
  // posted schedule (what the right to decline is about). 0 for cuts.
  site::Seconds outsidePosted{0};
  // The affected employee asked for the change in writing (a shift swap they agreed, a pickup
  // they requested): the cities exempt such changes from predictability pay and the right to
  // decline does not arise. Set by the caller from a recorded request, never assumed.
  bool employeeRequested = false;
  // Old and new intervals: whether the change touches a published schedule is decided on them.
  // For an addition oldStart == oldEnd; for a cancellation newStart == newEnd.
  site::Instant oldStart{}, oldEnd{}, newStart{}, newEnd{};
};

// One person's work before and after a change, as the fair-workweek rules see it. An empty
// interval (start == end) is no work: the old one of an addition, the new one of a cancellation.
WorkChange workChange(std::string personId, std::string shiftId, site::Instant oldStart,
                      site::Instant oldEnd, site::Instant newStart, site::Instant newEnd,
                      bool employeeRequested);

class FairWorkweek {
 public:
  // Errors: a schedule version naming a shift that is not in the model.
  static Result<FairWorkweek> build(const LaborContext& ctx);

  // Findings for publishing `version` at instant `at` (its own publishedAt is ignored; pass it
  // to re-check a version already published). One RuleEvaluation per applicable advance_notice
  // rule per person with newly published shifts; input carries "personId", "shiftId" (the
  // person's first new shift), "scheduleVersionId", "publishedAt", "noticeMinutes",
  // "requiredDays", "lateShiftIds". Shifts of `version` already published by an earlier version
  // (publishedAt <= at, another id) keep the notice they had; shifts that are new but fall
  // inside the days an earlier version published are changes after publication, evaluated when
  // they are made (evaluateChange in schedule_change.h), and are listed in "addedShiftIds", not
  // failed here. Open shifts notify nobody and are skipped. A person whose first new shift
  // starts less than `days` before `at` (real elapsed time and wall-clock time, whichever is
  // shorter) fails: result fail, effect denied. Errors: a shift id not in the model.
  Result<std::vector<RuleEvaluation>> publishFindings(const site::ScheduleVersion& version,
                                                      site::Instant at) const;

  // Whether the change touches a schedule published at or before `now`: the shift was in a
  // published version, or its old or new interval meets the days a published version covers.
  bool touchesPublishedSchedule(const WorkChange& change, site::Instant now) const;

  // Findings for one person's change made at `now`: one change_premium evaluation per
  // applicable rule (the costliest matching case of each; when several rules match, only the
  // costliest one carries its premium: strictest wins) and, when the change puts the person to
  // work at hours outside the posted schedule, one right_to_decline_added_hours evaluation per
  // applicable rule (needs_consent; input "writtenConsentRequired"). n/a evaluations when the
  // change does not touch a published schedule or the employee requested it.
  std::vector<RuleEvaluation> changeFindings(const WorkChange& change, site::Instant now) const;

 private:
  // The local days a version covers: from its first shift's start day to its last shift's end
  // day (the day of its last second).
  struct Period {
    std::chrono::local_days first;
    std::chrono::local_days last;
    site::Instant publishedAt;
    std::string versionId;
  };
  explicit FairWorkweek(const LaborContext& ctx) : ctx_(&ctx) {}

  // Earliest publication (<= asOf, version other than `exceptVersion`) of a shift.
  std::optional<site::Instant> firstPublished(std::string_view shiftId, site::Instant asOf,
                                              std::string_view exceptVersion = {}) const;
  // Whether [from, to) meets a period published at or before asOf by another version.
  bool inPublishedPeriod(site::Instant from, site::Instant to, site::Instant asOf,
                         std::string_view exceptVersion = {}) const;
  Period periodOf(const site::ScheduleVersion& version) const;

  const LaborContext* ctx_;
  // shift id -> (publishedAt, version id) of every version listing it.
  std::map<std::string, std::vector<std::pair<site::Instant, std::string>>, std::less<>>
      publications_;
  std::vector<Period> periods_;
};

}  // namespace atoms::labor
