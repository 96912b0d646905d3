// Staffing from demand: the site's labor standards per station turn the demand forecast into the
// heads each station needs per 15-minute interval: the input of the scheduler's "build the week".
//
// A standard says what drives the station (covers, transactions or net sales, from some revenue
// centers or all), how much one person handles (16 covers per server per hour, 10 transactions
// per cashier per 15 minutes), the least crew while the station is open, and its hours: the window
// it is open on a day the site trades, with setup before and closing after.
//
// heads(interval) = the larger of the minimum crew and the load rounded (a fraction of a head at or
// below roundUpFrom is absorbed by the others, above it is one more person), capped at the most
// heads; 0 on a day every driving revenue center is closed. Plain values, no I/O, no threads.
#pragma once

#include <array>
#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "domain/forecast/demand_forecast.h"

namespace atoms::forecast {

struct LaborStandard {
  std::string station;  // as the site names it ("server", "cashier", "line")
  Measure driver = Measure::kCovers;
  std::vector<std::string> revenueCenters;  // the forecasts that drive it; empty: all
  // What one person handles in periodMinutes (a multiple of 15, up to 60). 0: the station is
  // staffed by its minimum crew only.
  double unitsPerHead = 0;
  int periodMinutes = 60;
  int minimumHeads = 0;        // while open
  int maximumHeads = 0;        // 0: no cap
  int opensMinute = 0;         // the station's hours on a trading day, minutes after midnight, on
  int closesMinute = 24 * 60;  // 15-minute boundaries; opensMinute < closesMinute <= 1440
  int setupMinutes = 0;        // before opening, setupHeads people
  int setupHeads = 0;
  int closingMinutes = 0;  // after closing, closingHeads people (within the day)
  int closingHeads = 0;
  double roundUpFrom = 0.1;  // in [0, 1)
};

struct StationDay {
  std::string station;
  std::chrono::local_days day;
  std::array<double, kIntervalsPerDay> load{};  // heads the demand alone asks for, unrounded
  std::array<int, kIntervalsPerDay> heads{};    // required heads
};

// One StationDay per standard and forecast day (the days of the first forecast; every forecast
// must cover the same days). Errors (kInvalid), naming the station: a standard out of range, a
// revenue center no forecast has, forecasts of different days.
Result<std::vector<StationDay>> requiredHeads(const std::vector<RevenueCenterForecast>& forecasts,
                                              const std::vector<LaborStandard>& standards);

// One standard's ranges, as requiredHeads checks them; the error names the station.
Status validateLaborStandard(const LaborStandard& standard);

// Whether `standard` counts the sales of revenue center `center` (all of them when it names none).
bool drivesCenter(const LaborStandard& standard, std::string_view center);

// The rounding rule alone: `load` heads as whole people.
int roundHeads(double load, double roundUpFrom);

}  // namespace atoms::forecast
