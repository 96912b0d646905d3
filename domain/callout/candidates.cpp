#include "domain/callout/candidates.h"

#include <algorithm>
#include <chrono>
#include <tuple>

namespace atoms::callout {

namespace {

bool hasRole(const site::Person& p, std::string_view station) {
  return std::find(p.roles.begin(), p.roles.end(), station) != p.roles.end();
}

// Minutes each person is already scheduled in the week (local, from the site's workweek start)
// that holds the shift's start.
std::map<std::string, std::int64_t, std::less<>> weekMinutes(const SiteSnapshot& site,
                                                             const site::Shift& shift) {
  using namespace std::chrono;
  const unsigned weekStart = site.labor().model().site.workweekStart;
  const local_days day = floor<days>(shift.start.local);
  const unsigned wd = weekday(day).c_encoding();
  const local_days first = day - days((wd + 7 - weekStart) % 7);
  const local_days last = first + days(7);
  std::map<std::string, std::int64_t, std::less<>> out;
  for (const site::Shift& s : site.model().shifts) {
    if (!s.assignee || s.id == shift.id) continue;
    if (s.start.local < first || s.start.local >= last) continue;
    out[*s.assignee] += duration_cast<minutes>(s.end.utc - s.start.utc).count();
  }
  return out;
}

}  // namespace

Result<CandidateList> findCandidates(const SiteSnapshot& site, const site::Shift& shift,
                                     std::string_view absentId, site::Instant now,
                                     const ReachabilityOf& reach) {
  CandidateList list;
  const auto minutes = weekMinutes(site, shift);
  for (const site::Person& person : site.model().people) {
    if (person.id == absentId || !hasRole(person, shift.stationId)) continue;
    if (shift.assignee && *shift.assignee == person.id) continue;
    auto facts = reach(person);
    if (!facts) return facts.error();
    std::string unreachable;
    if (facts->alreadyOffered) {
      unreachable = "already_offered";
    } else if (facts->outToday) {
      unreachable = "out_today";  // someone who cannot work today is not asked to, kindly
    } else if (!facts->consent) {
      unreachable = "no_consent";
    } else if (facts->optedOut) {
      unreachable = "opted_out";
    } else if (facts->offersPaused) {
      unreachable = "offers_paused";
    } else if (facts->quietNow && !facts->urgentAtNight) {
      unreachable = "quiet_hours";
    }
    if (!unreachable.empty()) {
      list.excluded.push_back({person.id, unreachable, {}});
      continue;
    }
    labor::ScheduleChange change{labor::AssignShift{person.id, shift.id}, true};
    auto verdict = site.changes().evaluate(change, now);
    if (!verdict) return verdict.error();
    const labor::PersonVerdict* mine = verdict->person(person.id);
    if (mine == nullptr) return makeError("labor engine: no verdict for " + person.id);
    if (mine->verdict.kind == labor::VerdictKind::kDenied) {
      Excluded out{person.id, "denied", {}};
      for (const labor::RuleEvaluation& e : mine->verdict.evaluations) {
        if (e.effect == labor::VerdictKind::kDenied) out.rules.push_back(e.ruleId);
      }
      list.excluded.push_back(std::move(out));
      continue;
    }
    Candidate c;
    c.personId = person.id;
    c.verdict = *mine;
    c.premiumMinutes = mine->verdict.premiumMinutes;
    c.premiumCents = mine->verdict.premiumCents;
    c.premium = mine->verdict.kind == labor::VerdictKind::kAllowedWithPremium ||
                c.premiumMinutes > 0 || c.premiumCents > 0;
    c.recentOffers = facts->recentOffers;
    if (auto it = minutes.find(person.id); it != minutes.end()) c.weekMinutes = it->second;
    list.ranked.push_back(std::move(c));
  }
  std::sort(list.ranked.begin(), list.ranked.end(), [](const Candidate& a, const Candidate& b) {
    return std::tie(a.premium, a.premiumCents, a.recentOffers, a.weekMinutes, a.personId) <
           std::tie(b.premium, b.premiumCents, b.recentOffers, b.weekMinutes, b.personId);
  });
  int rank = 0;
  for (Candidate& c : list.ranked) c.rank = ++rank;
  return list;
}

json::Value candidateJson(const Candidate& c) {
  return json::Object{{"person", c.personId},
                      {"rank", c.rank},
                      {"verdict", labor::verdictKindName(c.verdict.verdict.kind)},
                      {"premiumMinutes", c.premiumMinutes},
                      {"premiumCents", c.premiumCents},
                      {"offersLast14Days", c.recentOffers},
                      {"minutesThisWeek", c.weekMinutes}};
}

json::Value excludedJson(const Excluded& e) {
  json::Array rules;
  for (const std::string& r : e.rules) rules.push_back(r);
  return json::Object{{"person", e.personId}, {"reason", e.reason}, {"rules", std::move(rules)}};
}

}  // namespace atoms::callout
