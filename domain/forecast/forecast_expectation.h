// ForecastSales: the projection of labor against sales from the site's demand forecast (decision
// 0038, docs/pos.md "Labor against sales"): each day's expected sales are the net sales the
// forecast gives it (site_forecast.h's forecastCenters, as GET /v1/forecast serves them) from the
// sales before that day and the days the manager marked, so a day marked closed expects nothing
// and a multiplier or a "like" day shapes the rest of the day. Where the forecast cannot be made
// (under a week of history: its own rule, kInvalid), the day falls back to the weekday average
// (pos::WeekdayAverageSales) and names that source.
//
// The forecast counts wall-clock time: on the night clocks go back its value for the repeated
// quarter hour is split between the two real ones (the earlier takes the odd cent); the quarter
// hours the clocks skip expect nothing.
//
// Threading: as the special days reader; otherwise const and pure.
#pragma once

#include <functional>

#include "domain/forecast/demand_forecast.h"
#include "domain/forecast/special_day.h"
#include "domain/pos/sales_expectation.h"

namespace atoms::forecast {

class ForecastSales final : public pos::SalesExpectation {
 public:
  static constexpr char kSource[] = "forecast";
  using SpecialDaysReader = std::function<Result<SpecialDays>()>;

  ForecastSales(ForecastSettings settings, SpecialDaysReader specials)
      : settings_(settings), specials_(std::move(specials)) {}

  std::chrono::days lookBack() const override;
  Result<std::vector<pos::DayExpectation>> expected(const std::vector<pos::SalesInterval>& history,
                                                    const site::TimeZone& zone, pos::LocalDay first,
                                                    int count) const override;

 private:
  ForecastSettings settings_;
  SpecialDaysReader specials_;
  pos::WeekdayAverageSales fallback_;
};

// The net sales the centers forecast for `day` (one of their days), summed, per interval of the
// site-local day (see above), keyed by UTC start. No error (kept a Result).
Result<std::vector<pos::ExpectedSales>> expectedFromForecast(
    const std::vector<RevenueCenterForecast>& centers, const site::TimeZone& zone,
    pos::LocalDay day);

}  // namespace atoms::forecast
