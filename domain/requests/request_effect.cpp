#include "domain/requests/request_effect.h"

#include <algorithm>
#include <array>
#include <bitset>
#include <cstdio>
#include <string>

namespace atoms::requests {

namespace {

using std::chrono::days;
using std::chrono::local_days;
using std::chrono::minutes;

constexpr int kDayMinutes = 1440;
constexpr int kWeekMinutes = 7 * kDayMinutes;
using WeekMap = std::bitset<kWeekMinutes>;  // minute m of the week from Sunday 00:00

void setSpan(WeekMap& week, unsigned weekday, sms::MinuteSpan span, bool value) {
  for (int m = span.start; m < span.end; ++m) {
    week.set(static_cast<std::size_t>((static_cast<int>(weekday) * kDayMinutes + m) % kWeekMinutes),
             value);
  }
}

WeekMap weekOf(const std::vector<site::AvailabilityWindow>& windows) {
  WeekMap week;
  if (windows.empty()) return week.set();
  for (const site::AvailabilityWindow& w : windows) {
    const int end = w.endMinute <= w.startMinute ? w.endMinute + kDayMinutes : w.endMinute;
    setSpan(week, w.weekday % 7, {w.startMinute, end}, true);
  }
  return week;
}

std::vector<unsigned> daysOf(const RequestRow& row) {
  if (!row.weekdays.empty()) return row.weekdays;
  return {0, 1, 2, 3, 4, 5, 6};
}

Result<site::Stamp> stampAt(const site::TimeZone& zone, local_days day, int minute) {
  const site::LocalTime local{day + minutes{minute}};
  auto utc = zone.toUtc(local);
  if (!utc) return utc.error();
  return site::Stamp{*utc, local};
}

WeekMap weekAfter(const std::vector<site::AvailabilityWindow>& current, const RequestRow& row) {
  WeekMap week = weekOf(current);
  if (row.change == sms::AvailabilityChange::kOnly) week.reset();
  const bool value = row.change == sms::AvailabilityChange::kOnly;
  for (unsigned d : daysOf(row)) setSpan(week, d, sms::dayPartSpan(row.part), value);
  return week;
}

}  // namespace

Result<local_days> parseRequestDate(std::string_view date, std::int64_t id) {
  int y = 0;
  unsigned m = 0;
  unsigned d = 0;
  const std::string s(date);
  if (s.size() != 10 || std::sscanf(s.c_str(), "%4d-%2u-%2u", &y, &m, &d) != 3) {
    return makeError("staff request " + std::to_string(id) + ": bad date '" + s + "'");
  }
  const std::chrono::year_month_day ymd{std::chrono::year{y}, std::chrono::month{m},
                                        std::chrono::day{d}};
  if (!ymd.ok()) return makeError("staff request " + std::to_string(id) + ": bad date '" + s + "'");
  return local_days{ymd};
}

std::string formatRequestDate(local_days day) {
  const std::chrono::year_month_day ymd{day};
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
  return buf;
}

Result<std::vector<site::TimeOff>> timeOffPeriods(const RequestRow& row,
                                                  const site::TimeZone& zone) {
  auto from = parseRequestDate(row.fromDate, row.id);
  if (!from) return from.error();
  auto to = parseRequestDate(row.toDate, row.id);
  if (!to) return to.error();
  std::vector<site::TimeOff> periods;
  if (row.part == sms::DayPart::kAllDay) {
    auto start = stampAt(zone, *from, 0);
    if (!start) return start.error();
    auto end = stampAt(zone, *to + days{1}, 0);
    if (!end) return end.error();
    periods.push_back({*start, *end});
    return periods;
  }
  const sms::MinuteSpan span = sms::dayPartSpan(row.part);
  for (local_days day = *from; day <= *to; day += days{1}) {
    auto start = stampAt(zone, day, span.start);
    if (!start) return start.error();
    auto end = stampAt(zone, day, span.end);
    if (!end) return end.error();
    periods.push_back({*start, *end});
  }
  return periods;
}

std::vector<site::AvailabilityWindow> availabilityAfter(
    const std::vector<site::AvailabilityWindow>& current, const RequestRow& row) {
  const WeekMap week = weekAfter(current, row);
  std::vector<site::AvailabilityWindow> windows;
  for (unsigned d = 0; d < 7; ++d) {
    int m = 0;
    while (m < kDayMinutes) {
      if (!week.test(d * kDayMinutes + static_cast<unsigned>(m))) {
        ++m;
        continue;
      }
      const int start = m;
      while (m < kDayMinutes && week.test(d * kDayMinutes + static_cast<unsigned>(m))) ++m;
      windows.push_back({d, start, m});
    }
  }
  return windows;
}

Result<std::vector<const site::Shift*>> touchedShifts(const site::SiteModel& model,
                                                      const RequestRow& row,
                                                      const site::TimeZone& zone,
                                                      site::Instant now) {
  std::vector<const site::Shift*> touched;
  if (row.kind == sms::RequestKind::kTimeOff) {
    auto periods = timeOffPeriods(row, zone);
    if (!periods) return periods.error();
    for (const site::Shift& s : model.shifts) {
      if (s.assignee != row.personId) continue;
      for (const site::TimeOff& off : *periods) {
        if (s.start.utc < off.end.utc && s.end.utc > off.start.utc) {
          touched.push_back(&s);
          break;
        }
      }
    }
  } else {
    const site::Person* person = nullptr;
    for (const site::Person& p : model.people) {
      if (p.id == row.personId) person = &p;
    }
    const WeekMap week =
        weekAfter(person ? person->availability : std::vector<site::AvailabilityWindow>{}, row);
    for (const site::Shift& s : model.shifts) {
      if (s.assignee != row.personId || s.end.utc <= now) continue;
      const local_days day = std::chrono::floor<days>(s.start.local);
      const unsigned weekday = std::chrono::weekday{day}.c_encoding();
      const auto first = std::chrono::floor<minutes>(s.start.local - day).count();
      const auto length = std::chrono::ceil<minutes>(s.end.local - s.start.local).count();
      for (long m = first; m < first + length; ++m) {
        if (!week.test(static_cast<std::size_t>((weekday * kDayMinutes + m) % kWeekMinutes))) {
          touched.push_back(&s);
          break;
        }
      }
    }
  }
  std::sort(touched.begin(), touched.end(),
            [](const site::Shift* a, const site::Shift* b) { return a->start.utc < b->start.utc; });
  return touched;
}

}  // namespace atoms::requests
