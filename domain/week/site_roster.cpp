#include "domain/week/site_roster.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "domain/week/week_check.h"

namespace atoms::week {

namespace chr = std::chrono;

namespace {

// The weights of the model, in the units of PlanScore::total() (week_plan.cpp).
constexpr int kOpenShiftWeight = 100000;     // one head short on a (day, type)
constexpr int kOverCoverWeight = 1000000;    // one head more than there are shifts
constexpr int kNotAllowedWeight = 10000000;  // a cell the labor engine denies, or unavailable
constexpr int kKeepWeight = 1000;            // the draft's person taken off their shift
constexpr int kAwayFromMainStation = 500;    // a station that is not the person's first role
constexpr std::int64_t kRosterWageDivisor = 10;
constexpr int kMaxDaysInARow = 6;
constexpr int kMinRestMinutes = 10 * 60;

struct TypeKey {
  std::string station;
  std::string certification;
  int start = 0;
  std::int64_t minutes = 0;
  auto tie() const { return std::tie(station, certification, start, minutes); }
  bool operator<(const TypeKey& o) const { return tie() < o.tie(); }
};

}  // namespace

int workdayIndex(const site::SiteInfo& site, Week week, const site::Shift& shift) {
  const auto day = chr::floor<chr::days>(shift.start.local - chr::minutes(site.workdayStartMinute));
  return static_cast<int>(std::clamp<std::int64_t>((day - week).count(), 0, 6));
}

int workdayMinute(const site::SiteInfo& site, const site::Shift& shift) {
  const auto day = chr::floor<chr::days>(shift.start.local - chr::minutes(site.workdayStartMinute));
  return static_cast<int>(
      chr::duration_cast<chr::minutes>(shift.start.local - site::LocalTime(day)).count());
}

std::int64_t shiftMinutes(const site::Shift& shift) {
  return chr::duration_cast<chr::minutes>(shift.end.utc - shift.start.utc).count();
}

bool availableFor(const site::Person& person, const site::Shift& shift) {
  if (person.availability.empty()) return true;
  const auto date = chr::floor<chr::days>(shift.start.local);
  const unsigned weekday = chr::weekday(date).c_encoding();
  const auto start = chr::duration_cast<chr::minutes>(shift.start.local - date).count();
  const auto end = chr::duration_cast<chr::minutes>(shift.end.local - date).count();
  return std::any_of(person.availability.begin(), person.availability.end(),
                     [&](const site::AvailabilityWindow& w) {
                       const int wEnd =
                           w.endMinute <= w.startMinute ? w.endMinute + 1440 : w.endMinute;
                       return w.weekday == weekday && start >= w.startMinute && end <= wEnd;
                     });
}

bool undesirable(const site::Shift& shift) {
  const auto date = chr::floor<chr::days>(shift.start.local);
  const unsigned weekday = chr::weekday(date).c_encoding();
  const auto end = chr::duration_cast<chr::minutes>(shift.end.local - date).count();
  return weekday == 0 || weekday == 6 || end > 22 * 60;
}

bool worksStation(const site::Person& person, const std::string& stationId) {
  return std::find(person.roles.begin(), person.roles.end(), stationId) != person.roles.end();
}

Result<SiteRoster> siteRoster(const SiteRosterInput& in) {
  const site::SiteModel& live = *in.live;
  const std::vector<site::Shift>& shifts = *in.shifts;
  SiteRoster out;
  schedule::RosterInstance& inst = out.instance;
  inst.days = 7;
  inst.firstWeekday = static_cast<int>((live.site.workweekStart + 6) % 7);

  // Types: the distinct shapes of the free shifts.
  std::map<TypeKey, int> typeOf;
  std::vector<std::size_t> representative;  // [type]: a shift of that type
  std::vector<std::pair<int, int>> dayType(shifts.size(), {-1, -1});
  for (std::size_t i = 0; i < shifts.size(); ++i) {
    if (!in.free[i]) continue;
    const site::Shift& s = shifts[i];
    const TypeKey key{s.stationId, s.requiredCertification.value_or(""),
                      workdayMinute(live.site, s), shiftMinutes(s)};
    auto [it, added] = typeOf.emplace(key, static_cast<int>(inst.types.size()));
    if (added) {
      inst.types.push_back(
          {s.stationId + "@" + std::to_string(key.start), static_cast<int>(key.minutes), {}});
      representative.push_back(i);
    }
    dayType[i] = {workdayIndex(live.site, in.week, s), it->second};
  }
  const int types = inst.typeCount();
  for (int a = 0; a < types; ++a) {
    auto& follow = inst.types[a].cannotFollow;
    follow.assign(types, false);
    const site::Shift& sa = shifts[representative[a]];
    const int endA = workdayMinute(live.site, sa) + inst.types[a].minutes;
    for (int b = 0; b < types; ++b) {
      const int startB = workdayMinute(live.site, shifts[representative[b]]) + 1440;
      follow[b] = startB - endA < kMinRestMinutes;
    }
  }
  out.slots.assign(7, std::vector<std::vector<std::size_t>>(types));
  inst.cover.assign(7,
                    std::vector<schedule::Cover>(types, {0, kOpenShiftWeight, kOverCoverWeight}));
  for (std::size_t i = 0; i < shifts.size(); ++i) {
    if (!in.free[i]) continue;
    auto [d, t] = dayType[i];
    out.slots[d][t].push_back(i);
    ++inst.cover[d][t].requirement;
  }

  // What the kept shifts already take: their days and minutes.
  std::vector<site::Shift> kept;
  for (std::size_t i = 0; i < shifts.size(); ++i) {
    if (!in.free[i]) kept.push_back(shifts[i]);
  }
  const site::SiteModel fixedModel = withWeek(live, in.week, kept);
  auto ctx = labor::LaborContext::build(fixedModel, *in.rules, in.options);
  if (!ctx) return ctx.error();

  for (const site::Person& person : live.people) {
    const int p = inst.personCount();
    out.personIds.push_back(person.id);
    schedule::Person line;
    line.id = person.id;
    line.maxPerType.assign(types, 0);
    line.dayOff.assign(7, false);
    std::int64_t keptMinutes = 0;
    for (const site::Shift& s : kept) {
      if (s.assignee != person.id) continue;
      line.dayOff[workdayIndex(live.site, in.week, s)] = true;
      keptMinutes += shiftMinutes(s);
    }
    line.maxMinutes = std::max<std::int64_t>(0, kOvertimeLineMinutes - keptMinutes);
    line.maxConsecutive = kMaxDaysInARow;
    line.maxWeekends = 2;
    for (int t = 0; t < types; ++t) {
      const site::Shift& rep = shifts[representative[t]];
      if (worksStation(person, rep.stationId)) line.maxPerType[t] = 7;
    }
    inst.people.push_back(std::move(line));
    for (int d = 0; d < 7; ++d) {
      if (inst.people[p].dayOff[d]) continue;
      for (int t = 0; t < types; ++t) {
        if (inst.people[p].maxPerType[t] == 0 || out.slots[d][t].empty()) continue;
        const site::Shift& s = shifts[out.slots[d][t].front()];
        int weight = 0;
        if (!availableFor(person, s)) {
          weight = kNotAllowedWeight;
        } else {
          auto verdict = ctx->evaluate(person.id, s, labor::Scope::kAllShifts);
          if (!verdict) return makeError("shift '" + s.id + "': " + verdict.message());
          if (verdict->kind == labor::VerdictKind::kDenied ||
              verdict->kind == labor::VerdictKind::kNeedsConsent) {
            weight = kNotAllowedWeight;
          } else {
            const std::int64_t wage = shiftMinutes(s) * person.hourlyRateCents / 60;
            weight = static_cast<int>(std::min<std::int64_t>(
                kNotAllowedWeight / 2, wage / kRosterWageDivisor + verdict->extraCents));
            if (person.roles.empty() || person.roles.front() != s.stationId) {
              weight += kAwayFromMainStation;
            }
          }
        }
        if (weight > 0) inst.offRequests.push_back({p, d, t, weight});
      }
    }
  }
  // Stability: the draft's person on each free shift.
  std::map<std::string, int> personIndex;
  for (int p = 0; p < inst.personCount(); ++p) personIndex[out.personIds[p]] = p;
  for (std::size_t i = 0; i < shifts.size(); ++i) {
    if (!in.free[i] || !shifts[i].assignee) continue;
    auto it = personIndex.find(*shifts[i].assignee);
    if (it == personIndex.end()) continue;
    inst.onRequests.push_back({it->second, dayType[i].first, dayType[i].second, kKeepWeight});
  }
  return out;
}

void applyRoster(const SiteRoster& roster, const schedule::Roster& cells,
                 const std::vector<bool>& free, std::vector<site::Shift>& shifts) {
  const std::vector<site::Shift> before = shifts;
  for (std::size_t i = 0; i < shifts.size(); ++i) {
    if (free[i]) shifts[i].assignee.reset();
  }
  std::vector<bool> taken(shifts.size(), false);
  // First each person's own shift of the type, then any shift of it still open.
  for (int pass = 0; pass < 2; ++pass) {
    for (int p = 0; p < roster.instance.personCount(); ++p) {
      const std::string& id = roster.personIds[p];
      for (int d = 0; d < roster.instance.days; ++d) {
        const int t = cells.cells[p][d];
        if (t == schedule::kOff) continue;
        const bool placed =
            std::any_of(roster.slots[d][t].begin(), roster.slots[d][t].end(),
                        [&](std::size_t i) { return taken[i] && shifts[i].assignee == id; });
        if (placed) continue;
        for (std::size_t i : roster.slots[d][t]) {
          if (taken[i] || (pass == 0 && before[i].assignee != id)) continue;
          taken[i] = true;
          shifts[i].assignee = id;
          break;
        }
      }
    }
  }
}

}  // namespace atoms::week
