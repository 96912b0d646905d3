#include "domain/forecast/demand_model.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace atoms::forecast {

namespace {

using Shape = std::array<double, kIntervalsPerDay>;

// One day of the history as the fit sees it, for one measure.
struct FitDay {
  int weekday = 0;
  int block = 0;        // whole weeks back from the end of the history (0: the last 7 days)
  double ageWeeks = 0;  // exact age in weeks of the day, from the last day
  Shape values{};       // negatives (refunds) read as 0
  double total = 0;
};

double halfLifeWeight(double ageWeeks, double halfLifeWeeks) {
  return std::pow(0.5, ageWeeks / halfLifeWeeks);
}

// The weighted median of (value, weight) pairs; 0 when there are none.
double weightedMedian(std::vector<std::pair<double, double>> pairs) {
  if (pairs.empty()) return 0;
  std::sort(pairs.begin(), pairs.end());
  double total = 0;
  for (const auto& p : pairs) total += p.second;
  double seen = 0;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    seen += pairs[i].second;
    if (seen > total / 2 * (1 + 1e-12)) return pairs[i].first;
    if (seen >= total / 2 * (1 - 1e-12) && i + 1 < pairs.size()) {
      return (pairs[i].first + pairs[i + 1].first) / 2;
    }
  }
  return pairs.back().first;
}

constexpr double kWinsorSpreads = 2;

// A weighted mean that one wild value cannot drag: with three values or more, each is first pulled
// in to within kWinsorSpreads robust standard deviations (1.4826 MAD, at least 5% of the median) of
// the weighted median. 0 when there are none.
double robustWeightedMean(const std::vector<std::pair<double, double>>& pairs) {
  if (pairs.empty()) return 0;
  double low = -HUGE_VAL;
  double high = HUGE_VAL;
  if (pairs.size() >= 3) {
    const double median = weightedMedian(pairs);
    std::vector<std::pair<double, double>> deviations;
    deviations.reserve(pairs.size());
    for (const auto& p : pairs) deviations.emplace_back(std::abs(p.first - median), p.second);
    const double spread = std::max(1.4826 * weightedMedian(deviations), 0.05 * std::abs(median));
    low = median - kWinsorSpreads * spread;
    high = median + kWinsorSpreads * spread;
  }
  double sum = 0;
  double weights = 0;
  for (const auto& p : pairs) {
    sum += std::clamp(p.first, low, high) * p.second;
    weights += p.second;
  }
  return weights > 0 ? sum / weights : 0;
}

// Smooths a shape over neighbouring intervals (1-2-1) where the site trades (`active`), so that one
// noisy quarter hour does not become the forecast, without spilling into hours it is closed.
Shape smoothed(const Shape& shape, const std::array<bool, kIntervalsPerDay>& active) {
  Shape out{};
  double sum = 0;
  for (int s = 0; s < kIntervalsPerDay; ++s) {
    if (!active[static_cast<std::size_t>(s)]) continue;
    double value = 2 * shape[static_cast<std::size_t>(s)];
    double weight = 2;
    for (int n : {s - 1, s + 1}) {
      if (n < 0 || n >= kIntervalsPerDay || !active[static_cast<std::size_t>(n)]) continue;
      value += shape[static_cast<std::size_t>(n)];
      weight += 1;
    }
    out[static_cast<std::size_t>(s)] = value / weight;
    sum += out[static_cast<std::size_t>(s)];
  }
  if (sum > 0) {
    for (double& v : out) v /= sum;
  }
  return out;
}

Shape sharesOf(const FitDay& day) {
  Shape shares{};
  for (std::size_t s = 0; s < shares.size(); ++s) shares[s] = day.values[s] / day.total;
  return shares;
}

double totalOf(const Shape& values) {
  double sum = 0;
  for (double v : values) sum += v;
  return sum;
}

// Cuts each interval down to outlierFactor times what the other days expect there: the larger of
// the median share of that interval over all days and the mean share over the other days of the
// same weekday, times the day's total; never below kClipFloor of the day's average trading interval
// (a quarter hour the others rarely trade in may still sell a ticket or two).
constexpr double kClipFloor = 0.25;

