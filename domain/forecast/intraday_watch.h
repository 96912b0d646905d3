// Intraday: the day's sales so far against the forecast for the same quarter hours (issue 19 item
// 6, docs/forecast.md "During the day"). For each station with a labor standard, over the last
// complete `windowMinutes` before now, the station's driver (covers, transactions or net sales of
// its revenue centers) as it came in against what the forecast said:
// - a surge: actual >= forecast x (1 + surgeRatio) and actual - forecast >= the minimum gap;
// - a slow spell: actual <= forecast x (1 - slowRatio) and forecast - actual >= the minimum gap.
// Only while the station is open (its standard's hours) and when the forecast expected something
// in the window. A signal is evidence, not a decision: intraday_proposals.h files it for the
// manager. Pure; no I/O, no clock (now is passed in). The caller checks the POS freshness first.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"
#include "domain/forecast/demand_forecast.h"
#include "domain/forecast/demand_history.h"
#include "domain/forecast/staffing.h"

namespace atoms::forecast {

struct IntradaySettings {
  int windowMinutes = 60;                // intraday.window_minutes: a multiple of 15, 15..240
  double surgeRatio = 0.25;              // intraday.surge_percent / 100
  double slowRatio = 0.25;               // intraday.slow_percent / 100
  std::int64_t minimumGapCents = 10000;  // intraday.min_gap_cents: a net-sales driver
  std::int64_t minimumGapCount = 6;      // intraday.min_gap_count: covers or transactions
};

// Errors (kInvalid) name the setting.
Status validateIntradaySettings(const IntradaySettings& settings);

enum class IntradayKind { kAdd, kCut };
std::string_view intradayKindName(IntradayKind kind);  // "add", "cut"

struct IntradaySignal {
  std::string station;
  IntradayKind kind = IntradayKind::kAdd;
  Measure measure = Measure::kCovers;
  std::chrono::local_seconds windowStart;  // [start, end), site wall clock
  std::chrono::local_seconds windowEnd;
  std::int64_t actual = 0;  // in the driver's unit: cents for net sales, else a count
  std::int64_t forecast = 0;

  // Whole percent above (positive) or below (negative) the forecast.
  int percentOff() const;
  friend bool operator==(const IntradaySignal&, const IntradaySignal&) = default;
};

// One signal at most per standard, in the standards' order. `forecasts` must hold today's day
// (the day of `now`); a revenue center without one counts as expecting nothing. `actual` are
// today's sales so far (historiesFromSales).
std::vector<IntradaySignal> intradaySignals(const std::vector<RevenueCenterForecast>& forecasts,
                                            const std::vector<RevenueCenterHistory>& actual,
                                            const std::vector<LaborStandard>& standards,
                                            std::chrono::local_seconds now,
                                            const IntradaySettings& settings);

}  // namespace atoms::forecast
