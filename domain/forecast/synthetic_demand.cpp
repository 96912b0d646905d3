#include "domain/forecast/synthetic_demand.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace atoms::forecast {

namespace {

// splitmix64: small, fast and the same everywhere.
class SeededRandom {
 public:
  explicit SeededRandom(std::uint64_t seed) : state_(seed) {}

  double uniform() {  // [0, 1)
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1.0p-53;
  }
  double normal() {  // Box-Muller, one of the pair
    const double u = 1.0 - uniform();
    return std::sqrt(-2 * std::log(u)) * std::cos(2 * std::numbers::pi * uniform());
  }
  // Marsaglia and Tsang; shape >= 1, mean `shape`.
  double gamma(double shape) {
    const double d = shape - 1.0 / 3;
    const double c = 1 / std::sqrt(9 * d);
    for (;;) {
      double x = normal();
      double v = 1 + c * x;
      if (v <= 0) continue;
      v = v * v * v;
      const double u = 1.0 - uniform();
      if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
    }
  }
  std::int64_t poisson(double mean) {
    if (mean <= 0) return 0;
    if (mean > 30) {
      return std::max<std::int64_t>(0, std::llround(mean + std::sqrt(mean) * normal()));
    }
    const double limit = std::exp(-mean);
    std::int64_t k = 0;
    double p = uniform();
    while (p > limit) {
      ++k;
      p *= uniform();
    }
    return k;
  }
  double logNormalMeanOne(double sigma) { return std::exp(sigma * normal() - sigma * sigma / 2); }

 private:
  std::uint64_t state_;
};

using DayShape = std::array<double, kIntervalsPerDay>;

DayShape shapeOf(const SiteProfile& profile, const std::vector<DemandPeak>& peaks) {
  DayShape shape{};
  const int open = profile.openMinute / kIntervalMinutes;
  const int close = profile.closeMinute / kIntervalMinutes;
  double sum = 0;
  for (int s = open; s < close; ++s) {
    const double mid = s * kIntervalMinutes + kIntervalMinutes / 2.0;
    double value = profile.flatWeight / std::max(close - open, 1);
    for (const DemandPeak& peak : peaks) {
      const double z = (mid - peak.centreMinute) / peak.widthMinutes;
      value += peak.weight * std::exp(-z * z / 2) * kIntervalMinutes /
               (peak.widthMinutes * std::sqrt(2 * std::numbers::pi));
    }
    shape[static_cast<std::size_t>(s)] = value;
    sum += value;
  }
  for (double& v : shape) v /= sum;
  return shape;
}

}  // namespace

std::vector<SiteProfile> standardSiteProfiles() {
  std::vector<SiteProfile> profiles;
  SiteProfile casual;
  casual.name = "casual dining";
  casual.openMinute = 11 * 60;
  casual.closeMinute = 22 * 60;
  casual.weekday = {0.78, 0.80, 0.88, 0.97, 1.30, 1.37, 0.90};
  casual.flatWeight = 0.10;
  casual.weekdayPeaks = {{12 * 60 + 30, 40, 0.30}, {19 * 60, 65, 0.60}};
  casual.weekendPeaks = {{13 * 60, 60, 0.30}, {19 * 60, 75, 0.60}};
  casual.transactionsPerDay = 110;
  casual.partySize = 2.6;
  casual.spendPerCoverCents = 2800;
  casual.spendSigma = 0.35;
  casual.growthPerYear = 0.05;
  casual.weeklyDriftSigma = 0.02;
  casual.dailyNoiseSigma = 0.10;
  casual.intervalDispersion = 8;
  casual.badDayRate = 0.02;
  casual.badDayFactor = 0.55;
  casual.largeOrderRate = 1.0 / 400;
  casual.largeOrderCovers = 20;
  casual.specialDayRate = 0.03;
  profiles.push_back(casual);

  SiteProfile cafe;
  cafe.name = "quick service cafe";
  cafe.openMinute = 7 * 60;
  cafe.closeMinute = 16 * 60;
  cafe.weekday = {1.02, 1.04, 1.06, 1.06, 1.10, 1.00, 0.72};
  cafe.flatWeight = 0.12;
  cafe.weekdayPeaks = {{8 * 60 + 15, 45, 0.40}, {12 * 60 + 15, 45, 0.48}};
  cafe.weekendPeaks = {{10 * 60, 80, 0.58}, {12 * 60 + 45, 50, 0.30}};
  cafe.transactionsPerDay = 380;
  cafe.partySize = 1.3;
  cafe.spendPerCoverCents = 950;
  cafe.spendSigma = 0.45;
  cafe.growthPerYear = -0.03;
  cafe.weeklyDriftSigma = 0.015;
  cafe.dailyNoiseSigma = 0.08;
  cafe.intervalDispersion = 12;
  cafe.badDayRate = 0.02;
  cafe.badDayFactor = 0.6;
  cafe.largeOrderRate = 1.0 / 600;
  cafe.largeOrderCovers = 25;
  cafe.specialDayRate = 0.03;
  profiles.push_back(cafe);

  SiteProfile bar;
  bar.name = "bar and grill";
  bar.openMinute = 16 * 60;
  bar.closeMinute = 24 * 60;
  bar.weekday = {0, 0.72, 0.82, 1.00, 1.40, 1.50, 0.76};
  bar.flatWeight = 0.15;
  bar.weekdayPeaks = {{18 * 60 + 45, 55, 0.50}, {21 * 60 + 45, 60, 0.35}};
  bar.weekendPeaks = {{19 * 60 + 15, 70, 0.45}, {22 * 60 + 15, 70, 0.40}};
  bar.transactionsPerDay = 140;
  bar.partySize = 2.2;
  bar.spendPerCoverCents = 2400;
  bar.spendSigma = 0.40;
  bar.growthPerYear = 0.08;
  bar.weeklyDriftSigma = 0.025;
  bar.dailyNoiseSigma = 0.12;
  bar.intervalDispersion = 6;
  bar.badDayRate = 0.025;
  bar.badDayFactor = 0.5;
  bar.largeOrderRate = 1.0 / 300;
  bar.largeOrderCovers = 15;
  bar.specialDayRate = 0.03;
  profiles.push_back(bar);
  return profiles;
}

