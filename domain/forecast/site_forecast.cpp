#include "domain/forecast/site_forecast.h"

#include "domain/forecast/sales_history.h"
#include "domain/forecast/special_day_store.h"

namespace atoms::forecast {

Result<std::vector<RevenueCenterForecast>> forecastCenters(
    const std::vector<RevenueCenterHistory>& histories, const SpecialDays& specials,
    std::chrono::local_days firstDay, int days, const ForecastSettings& settings) {
  if (days < 1 || days > kMaxForecastDays) {
    return makeError("days must be from 1 to " + std::to_string(kMaxForecastDays),
                     ErrorKind::kInvalid);
  }
  if (histories.empty()) {
    return makeError("no sales in the box before " + dayText(firstDay) + " yet",
                     ErrorKind::kInvalid);
  }
  ForecastSettings forecastSettings = settings;
  forecastSettings.horizonDays = days;
  std::vector<RevenueCenterForecast> out;
  for (const RevenueCenterHistory& history : histories) {
    auto center = forecastDemand(history, specials, firstDay, forecastSettings);
    if (!center) return center.error();
    out.push_back(std::move(*center));
  }
  return out;
}

Result<SiteForecast> forecastFromSales(Database& db, const site::TimeZone& zone,
                                       std::chrono::local_days firstDay, int days,
                                       const SiteForecastSettings& settings) {
  const auto historyStart = firstDay - std::chrono::days(7 * settings.forecast.maxHistoryWeeks);
  auto histories = readSalesHistory(db, zone, historyStart, firstDay);
  if (!histories) return histories.error();
  auto specials = loadSpecialDays(db);
  if (!specials) return specials.error();
  auto centers = forecastCenters(*histories, *specials, firstDay, days, settings.forecast);
  if (!centers) return centers.error();
  SiteForecast out;
  out.firstDay = firstDay;
  out.centers = std::move(*centers);
  if (!settings.standards.empty()) {
    auto heads = requiredHeads(out.centers, settings.standards);
    if (!heads) return heads.error();
    out.staffing = std::move(*heads);
  }
  out.specials = std::move(*specials);
  return out;
}

}  // namespace atoms::forecast
