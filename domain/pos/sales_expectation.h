// SalesExpectation: what the rest of a day is expected to sell, per 15-minute interval, for the
// projection of labor against sales (labor_vs_sales.h). One small interface so the source can be
// swapped: the site's demand forecast with the weekday average as its fallback
// (domain/forecast/forecast_expectation.h, decision 0038), or the same weekday's average over the
// last four weeks alone (WeekdayAverageSales).
//
// Contract: expected() is handed the sales book's intervals (any revenue center) from the
// lookBack() days before the first day asked; it may hold later intervals too, and each day uses
// only the ones before it. It gives, per day, one entry per interval of the site-local day that has
// any expected sales (absent means none), keyed by the interval's UTC start, and names its source
// for people and the API ("forecast", "weekday_average_4w"). Errors are values. Implementations say
// their own threading.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "base/result.h"
#include "domain/pos/labor_vs_sales.h"

namespace atoms::pos {

// One day's expectation and where it came from.
struct DayExpectation {
  std::string source;
  std::vector<ExpectedSales> intervals;
};

class SalesExpectation {
 public:
  virtual ~SalesExpectation() = default;
  virtual std::chrono::days lookBack() const = 0;
  // The days [first, first + count), in order.
  virtual Result<std::vector<DayExpectation>> expected(const std::vector<SalesInterval>& history,
                                                       const site::TimeZone& zone, LocalDay first,
                                                       int count) const = 0;
};

inline constexpr int kAverageWeeks = 4;

// The pure part: per interval of `day`, the average net sales at the same local time of day on
// the same weekday of the kAverageWeeks weeks before, over the weeks that sold anything that
// day (a new site is not averaged down by weeks it did not exist), rounded half up. `history`
// holds the sales intervals of those days (any revenue center). No error (kept a Result).
Result<std::vector<ExpectedSales>> weekdayAverage(const std::vector<SalesInterval>& history,
                                                  const site::TimeZone& zone, LocalDay day);

// weekdayAverage per day. Stateless: thread-safe.
class WeekdayAverageSales final : public SalesExpectation {
 public:
  static constexpr char kSource[] = "weekday_average_4w";
  std::chrono::days lookBack() const override { return std::chrono::days(7 * kAverageWeeks); }
  Result<std::vector<DayExpectation>> expected(const std::vector<SalesInterval>& history,
                                               const site::TimeZone& zone, LocalDay first,
                                               int count) const override;
};

}  // namespace atoms::pos
