// bench_forecast: the demand forecast (domain/forecast/, docs/forecast.md) against the
// seasonal-naive baseline (each interval as the same interval a week before the forecast's start:
// days 1-7 and 8-14 ahead both copy the last week) on held-out weeks of synthetic histories
// (domain/forecast/synthetic_demand.h: three site profiles, several seeds).
//
// For each profile and seed, one history of 18 weeks; the forecast starts at week 16 and is scored
// on the 14 days after, from the last 2, 4, 8 and 16 weeks of history. The score is WAPE
// (sum |actual - forecast| / sum actual, over every 15-minute interval of the held-out days that
// the manager did not mark; unmarked bad days and large orders count). Both methods see the same
// history; only the forecast uses the marks. "floor": the WAPE of the generator's own expected
// value per interval, knowing each day's level as it turned out: a reference for how much of the
// error is the intervals' own luck (not a strict bound: WAPE rewards the median, and a skewed
// interval's median is below its mean). "day": the same WAPE on each day's total, as a manager
// reads a day.
//
// Usage: bench_forecast [--seeds 10] [--measure sales|covers|transactions] [--set NAME=VALUE]...
//   --set: a forecast setting other than its default (demand_forecast.h), to try one.
// Prints a table and, per history length, whether the goal (WAPE at least 20% below the
// baseline's) is met. Asserts nothing; exits 1 only when it cannot run.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "domain/forecast/demand_forecast.h"
#include "domain/forecast/synthetic_demand.h"
#include "tests/bench/bench_support.h"

namespace atoms {
namespace {

using bench::die;
using bench::must;
namespace fc = atoms::forecast;
using std::chrono::days;
using std::chrono::local_days;

constexpr int kTotalWeeks = 18;
constexpr int kOriginWeek = 16;
constexpr int kHorizonDays = 14;
const int kHistoryWeeks[] = {2, 4, 8, 16};

struct Score {
  double actual = 0;
  double forecastError = 0;
  double naiveError = 0;
  double floorError = 0;
  double dayForecastError = 0;  // on each day's total
  double dayNaiveError = 0;

