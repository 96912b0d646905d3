#include <boost/test/unit_test.hpp>
#include <cmath>

#include "domain/forecast/demand_forecast.h"
#include "domain/forecast/forecast_explanation.h"
#include "domain/forecast/synthetic_demand.h"
#include "tests/forecast/forecast_test_util.h"

namespace atoms::forecast {
namespace {

using std::chrono::days;
using std::chrono::local_days;
using test::cleanHistory;
using test::cleanValue;
using test::monday;

constexpr double kLevel = 1e6;

RevenueCenterForecast mustForecast(const RevenueCenterHistory& history, local_days first,
                                   const SpecialDays& marks = {}) {
  auto forecast = forecastDemand(history, marks, first);
  BOOST_REQUIRE_MESSAGE(forecast.ok(), forecast.message());
  return std::move(*forecast);
}

// The forecast's net sales against the clean truth on `day`: sum |error| / sum truth (WAPE).
double dayError(const DayForecast& day, double level) {
  double error = 0;
  double truth = 0;
  for (int s = 0; s < kIntervalsPerDay; ++s) {
    const double value = cleanValue(level, day.day, s);
    truth += value;
    error += std::abs(day.intervals[static_cast<std::size_t>(s)].value(Measure::kNetSales) - value);
  }
  return error / truth;
}

SpecialDays marks(std::vector<SpecialDay> marked) {
  auto made = SpecialDays::make(std::move(marked));
  BOOST_REQUIRE_MESSAGE(made.ok(), made.message());
  return std::move(*made);
}

BOOST_AUTO_TEST_SUITE(demand_forecast)

BOOST_AUTO_TEST_CASE(recoversKnownSeasonalityFromCleanHistory) {
  const auto forecast = mustForecast(cleanHistory(monday(), 8 * 7, kLevel), monday() + days{56});
  BOOST_REQUIRE_EQUAL(forecast.days.size(), 14u);
  for (const DayForecast& day : forecast.days) {
    BOOST_TEST(day.open);
    // The 1-2-1 smoothing of the shapes shaves the peaks a little: about 1% of the day moves.
    BOOST_TEST(dayError(day, kLevel) < 0.03, "day error " << dayError(day, kLevel));
    BOOST_TEST(std::abs(day.total(Measure::kNetSales) /
                            (kLevel * test::kWeekdayFactors[static_cast<std::size_t>(
                                          std::chrono::weekday{day.day}.iso_encoding() - 1)]) -
                        1) < 0.001);
  }
}

BOOST_AUTO_TEST_CASE(twoWeeksOfHistoryAreEnough) {
  // Each weekday seen twice leans on the all-week shape (decision 0031): the weekend's later lunch
  // is blurred a little towards the weekdays', so about 6% of a weekend day moves, 4% of a weekday.
  const auto forecast = mustForecast(cleanHistory(monday(), 14, kLevel), monday() + days{14});
  for (const DayForecast& day : forecast.days) {
    BOOST_TEST(dayError(day, kLevel) < 0.07);
    BOOST_TEST(std::abs(day.total(Measure::kNetSales) /
                            (kLevel * test::kWeekdayFactors[static_cast<std::size_t>(
                                          std::chrono::weekday{day.day}.iso_encoding() - 1)]) -
                        1) < 0.001);
  }
}

BOOST_AUTO_TEST_CASE(lessThanAWeekOfHistoryIsRefusedNamingTheCenter) {
  auto forecast = forecastDemand(cleanHistory(monday(), 5), {}, monday() + days{5});
  BOOST_REQUIRE(!forecast.ok());
  BOOST_TEST(forecast.message() ==
             "revenue center \"dining room\": needs at least a week of sales history");
  BOOST_TEST((forecastDemand(RevenueCenterHistory{"bar", {}}, {}, monday()).kind() ==
              ErrorKind::kInvalid));
}

BOOST_AUTO_TEST_CASE(eachIntervalSaysWhatItIsMadeOf) {
  const auto forecast = mustForecast(cleanHistory(monday(), 28, kLevel), monday() + days{28});
  const DayForecast& saturday = forecast.days[5];
  const DayForecast& tuesday = forecast.days[1];
  const IntervalParts& dinner = saturday.intervals[76].parts[0];  // 19:00
  BOOST_TEST(std::abs(dinner.base / kLevel - 1) < 0.001);
  BOOST_TEST(std::abs(dinner.dayOfWeek / 1.4 - 1) < 0.001);
  BOOST_TEST(std::abs(dinner.trend - 1) < 1e-6);
  BOOST_TEST(dinner.special == 1.0);
  BOOST_TEST(dinner.value() ==
             dinner.base * dinner.dayOfWeek * dinner.timeOfDay * dinner.trend * dinner.special);
  BOOST_TEST(tuesday.intervals[76].parts[0].dayOfWeek < dinner.dayOfWeek);
  double shares = 0;
  for (const IntervalForecast& interval : saturday.intervals) shares += interval.parts[0].timeOfDay;
  BOOST_TEST(std::abs(shares - 1) < 1e-6);
  BOOST_TEST(saturday.intervals[40].value(Measure::kNetSales) == 0);  // 10:00, before opening
}

BOOST_AUTO_TEST_CASE(followsMarkedDaysAhead) {
  const local_days start = monday() + days{28};
  const auto plain = mustForecast(cleanHistory(monday(), 28, kLevel), start);
  const auto marked =
      mustForecast(cleanHistory(monday(), 28, kLevel), start,
                   marks({{start, true, std::nullopt, 1.0, "Easter Monday"},
                          {start + days{1}, false, std::chrono::Saturday, 1.0, "bank holiday"},
                          {start + days{2}, false, std::nullopt, 1.5, "street fair"}}));
  BOOST_TEST(!marked.days[0].open);
  BOOST_TEST(marked.days[0].total(Measure::kCovers) == 0);
  BOOST_TEST(marked.days[0].note == "Easter Monday: closed");
  BOOST_TEST(marked.days[1].note == "bank holiday: like a Saturday");
  BOOST_TEST((marked.days[1].shapedLike == std::chrono::Saturday));
  BOOST_TEST(
      std::abs(marked.days[1].total(Measure::kNetSales) / plain.days[5].total(Measure::kNetSales) -
               1) < 1e-6);
  BOOST_TEST(
      std::abs(marked.days[2].total(Measure::kNetSales) / plain.days[2].total(Measure::kNetSales) -
               1.5) < 1e-6);
  BOOST_TEST(marked.days[2].intervals[76].parts[0].special == 1.5);
}

BOOST_AUTO_TEST_CASE(markedDaysInTheHistoryDoNotTeachIt) {
  RevenueCenterHistory history = cleanHistory(monday(), 28, kLevel);
  // The last Wednesday was a street fair at three times the usual, and the manager marked it.
  const local_days fair = monday() + days{23};
  for (DemandInterval& row : history.intervals) {
    if (std::chrono::floor<days>(row.start) == fair) row.netSalesCents *= 3;
  }
  const auto forecast = mustForecast(history, monday() + days{28},
                                     marks({{fair, false, std::nullopt, 3.0, "street fair"}}));
  BOOST_TEST(dayError(forecast.days[2], kLevel) < 0.03);
}

BOOST_AUTO_TEST_CASE(aLargeOrderInOneIntervalDoesNotDragIt) {
  RevenueCenterHistory history = cleanHistory(monday(), 14, kLevel);
  // A catering order: last Friday 12:30, at the lunch peak, took 20 times its usual.
  const auto spike =
      std::chrono::local_seconds{monday() + days{11}} + std::chrono::minutes{12 * 60 + 30};
  double usual = 0;
  for (DemandInterval& row : history.intervals) {
    if (row.start != spike) continue;
    usual = static_cast<double>(row.netSalesCents);
    row.netSalesCents *= 20;
  }
  BOOST_REQUIRE(usual > 0);
  const auto forecast = mustForecast(history, monday() + days{14});
  const DayForecast& friday = forecast.days[4];
  // Seasonal naive would say 20 times; cut to 2.5 times what the other days expect and averaged
  // with the week before, the interval stays near its usual, and the day's level barely moves.
  BOOST_TEST(friday.intervals[50].value(Measure::kNetSales) / usual < 1.9);
  BOOST_TEST(std::abs(friday.total(Measure::kNetSales) / (kLevel * 1.3) - 1) < 0.05);
}

BOOST_AUTO_TEST_CASE(anUnmarkedBadDayDoesNotDragIt) {
  RevenueCenterHistory history = cleanHistory(monday(), 28, kLevel);
  const local_days storm = monday() + days{23};  // the last Wednesday, at 30%, unmarked
  for (DemandInterval& row : history.intervals) {
    if (std::chrono::floor<days>(row.start) == storm) {
      row.netSalesCents = std::llround(static_cast<double>(row.netSalesCents) * 0.3);
    }
  }
  const auto forecast = mustForecast(history, monday() + days{28});
  BOOST_TEST(dayError(forecast.days[2], kLevel) < 0.05);
  BOOST_TEST(dayError(forecast.days[4], kLevel) < 0.05);
}

BOOST_AUTO_TEST_CASE(aWeekdayNeverTradedStaysClosed) {
  RevenueCenterHistory history = cleanHistory(monday(), 21, kLevel);
  std::erase_if(history.intervals, [](const DemandInterval& row) {
    return std::chrono::weekday{std::chrono::floor<days>(row.start)} == std::chrono::Monday;
  });
  const auto forecast = mustForecast(history, monday() + days{21});
  BOOST_TEST(!forecast.days[0].open);
  BOOST_TEST(forecast.days[0].note == "closed on Mondays in the history");
  BOOST_TEST(forecast.days[0].total(Measure::kNetSales) == 0);
  BOOST_TEST(forecast.days[1].open);
}

BOOST_AUTO_TEST_CASE(followsAGrowingTrendDamped) {
  // 1% a week for 16 weeks: the next Monday is above the last one, but the damped trend does
  // not run ahead of the truth.
  const double growth = 0.01;
  const auto forecast =
      mustForecast(cleanHistory(monday(), 16 * 7, kLevel, growth), monday() + days{16 * 7});
  const double lastMonday = kLevel * 0.8 * std::pow(1 + growth, 15.0);
  const double truth = kLevel * 0.8 * std::pow(1 + growth, 16.0);
  const double predicted = forecast.days[0].total(Measure::kNetSales);
  BOOST_TEST(predicted > lastMonday);
  BOOST_TEST(predicted < truth * 1.01);
  BOOST_TEST(forecast.days[0].intervals[76].parts[0].trend > 1.0);
}

BOOST_AUTO_TEST_CASE(isDeterministic) {
  const SiteProfile profile = standardSiteProfiles()[0];
  const SyntheticHistory a = generateHistory(profile, monday(), 56, 7);
  const SyntheticHistory b = generateHistory(profile, monday(), 56, 7);
  BOOST_REQUIRE_EQUAL(a.history.intervals.size(), b.history.intervals.size());
  const auto marksA = marks(a.specials);
  const auto one = mustForecast(a.history, monday() + days{56}, marksA);
  const auto two = mustForecast(b.history, monday() + days{56}, marksA);
  for (std::size_t d = 0; d < one.days.size(); ++d) {
    for (int s = 0; s < kIntervalsPerDay; ++s) {
      BOOST_TEST(one.days[d].intervals[static_cast<std::size_t>(s)].value(Measure::kCovers) ==
                 two.days[d].intervals[static_cast<std::size_t>(s)].value(Measure::kCovers));
    }
  }
}

BOOST_AUTO_TEST_CASE(recoversTheWeekOfASyntheticSite) {
  // The casual dining profile's Saturday is 1.37 / 0.78 times its Monday; 16 noisy weeks give it
  // back within 10%, and no trading before 11:00.
  const SiteProfile profile = standardSiteProfiles()[0];
  const SyntheticHistory synthetic = generateHistory(profile, monday(), 16 * 7, 3);
  const auto forecast =
      mustForecast(synthetic.history, monday() + days{16 * 7}, marks(synthetic.specials));
  const IntervalParts& saturday = forecast.days[5].intervals[76].parts[0];
  const IntervalParts& mondayParts = forecast.days[7].intervals[76].parts[0];
  BOOST_TEST(std::abs(saturday.dayOfWeek / mondayParts.dayOfWeek / (1.37 / 0.78) - 1) < 0.10);
  for (int s = 0; s < 44; ++s) {
    BOOST_TEST(forecast.days[5].intervals[static_cast<std::size_t>(s)].value(Measure::kNetSales) ==
               0);
  }
}

BOOST_AUTO_TEST_CASE(forecastsTransactionsAndCoversToo) {
  const auto forecast = mustForecast(cleanHistory(monday(), 28, kLevel), monday() + days{28});
  const DayForecast& friday = forecast.days[4];
  // The clean history's transactions are a hundredth of its sales (rounded), covers twice those.
  BOOST_TEST(std::abs(friday.total(Measure::kTransactions) / (kLevel * 1.3 / 100) - 1) < 0.01);
  BOOST_TEST(std::abs(friday.total(Measure::kCovers) / friday.total(Measure::kTransactions) - 2) <
             1e-6);
}

BOOST_AUTO_TEST_CASE(aCenterThatCountsNoCoversForecastsNoneAndRefundsDoNotBreakIt) {
  RevenueCenterHistory history = cleanHistory(monday(), 21, kLevel);
  for (DemandInterval& row : history.intervals) row.covers = 0;
  // A refund larger than the quarter hour's sales, last Tuesday at noon.
  const auto refund = std::chrono::local_seconds{monday() + days{15}} + std::chrono::hours{12};
  for (DemandInterval& row : history.intervals) {
    if (row.start == refund) row.netSalesCents = -50000;
  }
  const auto forecast = mustForecast(history, monday() + days{21});
  for (const DayForecast& day : forecast.days) {
    BOOST_TEST(day.total(Measure::kCovers) == 0);
    for (const IntervalForecast& interval : day.intervals) {
      const double value = interval.value(Measure::kNetSales);
      BOOST_TEST((std::isfinite(value) && value >= 0));
    }
  }
  BOOST_TEST(dayError(forecast.days[1], kLevel) < 0.05);
}

BOOST_AUTO_TEST_CASE(readsOnlyTheHistoryBeforeTheFirstDayAndWithinItsWeeks) {
  // Rows after the first day (a half-finished day, a later import) and older than maxHistoryWeeks
  // (a different business: ten times the level) are not read.
  RevenueCenterHistory history = cleanHistory(monday(), 10 * 7, kLevel);
  for (DemandInterval& row : history.intervals) {
    if (std::chrono::floor<days>(row.start) < monday() + days{14}) row.netSalesCents *= 10;
    if (std::chrono::floor<days>(row.start) >= monday() + days{8 * 7}) row.netSalesCents *= 10;
  }
  ForecastSettings settings;
  settings.maxHistoryWeeks = 6;
  auto forecast = forecastDemand(history, {}, monday() + days{8 * 7}, settings);
  BOOST_REQUIRE_MESSAGE(forecast.ok(), forecast.message());
  BOOST_TEST(forecast->historyDays == 6 * 7);
  for (const DayForecast& day : forecast->days) BOOST_TEST(dayError(day, kLevel) < 0.03);
}

BOOST_AUTO_TEST_CASE(explainsAnIntervalInWords) {
  const local_days start = monday() + days{28};
  const auto forecast = mustForecast(cleanHistory(monday(), 28, 610000), start,
                                     marks({{start, true, std::nullopt, 1.0, "Easter Monday"},
                                            {start + days{4}, false, std::nullopt, 1.5, "fair"}}));
  BOOST_TEST(explainInterval(forecast.days[0], 76, Measure::kNetSales) ==
             "Monday 19:00-19:15: closed (Easter Monday: closed)");
  const std::string friday = explainInterval(forecast.days[4], 76, Measure::kNetSales);
  BOOST_TEST(friday.rfind("Friday 19:00-19:15: ", 0) == 0, friday);
  BOOST_TEST(friday.find(" net sales = an ordinary day 610") != std::string::npos, friday);
  BOOST_TEST(friday.find(" x Friday 1.30 x ") != std::string::npos, friday);
  BOOST_TEST(
      friday.find("% of the day x trend 1.00 x special day 1.50 (fair x1.5)") != std::string::npos,
      friday);
  BOOST_TEST(explainInterval(forecast.days[4], 95, Measure::kCovers).find("23:45-00:00") !=
             std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::forecast
