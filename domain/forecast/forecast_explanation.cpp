#include "domain/forecast/forecast_explanation.h"

#include <cstdio>

namespace atoms::forecast {

namespace {

std::string amount(double value, Measure measure) {
  char text[48];
  if (measure == Measure::kNetSales) {
    std::snprintf(text, sizeof text, "%.2f", value / 100);
  } else {
    std::snprintf(text, sizeof text, "%.1f", value);
  }
  return text;
}

std::string number(const char* format, double value) {
  char text[48];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

}  // namespace

std::string explainInterval(const DayForecast& day, int slot, Measure measure) {
  const int from = slot * kIntervalMinutes;
  const int to = from + kIntervalMinutes;
  char when[64];
  std::snprintf(when, sizeof when, "%s %02d:%02d-%02d:%02d",
                weekdayName(std::chrono::weekday{day.day}), from / 60, from % 60, (to / 60) % 24,
                to % 60);
  std::string text = when;
  if (!day.open) return text + ": closed" + (day.note.empty() ? "" : " (" + day.note + ")");
  const IntervalParts& parts =
      day.intervals[static_cast<std::size_t>(slot)].parts[static_cast<std::size_t>(measure)];
  const char* like = weekdayName(day.shapedLike);
  text += ": " + amount(parts.value(), measure) + " " + measureName(measure) +
          " = an ordinary day " + amount(parts.base, measure) + " x " + like + " " +
          number("%.2f", parts.dayOfWeek) + " x " + number("%.1f", 100 * parts.timeOfDay) +
          "% of the day x trend " + number("%.2f", parts.trend);
  if (parts.special != 1.0) {
    text += " x special day " + number("%.2f", parts.special);
    if (!day.note.empty()) text += " (" + day.note + ")";
  }
  return text;
}

}  // namespace atoms::forecast