void clipOutliers(std::vector<FitDay>& days, double factor) {
  if (days.size() < 2) return;
  std::vector<Shape> shares;
  shares.reserve(days.size());
  for (const FitDay& day : days) shares.push_back(sharesOf(day));
  std::array<bool, kIntervalsPerDay> all{};
  all.fill(true);
  Shape median{};
  for (std::size_t s = 0; s < median.size(); ++s) {
    std::vector<std::pair<double, double>> column;
    for (const Shape& share : shares) column.emplace_back(share[s], 1.0);
    median[s] = weightedMedian(column);
  }
  median = smoothed(median, all);
  for (std::size_t d = 0; d < days.size(); ++d) {
    Shape others{};
    int count = 0;
    for (std::size_t o = 0; o < days.size(); ++o) {
      if (o == d || days[o].weekday != days[d].weekday) continue;
      for (std::size_t s = 0; s < others.size(); ++s) others[s] += shares[o][s];
      ++count;
    }
    if (count > 0) {
      for (double& v : others) v /= count;
      others = smoothed(others, all);
    }
    int trading = 0;
    for (double v : days[d].values) trading += v > 0 ? 1 : 0;
    const double floor = kClipFloor * days[d].total / std::max(trading, 1);
    for (std::size_t s = 0; s < others.size(); ++s) {
      const double cap = std::max(factor * std::max(median[s], others[s]) * days[d].total, floor);
      days[d].values[s] = std::min(days[d].values[s], cap);
    }
  }
  for (FitDay& day : days) day.total = totalOf(day.values);
}

// The weekday factors (mean 1 over the weekdays seen) from the days' totals against their week's
// level, refined a few times since each needs the other.
std::array<double, kWeekdays> weekdayFactors(const std::vector<FitDay>& days,
                                             const ForecastSettings& settings) {
  std::array<double, kWeekdays> factors{};
  for (const FitDay& day : days) factors[static_cast<std::size_t>(day.weekday)] = 1;
  int blocks = 0;
  for (const FitDay& day : days) blocks = std::max(blocks, day.block + 1);
  for (int round = 0; round < 4; ++round) {
    std::vector<std::vector<std::pair<double, double>>> adjusted(static_cast<std::size_t>(blocks));
    for (const FitDay& day : days) {
      adjusted[static_cast<std::size_t>(day.block)].emplace_back(
          day.total / factors[static_cast<std::size_t>(day.weekday)], 1.0);
    }
    std::vector<double> level;
    for (const auto& block : adjusted) level.push_back(robustWeightedMean(block));
    std::array<double, kWeekdays> next{};
    double sum = 0;
    int seen = 0;
    for (int w = 0; w < kWeekdays; ++w) {
      std::vector<std::pair<double, double>> ratios;
      for (const FitDay& day : days) {
        if (day.weekday != w || level[static_cast<std::size_t>(day.block)] <= 0) continue;
        ratios.emplace_back(day.total / level[static_cast<std::size_t>(day.block)],
                            halfLifeWeight(day.ageWeeks, settings.patternHalfLifeWeeks));
      }
      next[static_cast<std::size_t>(w)] = robustWeightedMean(ratios);
      if (!ratios.empty()) {
        sum += next[static_cast<std::size_t>(w)];
        ++seen;
      }
    }
    if (sum <= 0) return {};
    for (double& f : next) f *= seen / sum;
    factors = next;
  }
  return factors;
}

// A robust slope of the log of the weekday-adjusted totals per day (Theil-Sen over pairs at least
// a week apart). `first` is each day's index.
double trendSlope(const std::vector<std::pair<double, double>>& points) {
  std::vector<std::pair<double, double>> slopes;
  for (std::size_t i = 0; i < points.size(); ++i) {
    for (std::size_t j = i + 1; j < points.size(); ++j) {
      const double dt = points[j].first - points[i].first;
      if (std::abs(dt) < 7) continue;
      slopes.emplace_back((points[j].second - points[i].second) / dt, 1.0);
    }
  }
  if (slopes.empty()) return 0;
  return weightedMedian(std::move(slopes));
}

