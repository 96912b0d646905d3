// The labor check of a whole schedule (`atoms-edge check`, docs/labor-check.md): every assigned
// shift of a site model evaluated by the engine (labor_engine.h) in start order with
// Scope::kEarlierShifts, so each overtime hour, short rest and overlap is reported once; open
// shifts noted; every schedule version checked for advance notice as published
// (fair_workweek.h, FairWorkweek::publishFindings). The findings are grouped by person, then by
// rule, with premium totals.
//
// Contract: pure and deterministic: the same model and rule book give the same ScheduleCheck,
// in the same order (people in the model's order, rules strictest first then by id, occurrences
// by shift start then shift id). The model and the rule book are only read during the call.
// Errors are values (unknown time zone; an evaluation error names the shift). Findings are not
// errors: a schedule with violations is a successful check with hardViolation set.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/canonical_json.h"
#include "base/result.h"
#include "domain/labor/labor_engine.h"
#include "domain/labor/rule_evaluation.h"
#include "domain/labor/rule_table.h"
#include "domain/site/site_model.h"

namespace atoms::labor {

// One time one rule flagged the schedule: one evaluation of one shift (or, for notice rules, of
// one shift of one schedule version).
struct FindingOccurrence {
  std::string shiftId;
  std::string stationId;
  site::Stamp start;
  site::Stamp end;
  // Other shifts the finding is about: the overlapping ones, the shift before a short rest.
  std::vector<std::string> relatedShiftIds;
  std::optional<std::string> scheduleVersionId;  // set for findings about a published version
  EvalResult result = EvalResult::kFail;
  VerdictKind effect = VerdictKind::kAllowed;
  std::int64_t premiumMinutes = 0;
  std::int64_t premiumCents = 0;
  std::int64_t extraCents = 0;  // the extra cost within premiumCents (rule_evaluation.h)
  std::string detail;
  json::Object input;  // the engine's figures
};

// Where a rule comes from, for the report: from the rule tables, or the engine's own checks.
struct RuleInfo {
  std::string ruleId;
  std::string jurisdiction;  // code ("us-ca"); empty for the engine's structural checks
  std::string summary;       // one sentence
  Source source;             // empty for the engine's structural checks
};

// Every occurrence of one rule for one person.
struct RuleFindings {
  RuleInfo rule;
  VerdictKind worst = VerdictKind::kAllowed;
  // Sums over the occurrences: what this rule alone calls for. Overtime rules of several
  // jurisdictions (and daily vs weekly) describe the same hours, so these are not added up
  // across rules; PersonFindings has the total.
  std::int64_t premiumMinutes = 0;
  std::int64_t premiumCents = 0;
  std::int64_t extraCents = 0;  // the extra cost within premiumCents (rule_evaluation.h)
  std::vector<FindingOccurrence> occurrences;
};

struct PersonFindings {
  std::string personId;
  std::string name;
  std::optional<std::string> managerOfRecord;  // who approves the premiums
  std::size_t shifts = 0;                      // assigned shifts checked
  std::int64_t scheduledMinutes = 0;           // their elapsed length
  VerdictKind worst = VerdictKind::kAllowed;
  // The person's premium: per shift the engine's verdict (overtime hours counted once, the
  // costlier reading), plus notice premiums.
  std::int64_t premiumMinutes = 0;
  std::int64_t premiumCents = 0;
  std::int64_t extraCents = 0;  // the extra cost within premiumCents (rule_evaluation.h)
  std::vector<RuleFindings> rules;
};

struct OpenShift {
  std::string shiftId;
  std::string stationId;
  site::Stamp start;
  site::Stamp end;
  std::vector<std::string> requiredCertifications;  // the station's and the shift's
};

// One rule over the whole schedule.
struct RuleTotal {
  std::string ruleId;
  std::size_t occurrences = 0;
  std::size_t people = 0;
  std::int64_t premiumMinutes = 0;
  std::int64_t premiumCents = 0;
  std::int64_t extraCents = 0;  // the extra cost within premiumCents (rule_evaluation.h)
};

// A meal or rest period a workday needs that the schedule leaves to the manager to plan (the
// engine's RuleEvaluation::toPlan): not a finding. One list per workday, from the evaluation of
// its last shift, which sees the whole day.
struct BreakToPlan {
  std::string personId;
  std::string workday;  // local date, "2026-03-09"
  std::string shiftId;  // the workday's last shift
  std::string ruleId;
  std::string detail;  // "a 30 min meal period is due before the end of the 5th hour (by 14:00)"
};

struct VersionChecked {
  std::string versionId;
  site::Instant publishedAt{};
  site::Instant checkedAt{};  // publishedAt, or the asOf instant for a version not yet out
};

struct ScheduleCheck {
  std::string siteId;
  std::string timeZone;
  std::vector<std::string> jurisdictions;  // as composed, most general first
  std::size_t shifts = 0;                  // in the model
  std::size_t assignedShifts = 0;
  std::size_t peopleScheduled = 0;  // people with at least one assigned shift
  std::size_t scheduleVersions = 0;
  // Each schedule version and the instant its advance notice was checked at, in model order.
  std::vector<VersionChecked> versions;

  std::vector<PersonFindings> people;  // only people with findings, in the model's order
  std::vector<OpenShift> openShifts;   // by start, then id
  std::vector<RuleTotal> rules;        // by rule id
  // Breaks to plan, by person in the model's order, then by workday.
  std::vector<BreakToPlan> breaksToPlan;
  // Rules that cover this employer and that the check evaluates only in part: the premiums and
  // the right to decline for changes after publication (change_premium,
  // right_to_decline_added_hours). Shifts a later version adds to days an earlier one published
  // are judged (as additions made when it went out); moves, cuts and cancellations are judged
  // when the change is made (schedule_change.h). By id, each once.
  std::vector<std::string> notEvaluated;

  // Sum of the people's premiums.
  std::int64_t premiumMinutes = 0;
  std::int64_t premiumCents = 0;
  std::int64_t extraCents = 0;  // the extra cost within premiumCents (rule_evaluation.h)
  // Occurrences by effect.
  std::size_t findings = 0;
  std::size_t denied = 0;
  std::size_t needsConsent = 0;
  std::size_t withPremium = 0;  // effect allowed_with_premium
  std::size_t noted = 0;  // effect allowed: worth knowing, nothing to approve (a waivable break)
  bool hardViolation = false;  // any denied finding
};

struct ScheduleCheckOptions {
  LaborOptions labor;
  // "Now", for schedule versions not yet published: a version whose publishedAt is later is
  // checked for advance notice as if published at asOf. Unset: each at its publishedAt.
  std::optional<site::Instant> asOf;
};

Result<ScheduleCheck> checkSchedule(const site::SiteModel& model, const RuleBook& rules,
                                    const ScheduleCheckOptions& options = {});

// The check as JSON (schema in docs/labor-check.md); canonical() of it is `check --json`.
json::Value scheduleCheckJson(const ScheduleCheck& check);

}  // namespace atoms::labor
