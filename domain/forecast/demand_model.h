// The fitted model behind the demand forecast (demand_forecast.h): per measure, the level at the
// end of the history, the weekday factors, the shape of each weekday's day and the daily trend.
// Fitting is robust on purpose: days the manager marked and days the site did not trade are left
// out, an interval far above what the rest of the history expects there is cut down before it
// counts, and the weekday factors and the level are weighted means of winsorised values.
//
// Plain values, no I/O, no threads.
#pragma once

#include <array>

#include "domain/forecast/demand_forecast.h"
#include "domain/forecast/demand_history.h"
#include "domain/forecast/special_day.h"

namespace atoms::forecast {

inline constexpr int kWeekdays = 7;

// 0 = Monday ... 6 = Sunday.
int weekdayIndex(std::chrono::local_days day);

struct MeasureModel {
  double base = 0;                            // an average day's total at the end of the history
  std::array<double, kWeekdays> dayOfWeek{};  // mean 1 over the weekdays that trade; 0 otherwise
  std::array<std::array<double, kIntervalsPerDay>, kWeekdays> shape{};  // each sums to 1 or is 0
  double dailyLogSlope = 0;  // the trend, per day, already shrunk
};

struct DemandModel {
  std::array<MeasureModel, kMeasureCount> measures;
  std::array<bool, kWeekdays> weekdayOpen{};  // traded on one of its last two ordinary occurrences
};

// Fits the model on every day of `grid` (the history, oldest first; its last day is the day before
// the forecast).
DemandModel fitDemandModel(const DemandGrid& grid, const SpecialDays& specials,
                           const ForecastSettings& settings);

}  // namespace atoms::forecast
