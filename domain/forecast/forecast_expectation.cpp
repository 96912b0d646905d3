#include "domain/forecast/forecast_expectation.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "domain/forecast/sales_history.h"
#include "domain/forecast/site_forecast.h"

namespace atoms::forecast {

Result<std::vector<pos::ExpectedSales>> expectedFromForecast(
    const std::vector<RevenueCenterForecast>& centers, const site::TimeZone& zone,
    pos::LocalDay day) {
  std::map<std::chrono::local_seconds, double> byWallClock;
  for (const RevenueCenterForecast& center : centers) {
    for (const DayForecast& d : center.days) {
      if (d.day != day) continue;
      for (const IntervalForecast& i : d.intervals) {
        byWallClock[i.start] += i.value(Measure::kNetSales);
      }
    }
  }
  const auto [dayStart, dayEnd] = pos::dayBounds(zone, day);
  // The real quarter hours of the day per wall-clock start: two for the repeated hour.
  std::map<std::chrono::local_seconds, std::vector<site::Instant>> quarters;
  for (site::Instant t = dayStart; t < dayEnd; t += pos::kIntervalLength) {
    quarters[zone.toLocal(t)].push_back(t);
  }
  std::vector<pos::ExpectedSales> out;
  for (const auto& [local, starts] : quarters) {
    auto it = byWallClock.find(local);
    if (it == byWallClock.end()) continue;
    const auto cents = static_cast<std::int64_t>(std::llround(it->second));
    const auto n = static_cast<std::int64_t>(starts.size());
    for (std::size_t k = 0; k < starts.size(); ++k) {
      const std::int64_t share = cents / n + (k == 0 ? cents % n : 0);
      if (share != 0) out.push_back(pos::ExpectedSales{starts[k], share});
    }
  }
  std::sort(out.begin(), out.end(), [](const pos::ExpectedSales& a, const pos::ExpectedSales& b) {
    return a.start < b.start;
  });
  return out;
}

std::chrono::days ForecastSales::lookBack() const {
  return std::max(std::chrono::days(7 * settings_.maxHistoryWeeks), fallback_.lookBack());
}

Result<std::vector<pos::DayExpectation>> ForecastSales::expected(
    const std::vector<pos::SalesInterval>& history, const site::TimeZone& zone, pos::LocalDay first,
    int count) const {
  auto specials = specials_();
  if (!specials) return specials.error();
  std::vector<pos::DayExpectation> out;
  for (int d = 0; d < count; ++d) {
    const pos::LocalDay day = first + std::chrono::days(d);
    // The forecast GET /v1/forecast makes of the day: from its maxHistoryWeeks weeks before it.
    const site::Instant from =
        zone.startOfDay(day - std::chrono::days(7 * settings_.maxHistoryWeeks));
    const site::Instant to = zone.startOfDay(day);
    std::vector<pos::SalesInterval> before;
    for (const pos::SalesInterval& s : history) {
      if (s.start >= from && s.start < to) before.push_back(s);
    }
    auto centers = forecastCenters(historiesFromSales(before, zone), *specials, day, 1, settings_);
    if (!centers && centers.kind() != ErrorKind::kInvalid) return centers.error();
    if (!centers) {
      auto average = fallback_.expected(history, zone, day, 1);
      if (!average) return average.error();
      out.push_back(std::move(average->front()));
      continue;
    }
    auto intervals = expectedFromForecast(*centers, zone, day);
    if (!intervals) return intervals.error();
    out.push_back(pos::DayExpectation{kSource, std::move(*intervals)});
  }
  return out;
}

}  // namespace atoms::forecast
