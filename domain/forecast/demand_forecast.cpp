#include "domain/forecast/demand_forecast.h"

#include <cmath>
#include <cstdio>
#include <optional>

#include "domain/forecast/demand_model.h"

namespace atoms::forecast {

namespace {

Status checkSettings(const ForecastSettings& s) {
  const bool ok = s.horizonDays >= 1 && s.horizonDays <= 62 && s.maxHistoryWeeks >= 2 &&
                  s.levelHalfLifeWeeks > 0 && s.patternHalfLifeWeeks > 0 &&
                  s.shapeShrinkDays >= 0 && s.trendShrinkWeeks >= 0 && s.trendDamping >= 0 &&
                  s.trendDamping <= 1 && s.outlierFactor >= 1 && s.smoothingPasses >= 0 &&
                  s.smoothingPasses <= 8;
  if (ok) return Status::success();
  return makeError("forecast settings out of range", ErrorKind::kInvalid);
}

std::string specialNote(const SpecialDay& mark) {
  std::string note = mark.note.empty() ? "marked" : mark.note;
  if (mark.closed) return note + ": closed";
  if (mark.like) {
    note += std::string(": like a ") + weekdayName(*mark.like);
  }
  if (mark.multiplier != 1.0) {
    char text[32];
    std::snprintf(text, sizeof text, " x%.2g", mark.multiplier);
    note += text;
  }
  return note;
}

}  // namespace

double DayForecast::total(Measure measure) const {
  double sum = 0;
  for (const IntervalForecast& interval : intervals) sum += interval.value(measure);
  return sum;
}

Result<RevenueCenterForecast> forecastDemand(const RevenueCenterHistory& history,
                                             const SpecialDays& specials,
                                             std::chrono::local_days firstDay,
                                             const ForecastSettings& settings) {
  const std::string where = "revenue center \"" + history.revenueCenter + "\": ";
  if (Status status = checkSettings(settings); !status) {
    return makeError(where + status.message(), ErrorKind::kInvalid);
  }
  // The history starts at its first row before the forecast, or maxHistoryWeeks back.
  std::optional<std::chrono::local_days> first;
  for (const DemandInterval& row : history.intervals) {
    const auto day = std::chrono::floor<std::chrono::days>(row.start);
    if (day < firstDay && (!first || day < *first)) first = day;
  }
  if (!first) {
    return makeError(where + "no sales history before the forecast", ErrorKind::kInvalid);
  }
  const auto earliest = firstDay - std::chrono::weeks{settings.maxHistoryWeeks};
  const auto historyFirst = std::max(*first, earliest);
  const int historyDays = static_cast<int>((firstDay - historyFirst).count());
  if (historyDays < 7) {
    return makeError(where + "needs at least a week of sales history", ErrorKind::kInvalid);
  }
  Result<DemandGrid> grid = gridFromHistory(history, historyFirst, firstDay);
  if (!grid) return grid.error();
  const DemandModel model = fitDemandModel(*grid, specials, settings);

  RevenueCenterForecast forecast;
  forecast.revenueCenter = history.revenueCenter;
  forecast.historyDays = historyDays;
  double damped = 0;  // the sum of the damping factors so far: how many days of slope apply
  double damping = 1;
  for (int h = 0; h < settings.horizonDays; ++h) {
    const auto day = firstDay + std::chrono::days{h};
    damping *= settings.trendDamping;
    damped += damping;
    DayForecast out;
    out.day = day;
    int weekday = weekdayIndex(day);
    double special = 1;
    out.open = model.weekdayOpen[static_cast<std::size_t>(weekday)];
    if (!out.open)
      out.note =
          std::string("closed on ") + weekdayName(std::chrono::weekday{day}) + "s in the history";
    if (const SpecialDay* mark = specials.find(day)) {
      out.note = specialNote(*mark);
      out.open = !mark->closed;
      if (mark->like) weekday = static_cast<int>(mark->like->iso_encoding()) - 1;
      special = mark->closed ? 0 : mark->multiplier;
    }
    out.shapedLike = std::chrono::weekday{static_cast<unsigned>(weekday + 1) % 7};
    out.intervals.resize(kIntervalsPerDay);
    for (int s = 0; s < kIntervalsPerDay; ++s) {
      IntervalForecast& interval = out.intervals[static_cast<std::size_t>(s)];
      interval.start = std::chrono::local_seconds{day} + std::chrono::minutes{s * kIntervalMinutes};
      for (int m = 0; m < kMeasureCount; ++m) {
        const MeasureModel& fit = model.measures[static_cast<std::size_t>(m)];
        IntervalParts& parts = interval.parts[static_cast<std::size_t>(m)];
        parts.base = fit.base;
        parts.dayOfWeek = fit.dayOfWeek[static_cast<std::size_t>(weekday)];
        parts.timeOfDay = fit.shape[static_cast<std::size_t>(weekday)][static_cast<std::size_t>(s)];
        parts.trend = std::exp(fit.dailyLogSlope * damped);
        parts.special = out.open ? special : 0;
      }
    }
    forecast.days.push_back(std::move(out));
  }
  return forecast;
}

}  // namespace atoms::forecast
