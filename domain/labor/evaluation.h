// Internal to domain/labor (callers use LaborContext, labor_engine.h): the state of one
// evaluation, person P takes shift S, that every check family reads, and the check families
// themselves, one file each.
//
// An Evaluation is made by LaborContext::evaluate() on the caller's thread and lives for that
// call. It borrows the context, P and S (all outlive it) and gathers P's nearby work once, so a
// check reads a few entries of P's index and never scans the site. Checks append their findings
// (RuleEvaluations) to one vector, in the order labor_engine.cpp calls them.
#pragma once

#include <chrono>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/canonical_json.h"
#include "domain/labor/labor_engine.h"
#include "domain/labor/pay.h"
#include "domain/labor/rule_evaluation.h"
#include "domain/labor/rule_table.h"
#include "domain/site/site_model.h"
#include "domain/site/time_zone.h"

namespace atoms::labor {

using LocalDays = std::chrono::local_days;
using Findings = std::vector<RuleEvaluation>;

// A stretch of P's time from the context's index: an assigned shift, or time off (no id).
struct WorkSpan {
  site::Instant start;
  site::Instant end;
  std::string_view shiftId;
};

class Evaluation {
 public:
  // Preconditions: P and S outlive the Evaluation; S ends after it starts.
  Evaluation(const LaborContext& ctx, const site::Person& person, const site::Shift& shift,
             Scope scope);

  // The assignment.
  const site::Person& person() const { return person_; }
  const site::Shift& shift() const { return shift_; }
  site::Instant start() const { return start_; }
  site::Instant end() const { return end_; }
  site::LocalTime localStart() const { return localStart_; }
  site::LocalTime localEnd() const { return localEnd_; }
  LocalDays firstDay() const { return firstDay_; }  // the local day S starts on
  LocalDays lastDay() const { return lastDay_; }    // the local day of S's last second
  // The workdays (SiteInfo::workdayStartMinute) S starts and ends in: its calendar days when
  // workdays begin at midnight.
  LocalDays firstWorkday() const { return workdayOf(localStart_); }
  LocalDays lastWorkday() const { return workdayOf(localEnd_ - site::Seconds{1}); }

  // The site.
  const site::SiteModel& model() const { return *ctx_.model_; }
  const site::SiteIndex& index() const { return ctx_.index_; }
  const site::TimeZone& zone() const { return ctx_.zone_; }
  const LaborOptions& options() const { return ctx_.options_; }
  const std::vector<Jurisdiction>& jurisdictions() const { return ctx_.rules_->jurisdictions(); }

  // P's other assigned shifts that the scope counts, within eight days of S, sorted by start.
  const std::vector<WorkSpan>& work() const { return work_; }
  // P's time off that overlaps S.
  const std::vector<WorkSpan>& timeOffOverlapping() const { return timeOff_; }
  // P's punches with from <= at < to, in time order.
  std::span<const site::Punch* const> punches(site::Instant from, site::Instant to) const;

  // The calendar, in the site's zone. toLocal: the wall-clock time of an instant. dayStart: local
  // midnight as UTC (midnight inside a DST gap, in the few zones that have one, takes the offset
  // in force before the jump).
  site::LocalTime toLocal(site::Instant t) const;
  site::Instant dayStart(LocalDays d) const;
  // Workday d (named by the calendar day it begins on) begins at d + workdayStart, local time.
  LocalDays workdayOf(site::LocalTime t) const;
  site::Instant workdayStart(LocalDays d) const;
  static LocalDays weekStartOf(LocalDays d, unsigned weekStart);
  // Seconds of P's counted work inside [from, to), and of S inside it.
  std::pair<site::Seconds, site::Seconds> worked(site::Instant from, site::Instant to) const;
  bool schoolDay(LocalDays d) const;
  // P's age in whole years on d; nullopt without a birth date.
  std::optional<int> ageOn(LocalDays d) const;
  // "14:05" in the site's zone, for findings.
  std::string clockText(site::Instant t) const;

  // Calls fn(const Rule&) for each rule of `kind` that covers the employer and is in force on S's
  // local start date, in RuleBook order (ancestor jurisdictions first).
  template <class Fn>
  void forEachRule(RuleKind kind, Fn&& fn) const {
    for (const Rule* r : ctx_.coveredRules_[static_cast<std::size_t>(kind)]) {
      if (r->inForceOn(ruleDate_)) fn(*r);
    }
  }

  // Appends a finding of `ruleId` about this assignment to `out` and returns it, for the check to
  // fill in place: input names P and S; result pass. The reference is good until the next
  // finding is added.
  RuleEvaluation& addFinding(Findings& out, std::string_view ruleId) const;

 private:
  site::Instant toUtc(site::LocalTime local) const;  // as dayStart() says of a gap

  const LaborContext& ctx_;
  const LaborContext::PersonIndex* personIndex_;  // null: P has no shifts, time off or punches
  const site::Person& person_;
  const site::Shift& shift_;
  // P's and S's ids as the figures every finding starts with: copied, not built, per finding.
  json::Value personIdValue_;
  json::Value shiftIdValue_;
  site::Instant start_, end_;
  // The zone's offset around S: the conversions of the days S touches, which an evaluation makes
  // by the dozen, are arithmetic within it (toLocal, toUtc).
  site::TimeZone::OffsetPeriod offset_;
  site::LocalTime localStart_, localEnd_;
  LocalDays firstDay_, lastDay_;
  Date ruleDate_;
  std::vector<WorkSpan> work_;
  std::vector<WorkSpan> timeOff_;
};

// "8 h", "8 h 30 min", "45 min"; a negative duration gets a leading '-'.
std::string durationText(site::Seconds time);

// Whether rate a (pay.h) is lower than rate b.
bool lowerRate(Decimal a, Decimal b);
// payCents() for a signed duration: a negative one (time moved to another rule) gives the
// negative amount.
std::int64_t signedPayCents(site::Seconds time, std::int64_t hourlyRateCents, Decimal rate);

// The check families. Each appends one finding per rule (or structural check) it evaluates.
void checkConflicts(const Evaluation& ev, Findings& out);          // conflict_check.cpp
void checkStation(const Evaluation& ev, Findings& out);            // station_check.cpp
void checkOvertime(const Evaluation& ev, Findings& out);           // overtime_check.cpp
void checkRestBetweenShifts(const Evaluation& ev, Findings& out);  // rest_check.cpp
void checkMinorHours(const Evaluation& ev, Findings& out);         // minor_check.cpp
void checkBreaks(const Evaluation& ev, Findings& out);             // break_check.cpp

}  // namespace atoms::labor