MeasureModel fitMeasure(std::vector<FitDay> days, int historyDays,
                        const ForecastSettings& settings) {
  MeasureModel model;
  if (days.empty()) return model;
  // Twice: the first pass's day totals still hold the outliers it cuts.
  clipOutliers(days, settings.outlierFactor);
  clipOutliers(days, settings.outlierFactor);
  model.dayOfWeek = weekdayFactors(days, settings);

  std::vector<std::pair<double, double>> points;  // (day index, log adjusted total)
  for (const FitDay& day : days) {
    const double factor = model.dayOfWeek[static_cast<std::size_t>(day.weekday)];
    if (factor <= 0 || day.total <= 0) continue;
    points.emplace_back(static_cast<double>(historyDays - 1) - day.ageWeeks * 7,
                        std::log(day.total / factor));
  }
  // The past is brought to the end of the history with the slope as measured; the forecast
  // carries it ahead shrunk while the history is short, since a slope from few weeks is mostly
  // noise.
  const double slope = trendSlope(points);
  const double weeks = historyDays / 7.0;
  model.dailyLogSlope = slope * weeks / (weeks + settings.trendShrinkWeeks);

  std::vector<std::pair<double, double>> levels;
  for (const FitDay& day : days) {
    const double factor = model.dayOfWeek[static_cast<std::size_t>(day.weekday)];
    if (factor <= 0) continue;
    const double adjusted = day.total / factor * std::exp(slope * day.ageWeeks * 7);
    levels.emplace_back(adjusted, halfLifeWeight(day.ageWeeks, settings.levelHalfLifeWeeks));
  }
  model.base = robustWeightedMean(levels);

  Shape pooled{};
  double pooledWeight = 0;
  std::array<Shape, kWeekdays> sums{};
  std::array<double, kWeekdays> weights{};
  std::array<std::array<bool, kIntervalsPerDay>, kWeekdays> active{};
  for (const FitDay& day : days) {
    const double weight = halfLifeWeight(day.ageWeeks, settings.patternHalfLifeWeeks);
    const Shape shares = sharesOf(day);
    const auto w = static_cast<std::size_t>(day.weekday);
    for (std::size_t s = 0; s < shares.size(); ++s) {
      pooled[s] += weight * shares[s];
      sums[w][s] += weight * shares[s];
      if (day.values[s] > 0) active[w][s] = true;
    }
    pooledWeight += weight;
    weights[w] += weight;
  }
  // The all-week shape steadies a weekday seen twice; with more weeks each weekday has its own.
  const double shrink = settings.shapeShrinkDays * std::min(1.0, 2 / weeks);
  for (std::size_t w = 0; w < static_cast<std::size_t>(kWeekdays); ++w) {
    if (weights[w] <= 0) continue;
    Shape shape{};
    for (std::size_t s = 0; s < shape.size(); ++s) {
      if (!active[w][s]) continue;
      shape[s] = (sums[w][s] + shrink * pooled[s] / pooledWeight) / (weights[w] + shrink);
    }
    for (int pass = 0; pass < settings.smoothingPasses; ++pass) shape = smoothed(shape, active[w]);
    model.shape[w] = shape;
  }
  return model;
}

}  // namespace

int weekdayIndex(std::chrono::local_days day) {
  return static_cast<int>(std::chrono::weekday{day}.iso_encoding()) - 1;
}

DemandModel fitDemandModel(const DemandGrid& grid, const SpecialDays& specials,
                           const ForecastSettings& settings) {
  DemandModel model;
  const int historyDays = static_cast<int>(grid.days.size());

  // A weekday is open ahead when it traded on one of its last two ordinary occurrences.
  std::array<int, kWeekdays> looked{};
  for (int d = historyDays - 1; d >= 0; --d) {
    const DayGrid& day = grid.days[static_cast<std::size_t>(d)];
    const auto w = static_cast<std::size_t>(weekdayIndex(day.day));
    if (specials.find(day.day) != nullptr || looked[w] >= 2) continue;
    ++looked[w];
    if (day.traded()) model.weekdayOpen[w] = true;
  }

  for (int m = 0; m < kMeasureCount; ++m) {
    std::vector<FitDay> days;
    for (int d = 0; d < historyDays; ++d) {
      const DayGrid& day = grid.days[static_cast<std::size_t>(d)];
      if (!day.traded() || specials.find(day.day) != nullptr) continue;
      FitDay fit;
      fit.weekday = weekdayIndex(day.day);
      fit.block = (historyDays - 1 - d) / 7;
      fit.ageWeeks = (historyDays - 1 - d) / 7.0;
      for (std::size_t s = 0; s < fit.values.size(); ++s) {
        fit.values[s] = std::max(0.0, day.values[static_cast<std::size_t>(m)][s]);
      }
      fit.total = totalOf(fit.values);
      if (fit.total > 0) days.push_back(fit);
    }
    model.measures[static_cast<std::size_t>(m)] =
        fitMeasure(std::move(days), historyDays, settings);
  }
  return model;
}

}  // namespace atoms::forecast