SyntheticHistory generateHistory(const SiteProfile& profile, std::chrono::local_days firstDay,
                                 int days, std::uint64_t seed) {
  SeededRandom random(seed * 0x2545f4914f6cdd1dULL + 1);
  const DayShape weekdayShape = shapeOf(profile, profile.weekdayPeaks);
  const DayShape weekendShape = shapeOf(profile, profile.weekendPeaks);
  SyntheticHistory out;
  out.history.revenueCenter = profile.name;
  double weekLevel = 0;  // log
  for (int d = 0; d < days; ++d) {
    const auto day = firstDay + std::chrono::days{d};
    if (d > 0 && d % 7 == 0) weekLevel += profile.weeklyDriftSigma * random.normal();
    int weekday = static_cast<int>(std::chrono::weekday{day}.iso_encoding()) - 1;
    double level = profile.transactionsPerDay * std::exp(weekLevel) *
                   std::pow(1 + profile.growthPerYear, d / 365.0) *
                   random.logNormalMeanOne(profile.dailyNoiseSigma);
    const double open = profile.weekday[static_cast<std::size_t>(weekday)];
    if (open > 0 && random.uniform() < profile.specialDayRate) {
      const double kind = random.uniform();
      SpecialDay mark;
      mark.day = day;
      if (kind < 0.4) {
        mark.closed = true;
        mark.note = "holiday";
        out.specials.push_back(mark);
        continue;
      }
      if (kind < 0.8) {
        const double multiplier = 1.3 + 0.6 * random.uniform();
        level *= multiplier;
        mark.multiplier = std::round(multiplier * 10) / 10;  // the manager's estimate
        mark.note = "event";
      } else {
        weekday = 6;
        mark.like = std::chrono::Sunday;
        mark.note = "bank holiday";
      }
      out.specials.push_back(mark);
    } else if (random.uniform() < profile.badDayRate) {
      level *= profile.badDayFactor;
    }
    level *= profile.weekday[static_cast<std::size_t>(weekday)];
    if (level <= 0) continue;
    const DayShape& shape = weekday >= 5 ? weekendShape : weekdayShape;
    for (int s = 0; s < kIntervalsPerDay; ++s) {
      const double share = shape[static_cast<std::size_t>(s)];
      if (share <= 0) continue;
      const double largeOrders = profile.largeOrderRate * profile.largeOrderCovers;
      const double meanCovers = level * share * profile.partySize + largeOrders;
      ExpectedInterval expected;
      expected.start = std::chrono::local_seconds{day} + std::chrono::minutes{s * kIntervalMinutes};
      expected.values[static_cast<int>(Measure::kNetSales)] =
          meanCovers * profile.spendPerCoverCents;
      expected.values[static_cast<int>(Measure::kTransactions)] =
          level * share + profile.largeOrderRate;
      expected.values[static_cast<int>(Measure::kCovers)] = meanCovers;
      out.expected.push_back(expected);
      const double rate =
          level * share * random.gamma(profile.intervalDispersion) / profile.intervalDispersion;
      DemandInterval interval;
      interval.start = std::chrono::local_seconds{day} + std::chrono::minutes{s * kIntervalMinutes};
      interval.transactions = random.poisson(rate);
      double sales = 0;
      for (std::int64_t t = 0; t < interval.transactions; ++t) {
        const std::int64_t covers = 1 + random.poisson(profile.partySize - 1);
        interval.covers += covers;
        sales += static_cast<double>(covers) * profile.spendPerCoverCents *
                 random.logNormalMeanOne(profile.spendSigma);
      }
      if (random.uniform() < profile.largeOrderRate) {
        const auto covers = std::llround(profile.largeOrderCovers * (0.5 + random.uniform()));
        interval.transactions += 1;
        interval.covers += covers;
        sales += static_cast<double>(covers) * profile.spendPerCoverCents;
      }
      interval.netSalesCents = std::llround(sales);
      if (interval.transactions > 0) out.history.intervals.push_back(interval);
    }
  }
  return out;
}

}  // namespace atoms::forecast
