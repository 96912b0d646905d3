// The labor-rule engine: evaluates ONE proposed assignment (person P takes shift S) against the
// site state and the composed rule tables (docs/labor-rules.md, "Engine"). Checks: overlapping
// shifts and time off; station minimum age and certifications; weekly, daily, double-time and
// seventh-day overtime (hours partitioned within a jurisdiction, the costliest jurisdiction
// counted); rest between shifts; minors' hours and time windows; meal and rest periods (due on a
// scheduled shift, judged from punches where they exist). Each check yields RuleEvaluations; the
// Verdict combines them (rule_evaluation.h).
//
// Contract:
// - LaborContext::build() indexes the site once (each person's assigned shifts, time off and
//   punches, sorted by time; the rules of each kind that cover the employer); evaluate() then
//   only reads that person's entries around S, never the whole site.
// - The context keeps pointers to the SiteModel and the RuleBook: both must outlive it and must
//   not change while it lives (rebuild the context after an edit). Not synchronised; every
//   method is const, so concurrent evaluate() calls on one context are safe.
// - Errors are values: unknown time zone at build; unknown person or shift, or a shift that does
//   not end after it starts, at evaluate. Rule violations are not errors, they are findings in
//   the Verdict.
// - Days, weeks and the minors' time windows are in the site's time zone; durations are real
//   elapsed minutes (a DST night is 7 or 9 hours long).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "domain/labor/rule_evaluation.h"
#include "domain/labor/rule_table.h"
#include "domain/site/site_model.h"
#include "domain/site/time_zone.h"

namespace atoms::labor {

// Stable ids of the engine's own (structural) checks.
inline constexpr std::string_view kRuleOverlap = "R-SCH-OVERLAP";
inline constexpr std::string_view kRuleTimeOff = "R-SCH-TIME-OFF";
inline constexpr std::string_view kRuleStationAge = "R-SCH-STATION-AGE";
inline constexpr std::string_view kRuleCertification = "R-SCH-CERTIFICATION";

// The employer's size, for the rules' applicability thresholds. An unknown figure counts as
// meeting the threshold: the engine would rather ask for a premium or consent than miss one.
struct EmployerSize {
  std::optional<std::int64_t> employeesGlobal;
  std::optional<std::int64_t> locationsGlobal;
  std::optional<std::int64_t> employeesInJurisdiction;
};

// Which of the person's other assigned shifts an evaluation counts. kEarlierShifts counts only
// those that start before S (ties broken by shift id): checking a whole schedule shift by shift
// in that order then reports each overtime hour, each short rest and each overlap exactly once.
enum class Scope { kAllShifts, kEarlierShifts };

struct LaborOptions {
  // The workweek and the workday are the site's (SiteInfo::workweekStart, workdayStartMinute):
  // daily overtime, the seventh day, weekly overtime and meal and rest periods count by them
  // (California Labor Code 500(a): "any consecutive 24-hour period commencing at the same time
  // each calendar day"); minors' limits and the rules' dates stay on calendar days.
  EmployerSize employer;
  // Whether the time clock records paid rest breaks as well as meal periods. When false (the
  // common case: rest breaks are paid and rarely punched), every punched break is a meal period
  // and rest periods are not judged from punches, since a missing punch proves nothing. When
  // true, a punched break shorter than the meal period is a rest break, and rest periods are
  // judged too.
  bool punchesRecordRestBreaks = false;
};

class LaborContext {
 public:
  static Result<LaborContext> build(const site::SiteModel& model, const RuleBook& rules,
                                    LaborOptions options = {});

  // P takes the site's shift `shiftId` (its current assignee, if any, is ignored).
  Result<Verdict> evaluate(std::string_view personId, std::string_view shiftId,
                           Scope scope = Scope::kAllShifts) const;
  // P takes `shift`, which need not be in the model (a proposed new shift). A shift of the model
  // with the same id is not counted as P's existing work.
  Result<Verdict> evaluate(std::string_view personId, const site::Shift& shift,
                           Scope scope = Scope::kAllShifts) const;

  // What the context was built over (for the schedule-change and fair-workweek evaluations).
  const site::SiteModel& model() const { return *model_; }
  const RuleBook& rules() const { return *rules_; }
  const site::TimeZone& zone() const { return zone_; }
  const LaborOptions& options() const { return options_; }
  const site::SiteIndex& index() const { return index_; }

 private:
  struct Interval {
    site::Instant start;
    site::Instant end;
    std::string shiftId;  // empty for time off
  };
  struct PersonIndex {
    std::vector<Interval> shifts;             // assigned shifts, sorted by start
    std::vector<Interval> timeOff;            // sorted by start
    std::vector<const site::Punch*> punches;  // into the model, sorted by time
    site::Seconds longestShift{0};
  };

  LaborContext(const site::SiteModel& model, const RuleBook& rules, LaborOptions options,
               site::TimeZone zone);

  const site::SiteModel* model_;
  const RuleBook* rules_;
  LaborOptions options_;
  site::TimeZone zone_;
  site::SiteIndex index_;
  // P's entries, by P's position in model_->people (an evaluation finds them without a lookup).
  const PersonIndex* personIndex(const site::Person& person) const;

  std::vector<PersonIndex> people_;                  // parallel to model_->people
  std::vector<std::chrono::local_days> schoolDays_;  // sorted
  // Per RuleKind (its enum value), the rules that cover the employer, in RuleBook order.
  std::vector<std::vector<const Rule*>> coveredRules_;

  friend class Evaluation;
};

}  // namespace atoms::labor
