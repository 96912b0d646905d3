// The demand history the forecast reads: per revenue center, one row per 15-minute interval with
// the net sales, transactions and covers that the POS put in it. The sales store (drivers/pos and
// store/, another wing) fills it; the forecast only needs these plain values.
//
// Times are the site's wall clock (std::chrono::local_seconds): lunch is at noon whatever the UTC
// offset, and a day is the site's calendar day. The caller converts from UTC with the site's time
// zone (site/time_zone.h). An interval that is missing had no sales; a whole day without any row is
// a day the site did not trade.
//
// Plain values, no I/O, no threads.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"

namespace atoms::forecast {

inline constexpr int kIntervalMinutes = 15;
inline constexpr int kIntervalsPerDay = 24 * 60 / kIntervalMinutes;

// What is counted. The forecast forecasts each one; a labor standard is driven by one.
enum class Measure { kNetSales = 0, kTransactions = 1, kCovers = 2 };
inline constexpr int kMeasureCount = 3;
const char* measureName(Measure measure);  // "net sales", "transactions", "covers"

struct DemandInterval {
  std::chrono::local_seconds start;  // on a 15-minute boundary of the site's wall clock
  std::int64_t netSalesCents = 0;    // after voids, refunds and discounts; may be negative
  std::int64_t transactions = 0;
  std::int64_t covers = 0;

  double value(Measure measure) const;
};

struct RevenueCenterHistory {
  std::string revenueCenter;              // "dining room", "bar", "patio"...: as the POS names it
  std::vector<DemandInterval> intervals;  // any order; at most one row per start
};

// The same history as a grid: one row per calendar day from `firstDay`, kIntervalsPerDay cells
// per measure, zeros where nothing was sold.
struct DayGrid {
  std::chrono::local_days day;
  std::array<std::array<double, kIntervalsPerDay>, kMeasureCount> values{};

  double total(Measure measure) const;
  bool traded() const;  // anything at all in any measure
};

struct DemandGrid {
  std::chrono::local_days firstDay;
  std::vector<DayGrid> days;  // consecutive calendar days
};

// Lays the history out on days [firstDay, endDay). Rows outside the range are ignored. Errors
// (kInvalid), naming the revenue center and the interval: a start not on a 15-minute boundary, two
// rows for the same start, negative transactions or covers. Nothing is returned on error.
Result<DemandGrid> gridFromHistory(const RevenueCenterHistory& history,
                                   std::chrono::local_days firstDay,
                                   std::chrono::local_days endDay);

// "2026-03-02": a day as the errors and notes name it.
std::string dayText(std::chrono::local_days day);
// "Monday" ... "Sunday".
const char* weekdayName(std::chrono::weekday weekday);

}  // namespace atoms::forecast
