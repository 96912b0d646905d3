#include "domain/forecast/site_forecast.h"

#include "domain/forecast/sales_history.h"
#include "domain/forecast/special_day_store.h"

namespace atoms::forecast {

Result<SiteForecast> forecastFromSales(Database& db, const site::TimeZone& zone,
                                       std::chrono::local_days firstDay, int days,
                                       const SiteForecastSettings& settings) {
  if (days < 1 || days > kMaxForecastDays) {
    return makeError("days must be from 1 to " + std::to_string(kMaxForecastDays),
                     ErrorKind::kInvalid);
  }
  const auto historyStart = firstDay - std::chrono::days(7 * settings.forecast.maxHistoryWeeks);
  auto histories = readSalesHistory(db, zone, historyStart, firstDay);
  if (!histories) return histories.error();
  if (histories->empty()) {
    return makeError("no sales in the box before " + dayText(firstDay) + " yet",
                     ErrorKind::kInvalid);
  }
  auto specials = loadSpecialDays(db);
  if (!specials) return specials.error();

  ForecastSettings forecastSettings = settings.forecast;
  forecastSettings.horizonDays = days;
  SiteForecast out;
  out.firstDay = firstDay;
  for (const RevenueCenterHistory& history : *histories) {
    auto center = forecastDemand(history, *specials, firstDay, forecastSettings);
    if (!center) return center.error();
    out.centers.push_back(std::move(*center));
  }
  if (!settings.standards.empty()) {
    auto heads = requiredHeads(out.centers, settings.standards);
    if (!heads) return heads.error();
    out.staffing = std::move(*heads);
  }
  out.specials = std::move(*specials);
  return out;
}

}  // namespace atoms::forecast
