#include "domain/forecast/demand_history.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "base/result.h"

namespace atoms::forecast {

namespace {

std::string intervalName(const RevenueCenterHistory& history, std::chrono::local_seconds start) {
  const auto day = std::chrono::floor<std::chrono::days>(start);
  const auto minutes = std::chrono::duration_cast<std::chrono::minutes>(start - day).count();
  char time[48];
  std::snprintf(time, sizeof time, " %02lld:%02lld", static_cast<long long>(minutes / 60),
                static_cast<long long>(minutes % 60));
  return "revenue center \"" + history.revenueCenter + "\", interval " + dayText(day) + time;
}

}  // namespace

std::string dayText(std::chrono::local_days day) {
  const std::chrono::year_month_day ymd{day};
  char text[32];
  std::snprintf(text, sizeof text, "%04d-%02u-%02u", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
  return text;
}

const char* weekdayName(std::chrono::weekday weekday) {
  static const char* const kNames[] = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                       "Friday", "Saturday", "Sunday"};
  return weekday.ok() ? kNames[weekday.iso_encoding() - 1] : "?";
}

const char* measureName(Measure measure) {
  switch (measure) {
    case Measure::kNetSales:
      return "net sales";
    case Measure::kTransactions:
      return "transactions";
    case Measure::kCovers:
      return "covers";
  }
  return "?";
}

double DemandInterval::value(Measure measure) const {
  switch (measure) {
    case Measure::kNetSales:
      return static_cast<double>(netSalesCents);
    case Measure::kTransactions:
      return static_cast<double>(transactions);
    case Measure::kCovers:
      return static_cast<double>(covers);
  }
  return 0;
}

double DayGrid::total(Measure measure) const {
  double sum = 0;
  for (double v : values[static_cast<int>(measure)]) sum += v;
  return sum;
}

bool DayGrid::traded() const {
  for (const auto& measure : values) {
    for (double v : measure) {
      if (v != 0) return true;
    }
  }
  return false;
}

Result<DemandGrid> gridFromHistory(const RevenueCenterHistory& history,
                                   std::chrono::local_days firstDay,
                                   std::chrono::local_days endDay) {
  DemandGrid grid;
  grid.firstDay = firstDay;
  for (auto day = firstDay; day < endDay; day += std::chrono::days{1}) {
    grid.days.push_back(DayGrid{day, {}});
  }
  std::set<std::chrono::local_seconds> seen;
  for (const DemandInterval& row : history.intervals) {
    const auto day = std::chrono::floor<std::chrono::days>(row.start);
    const auto minutes = std::chrono::duration_cast<std::chrono::minutes>(row.start - day).count();
    if (row.start != std::chrono::floor<std::chrono::minutes>(row.start) ||
        minutes % kIntervalMinutes != 0) {
      return makeError(intervalName(history, std::chrono::floor<std::chrono::minutes>(row.start)) +
                           ": does not start on a 15-minute boundary",
                       ErrorKind::kInvalid);
    }
    if (row.transactions < 0 || row.covers < 0) {
      return makeError(intervalName(history, row.start) + ": negative transactions or covers",
                       ErrorKind::kInvalid);
    }
    if (!seen.insert(row.start).second) {
      return makeError(intervalName(history, row.start) + ": given twice", ErrorKind::kInvalid);
    }
    if (day < firstDay || day >= endDay) continue;
    DayGrid& cell = grid.days[static_cast<std::size_t>((day - firstDay).count())];
    const auto slot = static_cast<std::size_t>(minutes / kIntervalMinutes);
    for (int m = 0; m < kMeasureCount; ++m) {
      cell.values[static_cast<std::size_t>(m)][slot] = row.value(static_cast<Measure>(m));
    }
  }
  return grid;
}

}  // namespace atoms::forecast
