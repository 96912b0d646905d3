#include "domain/forecast/intraday_watch.h"

#include <algorithm>
#include <cmath>

namespace atoms::forecast {
namespace {

// The forecast of `measure` over [from, to) for the centers driving `standard`.
double forecastIn(const std::vector<RevenueCenterForecast>& forecasts,
                  const LaborStandard& standard, std::chrono::local_seconds from,
                  std::chrono::local_seconds to) {
  double sum = 0;
  for (const RevenueCenterForecast& center : forecasts) {
    if (!drivesCenter(standard, center.revenueCenter)) continue;
    for (const DayForecast& day : center.days) {
      for (const IntervalForecast& slot : day.intervals) {
        if (slot.start >= from && slot.start < to) sum += slot.value(standard.driver);
      }
    }
  }
  return sum;
}

double actualIn(const std::vector<RevenueCenterHistory>& actual, const LaborStandard& standard,
                std::chrono::local_seconds from, std::chrono::local_seconds to) {
  double sum = 0;
  for (const RevenueCenterHistory& center : actual) {
    if (!drivesCenter(standard, center.revenueCenter)) continue;
    for (const DemandInterval& slot : center.intervals) {
      if (slot.start >= from && slot.start < to) sum += slot.value(standard.driver);
    }
  }
  return sum;
}

}  // namespace

Status validateIntradaySettings(const IntradaySettings& s) {
  if (s.windowMinutes < kIntervalMinutes || s.windowMinutes > 240 ||
      s.windowMinutes % kIntervalMinutes != 0) {
    return makeError("intraday.window_minutes must be a multiple of 15 from 15 to 240",
                     ErrorKind::kInvalid);
  }
  if (!(s.surgeRatio > 0 && s.surgeRatio <= 5)) {
    return makeError("intraday.surge_percent must be from 1 to 500", ErrorKind::kInvalid);
  }
  if (!(s.slowRatio > 0 && s.slowRatio < 1)) {
    return makeError("intraday.slow_percent must be from 1 to 99", ErrorKind::kInvalid);
  }
  if (s.minimumGapCents < 0 || s.minimumGapCount < 0) {
    return makeError("intraday.min_gap_cents and intraday.min_gap_count must not be negative",
                     ErrorKind::kInvalid);
  }
  return Status::success();
}

std::string_view intradayKindName(IntradayKind kind) {
  return kind == IntradayKind::kAdd ? "add" : "cut";
}

int IntradaySignal::percentOff() const {
  if (forecast == 0) return 0;
  return static_cast<int>(
      std::lround(100.0 * static_cast<double>(actual - forecast) / static_cast<double>(forecast)));
}

std::vector<IntradaySignal> intradaySignals(const std::vector<RevenueCenterForecast>& forecasts,
                                            const std::vector<RevenueCenterHistory>& actual,
                                            const std::vector<LaborStandard>& standards,
                                            std::chrono::local_seconds now,
                                            const IntradaySettings& settings) {
  using std::chrono::minutes;
  const auto today = std::chrono::floor<std::chrono::days>(now);
  const auto windowEnd =
      today + std::chrono::floor<minutes>(now - today) / kIntervalMinutes * kIntervalMinutes;
  const auto windowStart = windowEnd - minutes(settings.windowMinutes);
  const int nowMinute = static_cast<int>(std::chrono::floor<minutes>(now - today).count());

  std::vector<IntradaySignal> out;
  for (const LaborStandard& standard : standards) {
    if (nowMinute < standard.opensMinute || nowMinute >= standard.closesMinute) continue;
    const double expected = forecastIn(forecasts, standard, windowStart, windowEnd);
    if (expected <= 0) continue;
    const double seen = actualIn(actual, standard, windowStart, windowEnd);
    const double gap = standard.driver == Measure::kNetSales
                           ? static_cast<double>(settings.minimumGapCents)
                           : static_cast<double>(settings.minimumGapCount);
    IntradaySignal signal{standard.station, IntradayKind::kAdd, standard.driver,       windowStart,
                          windowEnd,        std::llround(seen), std::llround(expected)};
    if (seen >= expected * (1 + settings.surgeRatio) && seen - expected >= gap) {
      out.push_back(signal);
    } else if (seen <= expected * (1 - settings.slowRatio) && expected - seen >= gap) {
      signal.kind = IntradayKind::kCut;
      out.push_back(signal);
    }
  }
  return out;
}

}  // namespace atoms::forecast
