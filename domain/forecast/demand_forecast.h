// The demand forecast: net sales, transactions and covers per 15-minute interval for the days
// ahead, per revenue center, from that center's history and the days the manager marked
// (docs/forecast.md, decision 0031).
//
// The model is multiplicative and every interval says what it is made of:
//   value = base x dayOfWeek x timeOfDay x trend x special
// base: what an average day brings at the end of the history (recent weeks weigh more, unusual days
// weigh little); dayOfWeek: the weekday's factor (1 = an average day); timeOfDay: the interval's
// share of that weekday's day; trend: the damped growth or decline from the end of the history to
// the day; special: the manager's multiplier (0 when marked closed).
//
// Pure and deterministic: the same history, marks and settings give the same numbers. No I/O, no
// threads, no clock (the caller says which day comes first).
#pragma once

#include <array>
#include <chrono>
#include <string>
#include <vector>

#include "base/result.h"
#include "domain/forecast/demand_history.h"
#include "domain/forecast/special_day.h"

namespace atoms::forecast {

struct ForecastSettings {
  int horizonDays = 14;
  int maxHistoryWeeks = 26;  // older rows are not read
  // How fast old weeks fade: a week this many weeks older weighs half. The level follows the recent
  // weeks; the weekday factors and the shapes of the day change slowly and keep a longer memory.
  double levelHalfLifeWeeks = 3;
  double patternHalfLifeWeeks = 8;
  // The shape of each weekday borrows this many days' worth of the all-week shape with two weeks of
  // history, half that with four, and so on: two weeks give a steady shape, many weeks give each
  // weekday its own.
  double shapeShrinkDays = 1.5;
  // Each pass smooths the shapes over neighbouring intervals (1-2-1): a quarter hour's own noise
  // is not the forecast.
  int smoothingPasses = 1;
  // Trend: a robust slope, shrunk while the history is short (trendShrinkWeeks weeks of history
  // give half of it), then damped day by day ahead (trendDamping per day).
  double trendShrinkWeeks = 8;
  double trendDamping = 0.95;
  // An interval above outlierFactor times what the rest of the history expects there is cut down to
  // that (a catering order, a coach party): it counts, but it does not drag the forecast.
  double outlierFactor = 2.5;
};

struct IntervalParts {
  double base = 0;
  double dayOfWeek = 0;
  double timeOfDay = 0;
  double trend = 1;
  double special = 1;

  double value() const { return base * dayOfWeek * timeOfDay * trend * special; }
};

struct IntervalForecast {
  std::chrono::local_seconds start;
  std::array<IntervalParts, kMeasureCount> parts;

  double value(Measure measure) const { return parts[static_cast<int>(measure)].value(); }
};

struct DayForecast {
  std::chrono::local_days day;
  bool open = false;
  std::chrono::weekday shapedLike;          // the weekday whose factor and shape it takes
  std::string note;                         // why it is special or closed; empty on an ordinary day
  std::vector<IntervalForecast> intervals;  // kIntervalsPerDay, from midnight

  double total(Measure measure) const;
};

struct RevenueCenterForecast {
  std::string revenueCenter;
  int historyDays = 0;  // calendar days read, from the first row to the day before the forecast
  std::vector<DayForecast> days;
};

// Forecasts `settings.horizonDays` days from `firstDay` from the rows before `firstDay`. Errors
// (kInvalid): the history's own (gridFromHistory), no row before firstDay, fewer than 7 calendar
// days of history, or settings out of range; the message names the revenue center.
Result<RevenueCenterForecast> forecastDemand(const RevenueCenterHistory& history,
                                             const SpecialDays& specials,
                                             std::chrono::local_days firstDay,
                                             const ForecastSettings& settings = {});

}  // namespace atoms::forecast
