#include "domain/schedule/roster_evaluator.h"

#include <algorithm>
#include <utility>

namespace atoms::schedule {
namespace {

// Calls sink(rule, day, amount) for every violation of the hard rules by one person's line. The
// one definition of the rules: the evaluator lists what it is told, the solver adds it up.
template <class Sink>
void checkPersonLine(const RosterInstance& in, int person, const int* cells, Sink&& sink) {
  const Person& p = in.people[person];
  const int days = in.days;
  const int types = in.typeCount();
  std::int64_t minutes = 0;
  int perType[64] = {};
  std::vector<int> perTypeWide;
  int* counts = perType;
  if (types > 64) {
    perTypeWide.assign(types, 0);
    counts = perTypeWide.data();
  }
  for (int d = 0; d < days; ++d) {
    const int c = cells[d];
    if (c == kOff) continue;
    if (p.dayOff[d]) sink(RosterRule::kDayOff, d, 1);
    ++counts[c];
    minutes += in.types[c].minutes;
    if (d + 1 < days && cells[d + 1] != kOff && in.types[c].cannotFollow[cells[d + 1]]) {
      sink(RosterRule::kSuccession, d, 1);
    }
  }
  for (int t = 0; t < types; ++t) {
    if (counts[t] > p.maxPerType[t])
      sink(RosterRule::kMaxPerType, -1 - t, counts[t] - p.maxPerType[t]);
  }
  if (minutes > p.maxMinutes) sink(RosterRule::kMaxMinutes, -1, minutes - p.maxMinutes);
  if (minutes < p.minMinutes) sink(RosterRule::kMinMinutes, -1, p.minMinutes - minutes);

  // Runs of working days and of days off.
  int start = 0;
  while (start < days) {
    const bool working = cells[start] != kOff;
    int end = start;
    while (end + 1 < days && (cells[end + 1] != kOff) == working) ++end;
    const int length = end - start + 1;
    const bool inside = start > 0 && end < days - 1;
    if (working) {
      if (length > p.maxConsecutive)
        sink(RosterRule::kMaxConsecutive, start, length - p.maxConsecutive);
      if (inside && length < p.minConsecutive) {
        sink(RosterRule::kMinConsecutive, start, p.minConsecutive - length);
      }
    } else if (inside && length < p.minDaysOff) {
      sink(RosterRule::kMinDaysOff, start, p.minDaysOff - length);
    }
    start = end + 1;
  }

  // As RosterInstance::weekendSaturdays(), without its allocation: this runs for every move.
  int weekends = 0;
  for (int saturday = (5 - in.firstWeekday + 7) % 7; saturday + 1 < days; saturday += 7) {
    if (cells[saturday] != kOff || cells[saturday + 1] != kOff) ++weekends;
  }
  if (weekends > p.maxWeekends) sink(RosterRule::kMaxWeekends, -1, weekends - p.maxWeekends);
}

std::string violationText(const RosterInstance& in, int person, const int* cells, RosterRule rule,
                          int day, std::int64_t amount) {
  const Person& p = in.people[person];
  const std::string who = p.id + ": ";
  const std::string from = " from day " + std::to_string(day);
  switch (rule) {
    case RosterRule::kDayOff:
      return who + "works on day " + std::to_string(day) + ", a day off";
    case RosterRule::kSuccession:
      return who + "works " + in.types[cells[day]].id + " on day " + std::to_string(day) + " and " +
             in.types[cells[day + 1]].id + " the next day, which may not follow it";
    case RosterRule::kMaxPerType: {
      const int t = -1 - day;
      return who + "works shift " + in.types[t].id + " " +
             std::to_string(p.maxPerType[t] + amount) + " times, at most " +
             std::to_string(p.maxPerType[t]);
    }
    case RosterRule::kMaxMinutes:
      return who + "works " + std::to_string(p.maxMinutes + amount) + " minutes, at most " +
             std::to_string(p.maxMinutes);
    case RosterRule::kMinMinutes:
      return who + "works " + std::to_string(p.minMinutes - amount) + " minutes, at least " +
             std::to_string(p.minMinutes);
    case RosterRule::kMaxConsecutive:
      return who + "works " + std::to_string(p.maxConsecutive + amount) + " days in a row" + from +
             ", at most " + std::to_string(p.maxConsecutive);
    case RosterRule::kMinConsecutive:
      return who + "works " + std::to_string(p.minConsecutive - amount) + " days in a row" + from +
             ", at least " + std::to_string(p.minConsecutive);
    case RosterRule::kMinDaysOff:
      return who + "has " + std::to_string(p.minDaysOff - amount) + " days off in a row" + from +
             ", at least " + std::to_string(p.minDaysOff);
    case RosterRule::kMaxWeekends:
      return who + "works " + std::to_string(p.maxWeekends + amount) + " weekends, at most " +
             std::to_string(p.maxWeekends);
    case RosterRule::kShape:
      break;
  }
  return who + "does not fit the instance";
}

}  // namespace

std::int64_t lineHardExcess(const RosterInstance& instance, int person, const int* cells) {
  std::int64_t shortest = 0;
  for (const ShiftType& t : instance.types) {
    if (t.minutes > 0 && (shortest == 0 || t.minutes < shortest)) shortest = t.minutes;
  }
  if (shortest == 0) shortest = 60;
  std::int64_t total = 0;
  checkPersonLine(instance, person, cells, [&](RosterRule rule, int, std::int64_t amount) {
    if (rule == RosterRule::kMaxMinutes || rule == RosterRule::kMinMinutes) {
      amount = (amount + shortest - 1) / shortest;
    }
    total += amount;
  });
  return total;
}

RosterEvaluation evaluateRoster(const RosterInstance& in, const Roster& roster) {
  RosterEvaluation e;
  if (static_cast<int>(roster.cells.size()) != in.personCount()) {
    e.violations.push_back({RosterRule::kShape, -1, -1, 0,
                            "the roster has " + std::to_string(roster.cells.size()) +
                                " lines for " + std::to_string(in.personCount()) + " employees"});
    return e;
  }
  for (int p = 0; p < in.personCount(); ++p) {
    const std::vector<int>& line = roster.cells[p];
    const bool sized = static_cast<int>(line.size()) == in.days;
    const bool known = sized && std::all_of(line.begin(), line.end(), [&](int c) {
                         return c == kOff || (c >= 0 && c < in.typeCount());
                       });
    if (!known) {
      e.violations.push_back({RosterRule::kShape, p, -1, 0,
                              in.people[p].id + ": the line does not have " +
                                  std::to_string(in.days) + " days of known shifts"});
      return e;
    }
  }
  for (int p = 0; p < in.personCount(); ++p) {
    checkPersonLine(
        in, p, roster.cells[p].data(), [&](RosterRule rule, int day, std::int64_t amount) {
          const bool perType = rule == RosterRule::kMaxPerType;
          e.violations.push_back({rule, p, perType ? -1 : day, amount,
                                  violationText(in, p, roster.cells[p].data(), rule, day, amount)});
        });
  }
  for (const ShiftRequest& r : in.onRequests) {
    if (roster.cells[r.person][r.day] != r.type) e.onRequests += r.weight;
  }
  for (const ShiftRequest& r : in.offRequests) {
    if (roster.cells[r.person][r.day] == r.type) e.offRequests += r.weight;
  }
  for (int d = 0; d < in.days; ++d) {
    for (int t = 0; t < in.typeCount(); ++t) {
      int working = 0;
      for (int p = 0; p < in.personCount(); ++p) working += roster.cells[p][d] == t;
      const Cover& c = in.cover[d][t];
      if (working < c.requirement)
        e.underCover += std::int64_t{c.underWeight} * (c.requirement - working);
      if (working > c.requirement)
        e.overCover += std::int64_t{c.overWeight} * (working - c.requirement);
    }
  }
  e.objective = e.onRequests + e.offRequests + e.underCover + e.overCover;
  e.feasible = e.violations.empty();
  return e;
}

}  // namespace atoms::schedule
