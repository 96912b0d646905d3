// The labor-rule engine, first slice: evaluates ONE proposed assignment (person P takes shift S)
// against the site state and the composed rule tables (docs/labor-rules.md, "Engine (first
// slice)"). Checks: weekly overtime, daily overtime and double time, minimum rest between shifts,
// minors' hours and time windows, station minimum age and certifications, overlapping shifts and
// time off. Each check yields a RuleEvaluation; the Verdict is the strictest of them.
//
// Contract:
// - LaborContext::build() indexes the site once (each person's assigned shifts and time off,
//   sorted by start); evaluate() then only reads that person's shifts around S, never the site.
// - The context keeps pointers to the SiteModel and the RuleBook: both must outlive it and must
//   not change while it lives (rebuild the context after an edit). Not synchronised; every
//   method is const, so concurrent evaluate() calls on one context are safe.
// - Errors are values: unknown time zone at build; unknown person or shift at evaluate. Rule
//   violations are not errors, they are findings in the Verdict.
// - Days, weeks and the minors' time windows are in the site's time zone; durations are real
//   elapsed minutes (a DST night is 7 or 9 hours long).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/labor/rule_evaluation.h"
#include "daemon/labor/rule_table.h"
#include "daemon/site/site_model.h"
#include "daemon/site/time_zone.h"
#include "store/result.h"

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
  unsigned workweekStart = 0;  // weekday c_encoding, 0 = Sunday; the week starts at 00:00 local
  EmployerSize employer;
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

 private:
  struct Interval {
    site::Instant start;
    site::Instant end;
    std::string shiftId;  // empty for time off
  };
  struct PersonIndex {
    std::vector<Interval> shifts;   // assigned shifts, sorted by start
    std::vector<Interval> timeOff;  // sorted by start
    site::Seconds longestShift{0};
  };

  LaborContext(const site::SiteModel& model, const RuleBook& rules, LaborOptions options,
               site::TimeZone zone);

  const site::SiteModel* model_;
  const RuleBook* rules_;
  LaborOptions options_;
  site::TimeZone zone_;
  site::SiteIndex index_;
  std::map<std::string, PersonIndex, std::less<>> people_;
  std::vector<std::chrono::local_days> schoolDays_;  // sorted

  friend class Evaluation;
};

}  // namespace atoms::labor
