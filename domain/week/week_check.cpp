#include "domain/week/week_check.h"

#include <algorithm>
#include <map>
#include <utility>

namespace atoms::week {

namespace chr = std::chrono;

namespace {

constexpr auto kShiftOrder = [](const site::Shift& a, const site::Shift& b) {
  return a.start.utc != b.start.utc ? a.start.utc < b.start.utc : a.id < b.id;
};

bool isFinding(const labor::RuleEvaluation& e) {
  if (e.toPlan) return false;
  return e.result == labor::EvalResult::kFail ||
         e.result == labor::EvalResult::kThresholdExceeded ||
         e.effect != labor::VerdictKind::kAllowed || e.premiumCents != 0;
}

std::int64_t minutesOf(const site::Shift& s) {
  return chr::duration_cast<chr::minutes>(s.end.utc - s.start.utc).count();
}

}  // namespace

bool overridable(std::string_view ruleId, const labor::RuleBook& rules) {
  if (ruleId == labor::kRuleTimeOff) return true;
  for (const labor::Rule* r : rules.rulesOfKind(labor::RuleKind::kAdvanceNotice)) {
    if (r->id == ruleId) return true;
  }
  return false;
}

site::SiteModel withWeek(const site::SiteModel& live, Week week,
                         const std::vector<site::Shift>& shifts) {
  site::SiteModel m = live;
  m.scheduleVersions.clear();
  std::erase_if(m.shifts, [&](const site::Shift& s) { return inWeek(live.site, week, s); });
  m.shifts.insert(m.shifts.end(), shifts.begin(), shifts.end());
  std::sort(m.shifts.begin(), m.shifts.end(), kShiftOrder);
  return m;
}

Result<WeekCheck> checkWeek(const site::SiteModel& live, const labor::RuleBook& rules,
                            const labor::LaborOptions& options, Week week,
                            const std::vector<site::Shift>& shifts) {
  // Only what the week's rules can see: the week before (rest, a seventh day) and the week.
  site::SiteModel m = withWeek(live, week, shifts);
  const site::LocalTime from = site::LocalTime(week - chr::days(7));
  const site::LocalTime to = site::LocalTime(week + chr::days(8));
  std::erase_if(m.shifts,
                [&](const site::Shift& s) { return s.end.local < from || s.start.local >= to; });
  auto ctx = labor::LaborContext::build(m, rules, options);
  if (!ctx) return ctx.error();

  WeekCheck out;
  out.labor.days.resize(7);
  for (int d = 0; d < 7; ++d) out.labor.days[d].day = week + chr::days(d);
  std::vector<site::Shift> ordered = shifts;
  std::sort(ordered.begin(), ordered.end(), kShiftOrder);
  for (const site::Shift& s : ordered) {
    const auto workday =
        chr::floor<chr::days>(s.start.local - chr::minutes(live.site.workdayStartMinute));
    const auto index = std::clamp<std::int64_t>((workday - week).count(), 0, 6);
    DayLabor& day = out.labor.days[static_cast<std::size_t>(index)];
    const std::int64_t minutes = minutesOf(s);
    if (!s.assignee) {
      day.openMinutes += minutes;
      ++day.openShifts;
      continue;
    }
    const site::Person* person = ctx->index().person(*s.assignee);
    if (person == nullptr) {
      return makeError("shift '" + s.id + "': unknown person '" + *s.assignee + "'");
    }
    day.minutes += minutes;
    day.wageCents += (minutes * person->hourlyRateCents + 30) / 60;
    ++day.shifts;
    auto verdict = ctx->evaluate(*s.assignee, s.id, labor::Scope::kEarlierShifts);
    if (!verdict) return makeError("shift '" + s.id + "': " + verdict.message());
    day.premiumCents += verdict->premiumCents;
    day.extraCents += verdict->extraCents;
    for (const labor::RuleEvaluation& e : verdict->evaluations) {
      if (!isFinding(e)) continue;
      WeekFinding f;
      f.ruleId = e.ruleId;
      f.personId = *s.assignee;
      f.shiftId = s.id;
      f.result = e.result;
      f.effect = e.effect;
      f.premiumMinutes = e.premiumMinutes;
      f.premiumCents = e.premiumCents;
      f.detail = e.detail;
      f.overridable = f.denied() && overridable(f.ruleId, rules);
      out.denied += f.denied() ? 1 : 0;
      out.needsConsent += f.consentNeeded() ? 1 : 0;
      out.findings.push_back(std::move(f));
    }
  }
  for (const DayLabor& d : out.labor.days) {
    out.labor.minutes += d.minutes;
    out.labor.wageCents += d.wageCents;
    out.labor.premiumCents += d.premiumCents;
    out.labor.extraCents += d.extraCents;
    out.labor.openMinutes += d.openMinutes;
  }
  return out;
}

std::vector<WeekFinding> newDenials(const WeekCheck& before, const WeekCheck& after) {
  std::vector<WeekFinding> out;
  for (const WeekFinding& f : after.findings) {
    if (!f.denied()) continue;
    const bool known =
        std::any_of(before.findings.begin(), before.findings.end(),
                    [&f](const WeekFinding& b) { return b.denied() && b.sameAs(f); });
    if (!known) out.push_back(f);
  }
  return out;
}

json::Value findingJson(const WeekFinding& f) {
  return json::Object{{"ruleId", f.ruleId},
                      {"person", f.personId},
                      {"shift", f.shiftId},
                      {"result", labor::evalResultName(f.result)},
                      {"effect", labor::verdictKindName(f.effect)},
                      {"premiumMinutes", f.premiumMinutes},
                      {"premiumCents", f.premiumCents},
                      {"consentNeeded", f.consentNeeded()},
                      {"denied", f.denied()},
                      {"overridable", f.overridable},
                      {"detail", f.detail}};
}

json::Value weekLaborJson(const WeekLabor& labor) {
  json::Array days;
  for (const DayLabor& d : labor.days) {
    days.push_back(json::Object{{"day", formatWeek(d.day)},
                                {"minutes", d.minutes},
                                {"wageCents", d.wageCents},
                                {"premiumCents", d.premiumCents},
                                {"extraCents", d.extraCents},
                                {"costCents", d.costCents()},
                                {"openMinutes", d.openMinutes},
                                {"shifts", d.shifts},
                                {"openShifts", d.openShifts}});
  }
  return json::Object{{"days", std::move(days)},         {"minutes", labor.minutes},
                      {"wageCents", labor.wageCents},    {"premiumCents", labor.premiumCents},
                      {"extraCents", labor.extraCents},  {"costCents", labor.costCents()},
                      {"openMinutes", labor.openMinutes}};
}

}  // namespace atoms::week
