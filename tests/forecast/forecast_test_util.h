// Histories with a known answer for the forecast's tests: every interval is exactly
// level x weekday factor x the weekday's shape, so a forecast that recovers the seasonality gives
// those numbers back.
#pragma once

#include <array>
#include <chrono>
#include <cmath>

#include "domain/forecast/demand_history.h"

namespace atoms::forecast::test {

using std::chrono::days;
using std::chrono::local_days;

inline local_days monday() { return local_days{std::chrono::year{2026} / 3 / 2}; }

// Monday..Sunday.
inline constexpr std::array<double, 7> kWeekdayFactors = {0.8, 0.8, 0.9, 1.0, 1.3, 1.4, 0.8};

// Lunch and dinner on weekdays, a later lunch at the weekend; open 11:00 to 22:00.
inline double cleanShare(int weekday, int slot) {
  if (slot < 44 || slot >= 88) return 0;
  const double minute = slot * 15 + 7.5;
  const double lunch = weekday >= 5 ? 13 * 60 : 12 * 60 + 30;
  const double a = (minute - lunch) / 45;
  const double b = (minute - 19 * 60) / 60;
  return 0.02 + std::exp(-a * a / 2) + 1.5 * std::exp(-b * b / 2);
}

inline double cleanShareNormalised(int weekday, int slot) {
  double sum = 0;
  for (int s = 0; s < kIntervalsPerDay; ++s) sum += cleanShare(weekday, s);
  return cleanShare(weekday, slot) / sum;
}

// Net sales of a day at `level` cents an average day; transactions a hundredth, covers twice those.
inline double cleanValue(double level, local_days day, int slot) {
  const int weekday = static_cast<int>(std::chrono::weekday{day}.iso_encoding()) - 1;
  return level * kWeekdayFactors[static_cast<std::size_t>(weekday)] *
         cleanShareNormalised(weekday, slot);
}

inline RevenueCenterHistory cleanHistory(local_days first, int dayCount, double level = 1e6,
                                         double weeklyGrowth = 0) {
  RevenueCenterHistory history;
  history.revenueCenter = "dining room";
  for (int d = 0; d < dayCount; ++d) {
    const local_days day = first + days{d};
    const double dayLevel = level * std::pow(1 + weeklyGrowth, d / 7.0);
    for (int s = 0; s < kIntervalsPerDay; ++s) {
      const double value = cleanValue(dayLevel, day, s);
      if (value <= 0) continue;
      DemandInterval row;
      row.start = std::chrono::local_seconds{day} + std::chrono::minutes{15 * s};
      row.netSalesCents = std::llround(value);
      row.transactions = std::llround(value / 100);
      row.covers = 2 * row.transactions;
      history.intervals.push_back(row);
    }
  }
  return history;
}

}  // namespace atoms::forecast::test
