// SalesExpectation: what the rest of a day is expected to sell, per 15-minute interval, for the
// projection of labor against sales (labor_vs_sales.h). One small interface so the source can be
// swapped: today the same weekday's average over the last four weeks of the sales book
// (WeekdayAverageSales); the demand forecast (domain/forecast/) is meant to replace it.
//
// Contract: expected() gives one entry per interval of the site-local day that has any expected
// sales (absent means none), keyed by the interval's UTC start. source() names the source for
// people and the API ("weekday_average_4w"). Errors are values (store reads). Implementations
// say their own threading.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "base/result.h"
#include "domain/pos/labor_vs_sales.h"

namespace atoms::pos {

class SalesExpectation {
 public:
  virtual ~SalesExpectation() = default;
  virtual std::string source() const = 0;
  virtual Result<std::vector<ExpectedSales>> expected(const site::TimeZone& zone, LocalDay day) = 0;
};

inline constexpr int kAverageWeeks = 4;

// The pure part: per interval of `day`, the average net sales at the same local time of day on
// the same weekday of the kAverageWeeks weeks before, over the weeks that sold anything that
// day (a new site is not averaged down by weeks it did not exist), rounded half up. `history`
// holds the sales intervals of those days (any revenue center). Errors: as dayBounds.
Result<std::vector<ExpectedSales>> weekdayAverage(const std::vector<SalesInterval>& history,
                                                  const site::TimeZone& zone, LocalDay day);

// Over the sales book: reads the four weeks before through `read` (salesIntervals over a store
// connection). Threading: as `read`.
class WeekdayAverageSales final : public SalesExpectation {
 public:
  using Reader = std::function<Result<std::vector<SalesInterval>>(std::chrono::sys_seconds,
                                                                  std::chrono::sys_seconds)>;
  explicit WeekdayAverageSales(Reader read) : read_(std::move(read)) {}
  std::string source() const override { return "weekday_average_4w"; }
  Result<std::vector<ExpectedSales>> expected(const site::TimeZone& zone, LocalDay day) override;

 private:
  Reader read_;
};

}  // namespace atoms::pos
