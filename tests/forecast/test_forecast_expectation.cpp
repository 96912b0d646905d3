// The projection of labor against sales from the forecast (domain/forecast/forecast_expectation.h,
// decision 0038): over a real sales book, a day the manager marked shapes what the rest of the day
// expects (the weekday average would not see it), the numbers are the forecast's own, and under a
// week of history the weekday average answers and says so.
#include <boost/test/unit_test.hpp>
#include <cmath>

#include "domain/forecast/forecast_expectation.h"
#include "domain/forecast/site_forecast.h"
#include "domain/forecast/special_day_store.h"
#include "domain/forecast/synthetic_demand.h"
#include "tests/forecast/sales_site.h"

namespace atoms::forecast {
namespace {

using namespace std::chrono;

constexpr local_days kHistoryStart{2026y / February / 2};  // a Monday; no DST change near it

struct ProjectionSite : test::ForecastSite {
  explicit ProjectionSite(int historyDays) : ForecastSite("America/Los_Angeles") {
    const SyntheticHistory synthetic =
        generateHistory(standardSiteProfiles().front(), kHistoryStart, historyDays, 11);
    for (const DemandInterval& i : synthetic.history.intervals) addInterval("dining", i);
    flush();
    day = kHistoryStart + days(historyDays);
  }
  ForecastSales expectation() {
    return ForecastSales(ForecastSettings{}, [this] { return loadSpecialDays(store->db()); });
  }
  // What the projection is handed: the sales book from its look-back to the end of the day.
  std::vector<pos::SalesInterval> history(const pos::SalesExpectation& e) {
    auto read = pos::salesIntervals(store->db(), sys_days((day - e.lookBack()).time_since_epoch()),
                                    sys_days((day + days(1)).time_since_epoch()) + hours(12));
    BOOST_TEST_REQUIRE(read.ok(), read.message());
    return *read;
  }
  pos::DayExpectation expected() {
    const ForecastSales e = expectation();
    auto got = e.expected(history(e), zone, day, 1);
    BOOST_TEST_REQUIRE(got.ok(), got.message());
    BOOST_TEST_REQUIRE(got->size() == 1u);
    return got->front();
  }
  local_days day;
};

std::int64_t total(const std::vector<pos::ExpectedSales>& intervals) {
  std::int64_t sum = 0;
  for (const pos::ExpectedSales& e : intervals) sum += e.netCents;
  return sum;
}

BOOST_AUTO_TEST_SUITE(forecast_expectation)

BOOST_AUTO_TEST_CASE(theProjectionIsTheForecastOfTheDayMarksIncluded) {
  ProjectionSite s(21);
  auto average = pos::weekdayAverage(s.history(s.expectation()), s.zone, s.day);
  BOOST_TEST_REQUIRE(average.ok(), average.message());
  const std::int64_t averageCents = total(*average);
  BOOST_TEST(averageCents > 0);

  const pos::DayExpectation plain = s.expected();
  BOOST_TEST(plain.source == "forecast");
  // The forecast GET /v1/forecast serves for the day, to the cent per quarter hour.
  auto served = forecastFromSales(s.store->db(), s.zone, s.day, 1, SiteForecastSettings{});
  BOOST_TEST_REQUIRE(served.ok(), served.message());
  std::int64_t servedCents = 0;
  for (const IntervalForecast& i : served->centers.front().days.front().intervals) {
    servedCents += std::llround(i.value(Measure::kNetSales));
  }
  BOOST_TEST(total(plain.intervals) == servedCents);

  // A street fair at twice the level: the projection follows, the weekday average cannot.
  SpecialDay fair{s.day, false, std::nullopt, 2.0, "street fair"};
  BOOST_TEST_REQUIRE(markSpecialDay(*s.store, fair, "person:ana", s.now).ok());
  const pos::DayExpectation doubled = s.expected();
  BOOST_TEST(doubled.source == "forecast");
  BOOST_TEST(std::abs(total(doubled.intervals) - 2 * total(plain.intervals)) <= 96);
  BOOST_TEST(total(doubled.intervals) > averageCents + averageCents / 2);

  SpecialDay closed{s.day, true, std::nullopt, 1.0, "staff party"};
  BOOST_TEST_REQUIRE(markSpecialDay(*s.store, closed, "person:ana", s.now).ok());
  const pos::DayExpectation none = s.expected();
  BOOST_TEST(none.source == "forecast");
  BOOST_TEST(none.intervals.empty());
}

BOOST_AUTO_TEST_CASE(underAWeekOfHistoryTheWeekdayAverageAnswersAndSaysSo) {
  ProjectionSite s(5);
  const pos::DayExpectation got = s.expected();
  BOOST_TEST(got.source == "weekday_average_4w");
  auto average = pos::weekdayAverage(s.history(s.expectation()), s.zone, s.day);
  BOOST_TEST_REQUIRE(average.ok(), average.message());
  BOOST_TEST((got.intervals == *average));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::forecast
