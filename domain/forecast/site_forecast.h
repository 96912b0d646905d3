// The site's forecast from its own sales (issue 19 items 4-5, docs/forecast.md "From the site's
// sales"): the sales book's history before the first day (sales_history.h), the days the manager
// marked (special_day_store.h), the forecast per revenue center (demand_forecast.h) and the heads
// each station needs (staffing.h) from the labor standards in the configuration.
//
// The caller asks the POS freshness first (pos_health.h): nothing forecast-driven is computed
// from stale data. Threading: any connection (reads only); no clock (the days are passed in).
#pragma once

#include <chrono>
#include <vector>

#include "base/result.h"
#include "domain/forecast/demand_forecast.h"
#include "domain/forecast/intraday_watch.h"
#include "domain/forecast/staffing.h"
#include "domain/site/time_zone.h"
#include "store/database.h"

namespace atoms::forecast {

inline constexpr int kMaxForecastDays = 14;

struct SiteForecastSettings {
  ForecastSettings forecast;
  std::vector<LaborStandard> standards;  // forecast.standards_file; none: no staffing
  IntradaySettings intraday;
};

struct SiteForecast {
  std::chrono::local_days firstDay;
  std::vector<RevenueCenterForecast> centers;  // by revenue center name
  std::vector<StationDay> staffing;            // per standard and day
  SpecialDays specials;                        // the marks the forecast used
};

// `days` days (1..kMaxForecastDays) from `firstDay`, from up to forecast.maxHistoryWeeks weeks of
// sales before it. Errors: the store's; kInvalid when days is out of range, when there are no
// sales before firstDay ("no sales in the box yet"), or from the forecast or staffing (fewer than
// 7 days of history, a standard naming a revenue center with no sales), naming what is missing.
Result<SiteForecast> forecastFromSales(Database& db, const site::TimeZone& zone,
                                       std::chrono::local_days firstDay, int days,
                                       const SiteForecastSettings& settings);

// The pure part of forecastFromSales: the forecast of `days` days from `firstDay`, per revenue
// center of `histories` (their rows before firstDay; sales_history.h), with the marks. Errors
// (kInvalid): as forecastFromSales, staffing aside.
Result<std::vector<RevenueCenterForecast>> forecastCenters(
    const std::vector<RevenueCenterHistory>& histories, const SpecialDays& specials,
    std::chrono::local_days firstDay, int days, const ForecastSettings& settings);

}  // namespace atoms::forecast
