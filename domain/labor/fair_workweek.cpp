#include "domain/labor/fair_workweek.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "domain/labor/applicability.h"
#include "domain/labor/pay.h"

namespace atoms::labor {

namespace chr = std::chrono;
using site::Instant;
using site::Seconds;

namespace {

// "13 d 23 h 59 min", "-2 h 0 min": notice as a manager reads it.
std::string noticeText(Seconds s) {
  const bool negative = s < Seconds{0};
  std::int64_t minutes = (negative ? -s.count() : s.count()) / 60;
  const std::int64_t days = minutes / 1440;
  minutes %= 1440;
  std::string out = negative ? "-" : "";
  if (days > 0) out += std::to_string(days) + " d ";
  return out + std::to_string(minutes / 60) + " h " + std::to_string(minutes % 60) + " min";
}

RuleEvaluation makeEvaluation(const Rule& rule, std::string_view personId,
                              std::string_view shiftId) {
  RuleEvaluation e;
  e.ruleId = rule.id;
  e.input.set("personId", personId);
  e.input.set("shiftId", shiftId);
  e.result = EvalResult::kPass;
  return e;
}

json::Array idArray(const std::vector<std::string>& ids) {
  json::Array out;
  for (const std::string& id : ids) out.push_back(id);
  return out;
}

// The hours a premium case is counted on, and the change's size for minChangeMinutes.
Seconds affectedBy(const WorkChange& c) {
  switch (c.type) {
    case ChangeType::kAddedHours:
      return c.newLength - c.oldLength;
    case ChangeType::kReducedHours:
      return c.oldLength - c.newLength;
    case ChangeType::kCancelledShift:
      return c.oldLength;
    case ChangeType::kChangedNoLoss:
      return c.outsidePosted;
  }
  return Seconds{0};
}

std::string payText(const Pay& pay) {
  switch (pay.unit) {
    case PayUnit::kCents:
      return formatCents(pay.cents);
    case PayUnit::kHoursOfPay:
      return pay.amount + " h of pay";
    case PayUnit::kRateOfAffectedHours:
      return pay.amount + " x the rate per affected hour";
  }
  return {};
}

Seconds overlapOf(Instant a0, Instant a1, Instant b0, Instant b1) {
  const Instant s = std::max(a0, b0);
  const Instant e = std::min(a1, b1);
  return e > s ? Seconds{e - s} : Seconds{0};
}

}  // namespace

WorkChange workChange(std::string personId, std::string shiftId, Instant oldStart, Instant oldEnd,
                      Instant newStart, Instant newEnd, bool employeeRequested) {
  WorkChange c;
  c.personId = std::move(personId);
  c.shiftId = std::move(shiftId);
  c.oldStart = oldStart;
  c.oldEnd = oldEnd;
  c.newStart = newStart;
  c.newEnd = newEnd;
  c.oldLength = Seconds{oldEnd - oldStart};
  c.newLength = Seconds{newEnd - newStart};
  c.outsidePosted = c.newLength - overlapOf(newStart, newEnd, oldStart, oldEnd);
  c.employeeRequested = employeeRequested;
  const bool hadWork = c.oldLength > Seconds{0};
  const bool hasWork = c.newLength > Seconds{0};
  c.firstAffected = !hadWork ? newStart : !hasWork ? oldStart : std::min(oldStart, newStart);
  c.type = !hadWork                     ? ChangeType::kAddedHours
           : !hasWork                   ? ChangeType::kCancelledShift
           : c.newLength > c.oldLength  ? ChangeType::kAddedHours
           : c.newLength == c.oldLength ? ChangeType::kChangedNoLoss
                                        : ChangeType::kReducedHours;
  return c;
}

Result<FairWorkweek> FairWorkweek::build(const LaborContext& ctx) {
  FairWorkweek fww(ctx);
  for (const site::ScheduleVersion& v : ctx.model().scheduleVersions) {
    for (const std::string& id : v.shiftIds) {
      if (ctx.index().shift(id) == nullptr) {
        return Error{"schedule version '" + v.id + "': unknown shift '" + id + "'"};
      }
      fww.publications_[id].emplace_back(v.publishedAt, v.id);
    }
    if (!v.shiftIds.empty()) fww.periods_.push_back(fww.periodOf(v));
  }
  return fww;
}

FairWorkweek::Period FairWorkweek::periodOf(const site::ScheduleVersion& version) const {
  Instant first = Instant::max();
  Instant last = Instant::min();
  for (const std::string& id : version.shiftIds) {
    if (const site::Shift* s = ctx_->index().shift(id)) {
      first = std::min(first, s->start.utc);
      last = std::max(last, s->end.utc);
    }
  }
  const site::TimeZone& zone = ctx_->zone();
  return Period{chr::floor<chr::days>(zone.toLocal(first)),
                chr::floor<chr::days>(zone.toLocal(last) - Seconds{1}), version.publishedAt,
                version.id};
}

std::optional<Instant> FairWorkweek::firstPublished(std::string_view shiftId, Instant asOf,
                                                    std::string_view exceptVersion) const {
  const auto found = publications_.find(shiftId);
  if (found == publications_.end()) return std::nullopt;
  std::optional<Instant> first;
  for (const auto& [at, versionId] : found->second) {
    if (at > asOf || versionId == exceptVersion) continue;
    if (!first || at < *first) first = at;
  }
  return first;
}

bool FairWorkweek::inPublishedPeriod(Instant from, Instant to, Instant asOf,
                                     std::string_view exceptVersion) const {
  if (to <= from) return false;
  const site::TimeZone& zone = ctx_->zone();
  const chr::local_days firstDay = chr::floor<chr::days>(zone.toLocal(from));
  const chr::local_days lastDay = chr::floor<chr::days>(zone.toLocal(to) - Seconds{1});
  return std::any_of(periods_.begin(), periods_.end(), [&](const Period& p) {
    return p.publishedAt <= asOf && p.versionId != exceptVersion && firstDay <= p.last &&
           lastDay >= p.first;
  });
}

bool FairWorkweek::touchesPublishedSchedule(const WorkChange& change, Instant now) const {
  return firstPublished(change.shiftId, now).has_value() ||
         inPublishedPeriod(change.oldStart, change.oldEnd, now) ||
         inPublishedPeriod(change.newStart, change.newEnd, now);
}

Result<std::vector<RuleEvaluation>> FairWorkweek::publishFindings(
    const site::ScheduleVersion& version, Instant at) const {
  struct PersonShifts {
    std::vector<const site::Shift*> fresh;  // first published by this version
    std::vector<std::string> added;         // new, but inside days already published
  };
  std::map<std::string, PersonShifts, std::less<>> byPerson;
  for (const std::string& id : version.shiftIds) {
    const site::Shift* shift = ctx_->index().shift(id);
    if (shift == nullptr) {
      return Error{"schedule version '" + version.id + "': unknown shift '" + id + "'"};
    }
    if (!shift->assignee || firstPublished(id, at, version.id)) continue;
    PersonShifts& mine = byPerson[*shift->assignee];
    if (inPublishedPeriod(shift->start.utc, shift->end.utc, at, version.id)) {
      mine.added.push_back(id);
    } else {
      mine.fresh.push_back(shift);
    }
  }

  const site::TimeZone& zone = ctx_->zone();
  // Notice of a shift: real elapsed time and wall-clock time, whichever is shorter, so that a
  // DST night never shaves an hour off a notice period stated in days.
  const auto noticeOf = [&](const site::Shift& s) {
    const Seconds real{s.start.utc - at};
    const Seconds wall{zone.toLocal(s.start.utc) - zone.toLocal(at)};
    return std::min(real, wall);
  };
  // Where the ordinance counts "calendar days before the first day of the work schedule" (Oregon,
  // Seattle, Chicago...), the notice is the whole days from the local date of publication to the
  // first local day of the version's shifts, whatever the hour of either.
  // The schedule is what this version publishes for the first time: its first day is that of the
  // earliest such shift (shifts it republishes, or adds to days already published, are not it).
  const chr::local_days publishDay = chr::floor<chr::days>(zone.toLocal(at));
  Instant firstFresh = Instant::max();
  for (const auto& [personId, mine] : byPerson) {
    for (const site::Shift* s : mine.fresh) firstFresh = std::min(firstFresh, s->start.utc);
  }
  // (No fresh shift: nothing is judged against it; the publication day stands in.)
  const chr::local_days firstDay =
      firstFresh == Instant::max() ? publishDay : chr::floor<chr::days>(zone.toLocal(firstFresh));
  const std::int64_t scheduleDays = (firstDay - publishDay).count();
  const auto byScheduleDay = [](const Rule& r) {
    return r.text("measuredTo") == "first_day_of_schedule";
  };
  const auto late = [&](const Rule& r, const site::Shift& s) {
    return byScheduleDay(r) ? scheduleDays < r.integer("days")
                            : noticeOf(s) < chr::days{r.integer("days")};
  };

  std::vector<RuleEvaluation> out;
  for (const site::Person& person : ctx_->model().people) {
    const auto found = byPerson.find(person.id);
    if (found == byPerson.end()) continue;
    PersonShifts& mine = found->second;
    std::sort(mine.fresh.begin(), mine.fresh.end(), [](const site::Shift* a, const site::Shift* b) {
      return std::pair(a->start.utc, std::string_view(a->id)) <
             std::pair(b->start.utc, std::string_view(b->id));
    });

    // One evaluation per rule id (a rule's versions may differ by date: Chicago's 10 then 14
    // days), each shift judged by the version in force on its own date.
    struct Acc {
      const Rule* firstVersion = nullptr;
      const site::Shift* firstShift = nullptr;
      std::vector<std::string> late;
      const site::Shift* firstLate = nullptr;
      const Rule* firstLateVersion = nullptr;
    };
    std::vector<std::pair<std::string, Acc>> byRule;
    const auto accFor = [&](const std::string& id) -> Acc& {
      for (auto& [rid, acc] : byRule) {
        if (rid == id) return acc;
      }
      return byRule.emplace_back(id, Acc{}).second;
    };
    for (const site::Shift* s : mine.fresh) {
      for (const Rule* r : applicableRules(*ctx_, RuleKind::kAdvanceNotice, s->start.utc)) {
        Acc& acc = accFor(r->id);
        if (acc.firstShift == nullptr) {
          acc.firstShift = s;
          acc.firstVersion = r;
        }
        if (late(*r, *s)) {
          acc.late.push_back(s->id);
          if (acc.firstLate == nullptr) {
            acc.firstLate = s;
            acc.firstLateVersion = r;
          }
        }
      }
    }
    // A person with only additions to published days: say so once per rule, as n/a.
    if (mine.fresh.empty() && !mine.added.empty()) {
      const site::Shift* s = ctx_->index().shift(mine.added.front());
      for (const Rule* r : applicableRules(*ctx_, RuleKind::kAdvanceNotice, s->start.utc)) {
        RuleEvaluation e = makeEvaluation(*r, person.id, s->id);
        e.result = EvalResult::kNotApplicable;
        e.input.set("scheduleVersionId", version.id);
        e.input.set("publishedAt", site::formatLocal(zone.toLocal(at)));
        e.input.set("addedShiftIds", idArray(mine.added));
        e.detail =
            "shifts added to days already published are schedule changes, not part of "
            "this notice";
        out.push_back(std::move(e));
      }
    }
    for (auto& [ruleId, acc] : byRule) {
      const site::Shift& shown = acc.firstLate != nullptr ? *acc.firstLate : *acc.firstShift;
      const Rule& rule = acc.firstLate != nullptr ? *acc.firstLateVersion : *acc.firstVersion;
      RuleEvaluation e = makeEvaluation(rule, person.id, shown.id);
      const Seconds notice = noticeOf(shown);
      e.input.set("scheduleVersionId", version.id);
      e.input.set("publishedAt", site::formatLocal(zone.toLocal(at)));
      e.input.set("noticeMinutes", notice.count() / 60);
      e.input.set("requiredDays", rule.integer("days"));
      e.input.set("measuredTo", rule.text("measuredTo"));
      if (byScheduleDay(rule)) {
        e.input.set("scheduleFirstDay", site::formatLocalDay(firstDay));
        e.input.set("noticeDays", scheduleDays);
      }
      e.input.set("lateShiftIds", idArray(acc.late));
      e.input.set("addedShiftIds", idArray(mine.added));
      if (!acc.late.empty()) {
        e.result = EvalResult::kFail;
        e.effect = VerdictKind::kDenied;
        const std::string required =
            std::to_string(rule.integer("days")) +
            (byScheduleDay(rule) ? " calendar days before its first day are required"
                                 : " days of notice are required");
        e.detail = byScheduleDay(rule)
                       ? "schedule " + version.id + " was published on " +
                             site::formatLocalDay(publishDay) + ", " +
                             std::to_string(scheduleDays) + " days before its first day (" +
                             site::formatLocalDay(firstDay) + "); " + required
                       : "schedule " + version.id + " reaches " + person.id + " " +
                             noticeText(notice) + " before shift " + shown.id + " (" +
                             site::formatLocal(shown.start.local) + "); " + required;
      }
      out.push_back(std::move(e));
    }
  }
  return out;
}

std::vector<RuleEvaluation> FairWorkweek::changeFindings(const WorkChange& change,
                                                         Instant now) const {
  const std::vector<const Rule*> premiumRules =
      applicableRules(*ctx_, RuleKind::kChangePremium, change.firstAffected);
  const std::vector<const Rule*> declineRules =
      change.outsidePosted > Seconds{0}
          ? applicableRules(*ctx_, RuleKind::kRightToDeclineAddedHours, change.firstAffected)
          : std::vector<const Rule*>{};
  std::vector<RuleEvaluation> out;
  if (premiumRules.empty() && declineRules.empty()) return out;

  const site::Person* person = ctx_->index().person(change.personId);
  const std::int64_t rate = person != nullptr ? person->hourlyRateCents : 0;
  const bool published = touchesPublishedSchedule(change, now);
  const Seconds notice{change.firstAffected - now};
  const Seconds affected = affectedBy(change);
  const auto exempt = [&](RuleEvaluation& e) {
    e.result = EvalResult::kNotApplicable;
    e.detail = !published ? "not a change to a published schedule"
                          : "requested by the employee in writing: exempt";
  };

  // Premiums: the costliest matching case of each rule; then only the costliest rule pays.
  std::optional<std::size_t> costliest;
  for (const Rule* r : premiumRules) {
    RuleEvaluation e = makeEvaluation(*r, change.personId, change.shiftId);
    e.input.set("changeType", changeTypeName(change.type));
    e.input.set("noticeMinutes", notice.count() / 60);
    e.input.set("oldMinutes", change.oldLength.count() / 60);
    e.input.set("newMinutes", change.newLength.count() / 60);
    e.input.set("affectedMinutes", affected.count() / 60);
    if (!published || change.employeeRequested) {
      exempt(e);
      out.push_back(std::move(e));
      continue;
    }
    const PremiumCase* best = nullptr;
    PremiumAmount bestAmount;
    for (const PremiumCase& c : r->cases("cases")) {
      if (c.change != change.type || notice >= chr::hours{c.noticeLessThanHours}) continue;
      if (c.noticeAtLeastHours && notice < chr::hours{*c.noticeAtLeastHours}) continue;
      // "More than N minutes", in whole minutes ("at least 15" is written as more than 14).
      if (c.minChangeMinutes && affected.count() / 60 <= *c.minChangeMinutes) continue;
      const PremiumAmount amount = premiumFor(c.pay, 1, affected, rate);
      if (best == nullptr || amount.cents > bestAmount.cents ||
          (amount.cents == bestAmount.cents && amount.minutes > bestAmount.minutes)) {
        best = &c;
        bestAmount = amount;
      }
    }
    if (best == nullptr) {
      e.detail = "no premium for a " + std::string(changeTypeName(change.type)) + " change with " +
                 noticeText(notice) + " notice";
      out.push_back(std::move(e));
      continue;
    }
    e.result = EvalResult::kThresholdExceeded;
    e.effect = VerdictKind::kAllowedWithPremium;
    e.premiumMinutes = bestAmount.minutes;
    e.premiumCents = bestAmount.cents;
    e.extraCents = bestAmount.extraCents;
    e.input.set("noticeLessThanHours", best->noticeLessThanHours);
    if (best->noticeAtLeastHours) e.input.set("noticeAtLeastHours", *best->noticeAtLeastHours);
    e.input.set("pay", payText(best->pay));
    e.detail = std::string(changeTypeName(change.type)) + " with " + noticeText(notice) +
               " notice owes " + payText(best->pay) + ": " + formatCents(e.premiumCents) +
               (rate == 0 && best->pay.unit != PayUnit::kCents ? " (no hourly rate on file)" : "");
    if (!costliest || e.premiumCents > out[*costliest].premiumCents) costliest = out.size();
    out.push_back(std::move(e));
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (!costliest || i == *costliest || out[i].effect != VerdictKind::kAllowedWithPremium) {
      continue;
    }
    out[i].premiumMinutes = 0;
    out[i].premiumCents = 0;
    out[i].extraCents = 0;
    out[i].detail += "; not added: the costlier premium of " + out[*costliest].ruleId + " applies";
  }

  for (const Rule* r : declineRules) {
    RuleEvaluation e = makeEvaluation(*r, change.personId, change.shiftId);
    const bool written = r->has("writtenConsentRequired") && r->flag("writtenConsentRequired");
    e.input.set("outsidePostedMinutes", change.outsidePosted.count() / 60);
    e.input.set("writtenConsentRequired", written);
    if (!published || change.employeeRequested) {
      exempt(e);
      out.push_back(std::move(e));
      continue;
    }
    e.result = EvalResult::kThresholdExceeded;
    e.effect = VerdictKind::kNeedsConsent;
    e.detail = change.personId + " may decline the " +
               std::to_string(change.outsidePosted.count() / 60) +
               " min outside the posted schedule; ask for their " +
               (written ? "written consent" : "consent");
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace atoms::labor
