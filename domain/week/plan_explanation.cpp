#include "domain/week/plan_explanation.h"

#include <algorithm>
#include <map>

#include "domain/labor/pay.h"
#include "domain/week/site_roster.h"

namespace atoms::week {

namespace {

std::string hoursText(std::int64_t minutes) {
  const std::int64_t h = minutes / 60;
  const std::int64_t m = minutes % 60;
  return std::to_string(h) +
         (m == 0 ? "" : ":" + std::string(m < 10 ? "0" : "") + std::to_string(m)) + " h";
}

std::vector<std::string> rulesWith(const labor::Verdict& v, labor::VerdictKind effect) {
  std::vector<std::string> out;
  for (const labor::RuleEvaluation& e : v.evaluations) {
    if (e.effect == effect && std::find(out.begin(), out.end(), e.ruleId) == out.end()) {
      out.push_back(e.ruleId);
    }
  }
  return out;
}

std::string firstDetail(const labor::Verdict& v, labor::VerdictKind effect) {
  for (const labor::RuleEvaluation& e : v.evaluations) {
    if (e.effect == effect) return e.detail;
  }
  return "";
}

}  // namespace

Result<std::vector<PlanChoice>> explainChoices(const ExplainInput& in,
                                               const std::vector<std::size_t>& which) {
  const site::SiteModel& site = in.planned->model();
  const std::vector<site::Shift>& shifts = *in.shifts;
  // Each person's minutes and workdays in the plan's week.
  std::map<std::string, std::int64_t> minutes;
  std::map<std::string, std::vector<int>> workdays;
  for (const site::Shift& s : shifts) {
    if (!s.assignee) continue;
    minutes[*s.assignee] += shiftMinutes(s);
    workdays[*s.assignee].push_back(workdayIndex(site.site, in.week, s));
  }
  std::vector<PlanChoice> out;
  for (std::size_t i : which) {
    const site::Shift& s = shifts[i];
    const int day = workdayIndex(site.site, in.week, s);
    PlanChoice c;
    c.shiftId = s.id;
    c.personId = s.assignee;
    if (s.assignee) {
      const site::Person* p = in.planned->index().person(*s.assignee);
      auto v = in.planned->evaluate(*s.assignee, s.id, labor::Scope::kAllShifts);
      if (!v) return makeError("shift '" + s.id + "': " + v.message());
      c.why = v->extraCents > 0
                  ? "premium " + labor::formatCents(v->extraCents) + " (the manager approves)"
                  : "no premium";
      if (p != nullptr && !p->roles.empty()) {
        c.why += p->roles.front() == s.stationId ? "; their main station"
                                                 : "; also works " + s.stationId;
      }
      if ((*in.draft)[i].assignee == s.assignee) c.why += "; kept from the draft";
      c.why += "; " + hoursText(minutes[*s.assignee]) + " this week with it";
    } else {
      c.why = "left open: nobody who works " + s.stationId +
              " can take it within the labor rules and their availability";
    }
    for (const site::Person& q : site.people) {
      if (q.id == s.assignee || !worksStation(q, s.stationId)) continue;
      PassedOver o;
      o.personId = q.id;
      auto v = in.planned->evaluate(q.id, s.id, labor::Scope::kAllShifts);
      if (!v) return makeError("shift '" + s.id + "': " + v.message());
      const auto& days = workdays[q.id];
      const std::int64_t with = minutes[q.id] + shiftMinutes(s);
      if (!availableFor(q, s)) {
        o.reason = "unavailable";
        o.detail = "outside the times they said they can work";
      } else if (v->kind == labor::VerdictKind::kDenied) {
        o.reason = "denied";
        o.rules = rulesWith(*v, labor::VerdictKind::kDenied);
        o.detail = firstDetail(*v, labor::VerdictKind::kDenied);
      } else if (v->kind == labor::VerdictKind::kNeedsConsent) {
        o.reason = "needs_consent";
        o.rules = rulesWith(*v, labor::VerdictKind::kNeedsConsent);
        o.detail = firstDetail(*v, labor::VerdictKind::kNeedsConsent);
      } else if (std::find(days.begin(), days.end(), day) != days.end()) {
        o.reason = "works_that_day";
        o.detail = "already has a shift that day";
      } else if (v->extraCents > 0) {
        o.reason = "premium";
        o.detail = "would cost a premium of " + labor::formatCents(v->extraCents);
      } else if (with > kOvertimeLineMinutes) {
        o.reason = "over_hours";
        o.detail = "would have " + hoursText(with) + " this week, past the overtime line";
      } else {
        o.reason = "placed_elsewhere";
        const site::Person* chosen = s.assignee ? in.planned->index().person(*s.assignee) : nullptr;
        o.detail = chosen != nullptr && chosen->hourlyRateCents < q.hourlyRateCents
                       ? "could work it; " + chosen->name + "'s hour costs less"
                       : "could work it; the plan keeps changes few and hours even (" +
                             hoursText(minutes[q.id]) + " this week)";
      }
      c.others.push_back(std::move(o));
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace atoms::week