  void add(const Score& o) {
    dayForecastError += o.dayForecastError;
    dayNaiveError += o.dayNaiveError;
    actual += o.actual;
    forecastError += o.forecastError;
    naiveError += o.naiveError;
    floorError += o.floorError;
  }
  double dayForecastWape() const { return actual > 0 ? dayForecastError / actual : 0; }
  double dayNaiveWape() const { return actual > 0 ? dayNaiveError / actual : 0; }
  double floorWape() const { return actual > 0 ? floorError / actual : 0; }
  double forecastWape() const { return actual > 0 ? forecastError / actual : 0; }
  double naiveWape() const { return actual > 0 ? naiveError / actual : 0; }
  double gain() const { return naiveError > 0 ? 1 - forecastError / naiveError : 0; }
};

Score scoreOne(const fc::SiteProfile& profile, std::uint64_t seed, int historyWeeks,
               fc::Measure measure, fc::ForecastSettings settings) {
  const local_days first = local_days{std::chrono::year{2026} / 1 / 5};  // a Monday
  const fc::SyntheticHistory synthetic = fc::generateHistory(profile, first, kTotalWeeks * 7, seed);
  const local_days origin = first + days{kOriginWeek * 7};
  const fc::DemandGrid all =
      must(fc::gridFromHistory(synthetic.history, first, first + days{kTotalWeeks * 7}), "history");
  const fc::SpecialDays marks = must(fc::SpecialDays::make(synthetic.specials), "special days");

  fc::RevenueCenterHistory history;
  history.revenueCenter = synthetic.history.revenueCenter;
  const local_days start = origin - days{historyWeeks * 7};
  for (const fc::DemandInterval& row : synthetic.history.intervals) {
    const auto day = std::chrono::floor<days>(row.start);
    if (day >= start && day < origin) history.intervals.push_back(row);
  }
  settings.horizonDays = kHorizonDays;
  const fc::RevenueCenterForecast forecast =
      must(fc::forecastDemand(history, marks, origin, settings), "forecast");

  std::map<std::chrono::local_seconds, double> expected;
  for (const fc::ExpectedInterval& e : synthetic.expected) {
    expected[e.start] = e.values[static_cast<std::size_t>(measure)];
  }
  Score score;
  const auto m = static_cast<std::size_t>(measure);
  for (int h = 0; h < kHorizonDays; ++h) {
    const local_days day = origin + days{h};
    if (marks.find(day) != nullptr) continue;
    const fc::DayGrid& actual = all.days[static_cast<std::size_t>(kOriginWeek * 7 + h)];
    const fc::DayGrid& lastWeek =
        all.days[static_cast<std::size_t>(kOriginWeek * 7 + h - 7 * (h / 7 + 1))];
    const fc::DayForecast& predicted = forecast.days[static_cast<std::size_t>(h)];
    score.dayForecastError += std::abs(actual.total(measure) - predicted.total(measure));
    score.dayNaiveError += std::abs(actual.total(measure) - lastWeek.total(measure));
    for (int s = 0; s < fc::kIntervalsPerDay; ++s) {
      const double a = actual.values[m][static_cast<std::size_t>(s)];
      score.actual += a;
      score.forecastError +=
          std::abs(a - predicted.intervals[static_cast<std::size_t>(s)].value(measure));
      score.naiveError += std::abs(a - lastWeek.values[m][static_cast<std::size_t>(s)]);
      const auto at = std::chrono::local_seconds{day} + std::chrono::minutes{15 * s};
      const auto known = expected.find(at);
      score.floorError += std::abs(a - (known == expected.end() ? 0 : known->second));
    }
  }
  return score;
}

void setSetting(fc::ForecastSettings& settings, const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos) die("--set: NAME=VALUE");
  const std::string name = text.substr(0, eq);
  const double value = std::atof(text.c_str() + eq + 1);
  if (name == "levelHalfLifeWeeks") {
    settings.levelHalfLifeWeeks = value;
  } else if (name == "patternHalfLifeWeeks") {
    settings.patternHalfLifeWeeks = value;
  } else if (name == "shapeShrinkDays") {
    settings.shapeShrinkDays = value;
  } else if (name == "smoothingPasses") {
    settings.smoothingPasses = static_cast<int>(value);
  } else if (name == "trendShrinkWeeks") {
    settings.trendShrinkWeeks = value;
  } else if (name == "trendDamping") {
    settings.trendDamping = value;
  } else if (name == "outlierFactor") {
    settings.outlierFactor = value;
  } else {
    die("--set: no setting " + name);
  }
}

int run(int argc, char** argv) {
  int seeds = 10;
  fc::Measure measure = fc::Measure::kNetSales;
  fc::ForecastSettings settings;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--seeds" && i + 1 < argc) {
      seeds = std::atoi(argv[++i]);
      if (seeds <= 0) die("--seeds: a positive number");
    } else if (arg == "--measure" && i + 1 < argc) {
      const std::string name = argv[++i];
      if (name == "sales") {
        measure = fc::Measure::kNetSales;
      } else if (name == "covers") {
        measure = fc::Measure::kCovers;
      } else if (name == "transactions") {
        measure = fc::Measure::kTransactions;
      } else {
        die("--measure: sales, covers or transactions");
      }
    } else if (arg == "--set" && i + 1 < argc) {
      setSetting(settings, argv[++i]);
    } else {
      die("unknown argument " + arg);
    }
  }
  const std::vector<fc::SiteProfile> profiles = fc::standardSiteProfiles();
  std::printf("WAPE of %s per 15 minutes, 14 days ahead, %d seeds per profile\n",
              fc::measureName(measure), seeds);
  std::printf("%-20s %6s %10s %10s %8s %10s %10s %10s\n", "profile", "weeks", "naive", "forecast",
              "lower", "floor", "day naive", "day fcst");
  std::map<int, Score> byWeeks;
  for (const fc::SiteProfile& profile : profiles) {
    for (int weeks : kHistoryWeeks) {
      Score total;
      for (int seed = 1; seed <= seeds; ++seed) {
        total.add(scoreOne(profile, static_cast<std::uint64_t>(seed), weeks, measure, settings));
      }
      byWeeks[weeks].add(total);
      std::printf("%-20s %6d %9.1f%% %9.1f%% %7.1f%% %9.1f%% %9.1f%% %9.1f%%\n",
                  profile.name.c_str(), weeks, 100 * total.naiveWape(), 100 * total.forecastWape(),
                  100 * total.gain(), 100 * total.floorWape(), 100 * total.dayNaiveWape(),
                  100 * total.dayForecastWape());
    }
  }
  bool met = true;
  for (const auto& [weeks, total] : byWeeks) {
    const bool ok = total.gain() >= 0.20;
    met = met && ok;
    std::printf(
        "%-20s %6d %9.1f%% %9.1f%% %7.1f%% %9.1f%% %9.1f%% %9.1f%%  goal (>= 20%% lower): %s\n",
        "all profiles", weeks, 100 * total.naiveWape(), 100 * total.forecastWape(),
        100 * total.gain(), 100 * total.floorWape(), 100 * total.dayNaiveWape(),
        100 * total.dayForecastWape(), ok ? "met" : "NOT met");
  }
  std::printf("goal %s for every history length\n", met ? "met" : "NOT met");
  return 0;
}

}  // namespace
}  // namespace atoms

int main(int argc, char** argv) { return atoms::run(argc, argv); }
