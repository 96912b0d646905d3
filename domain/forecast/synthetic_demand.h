// A synthetic sales history that looks like a restaurant's: the benchmark's and the tests' input
// (tests/bench/bench_forecast.cpp, tests/forecast/) and, later, the demo site's POS feed.
//
// What it models, per 15-minute interval of trading hours (docs/forecast.md lists the profiles'
// figures and where they come from):
//   - the shape of the day: a flat part plus lunch and dinner (or breakfast) peaks, each a bell
//     curve, with a weekend shape of its own (later, longer lunches; brunch);
//   - the week: a factor per weekday (Friday and Saturday busiest in full service; weekdays in a
//     quick-service cafe); weekdays the site is closed;
//   - trend: a steady growth or decline per year, plus a random walk of the weekly level (a good or
//     a bad month);
//   - noise: a day-to-day factor (weather), transactions per interval drawn as an over-dispersed
//     count (gamma-Poisson), covers per transaction (party size) and spend per cover per ticket;
//   - outliers nobody marked: a bad day (storm, road works) and large one-off orders (catering,
//     a coach party) that land in one interval;
//   - special days the manager marks, returned with the history: closed holidays, event days busier
//     than usual, and holidays that trade like a Sunday.
//
// Deterministic for a seed (its own generator, not std:: distributions, whose output differs
// between standard libraries). No I/O, no threads.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "domain/forecast/demand_history.h"
#include "domain/forecast/special_day.h"

namespace atoms::forecast {

struct DemandPeak {
  double centreMinute = 0;  // minutes after midnight
  double widthMinutes = 0;  // the bell curve's standard deviation
  double weight = 0;        // its share of the day, with the flat part's
};

struct SiteProfile {
  std::string name;
  int openMinute = 0;  // trading hours, minutes after midnight; closeMinute <= 1440
  int closeMinute = 0;
  std::array<double, 7> weekday{};       // Monday..Sunday level factors; 0 = closed that day
  double flatWeight = 0;                 // the part of the day spread evenly over trading hours
  std::vector<DemandPeak> weekdayPeaks;  // Monday to Friday
  std::vector<DemandPeak> weekendPeaks;  // Saturday and Sunday
  double transactionsPerDay = 0;         // an average day at the start of the history
  double partySize = 1;                  // covers per transaction, mean (at least 1)
  double spendPerCoverCents = 0;         // mean
  double spendSigma = 0;                 // log-normal spread of a ticket's spend per cover
  double growthPerYear = 0;              // 0.05: +5% a year
  double weeklyDriftSigma = 0;           // random walk of the weekly level, log per week
  double dailyNoiseSigma = 0;            // log-normal day-to-day factor
  double intervalDispersion = 0;         // gamma shape of the per-interval rate: lower is noisier
  double badDayRate = 0;                 // share of days hit by an unmarked bad day
  double badDayFactor = 1;               // such a day's level
  double largeOrderRate = 0;             // per trading interval
  double largeOrderCovers = 0;           // a large order's covers, mean
  double specialDayRate = 0;             // share of days the manager marks
};

// Three sites: "casual dining" (lunch and dinner, busy Friday and Saturday), "quick service cafe"
// (breakfast and lunch, weekdays busiest) and "bar and grill" (evenings, closed Mondays).
std::vector<SiteProfile> standardSiteProfiles();

// What an interval should bring on average, knowing the day as it turned out (its level after the
// week's drift, the trend, the weather and a bad day) but not the interval's own luck: what no
// forecast can beat, a floor for the benchmark.
struct ExpectedInterval {
  std::chrono::local_seconds start;
  std::array<double, kMeasureCount> values{};  // by Measure
};

struct SyntheticHistory {
  RevenueCenterHistory history;
  std::vector<SpecialDay> specials;        // as the manager would mark them
  std::vector<ExpectedInterval> expected;  // every trading interval, in order
};

// `days` days from `firstDay`. The same profile, days and seed give the same history.
SyntheticHistory generateHistory(const SiteProfile& profile, std::chrono::local_days firstDay,
                                 int days, std::uint64_t seed);

}  // namespace atoms::forecast
