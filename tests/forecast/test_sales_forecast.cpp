// The forecast fed from the sales book (domain/forecast/site_forecast.h): three weeks of a
// synthetic restaurant written as POS orders give exactly the library's forecast of the same
// history; the manager's marks are stored and used; too little history is a clear error.
#include <boost/test/unit_test.hpp>

#include "domain/forecast/sales_history.h"
#include "domain/forecast/site_forecast.h"
#include "domain/forecast/special_day_store.h"
#include "domain/forecast/synthetic_demand.h"
#include "tests/forecast/sales_site.h"

namespace atoms::forecast {
namespace {

using namespace std::chrono;

constexpr local_days kFirstDay{2026y / January / 5};  // a Monday; no DST change near it

struct ThreeWeeks : test::ForecastSite {
  ThreeWeeks() : ForecastSite("America/Los_Angeles") {
    synthetic = generateHistory(standardSiteProfiles().front(), kFirstDay, 21, 7);
    for (const DemandInterval& i : synthetic.history.intervals) addInterval("dining", i);
    flush();
  }
  SyntheticHistory synthetic;
  const local_days forecastDay = kFirstDay + days(21);
};

BOOST_AUTO_TEST_SUITE(sales_forecast)

BOOST_AUTO_TEST_CASE(forecastFromTheSalesBookEqualsTheLibrarysForecastOfTheSameHistory) {
  ThreeWeeks s;
  SiteForecastSettings settings;
  settings.standards.push_back(
      LaborStandard{"server", Measure::kCovers, {}, 16, 60, 1, 0, 11 * 60, 22 * 60});
  auto fed = forecastFromSales(s.store->db(), s.zone, s.forecastDay, 14, settings);
  BOOST_TEST_REQUIRE(fed.ok(), fed.message());

  RevenueCenterHistory same = s.synthetic.history;
  same.revenueCenter = "dining";
  auto library = forecastDemand(same, SpecialDays{}, s.forecastDay);
  BOOST_TEST_REQUIRE(library.ok(), library.message());

  BOOST_TEST_REQUIRE(fed->centers.size() == 1u);
  const RevenueCenterForecast& got = fed->centers.front();
  BOOST_TEST(got.revenueCenter == "dining");
  BOOST_TEST(got.historyDays == library->historyDays);
  BOOST_TEST_REQUIRE(got.days.size() == 14u);
  BOOST_TEST_REQUIRE(library->days.size() == 14u);
  for (std::size_t d = 0; d < got.days.size(); ++d) {
    BOOST_TEST_REQUIRE(got.days[d].intervals.size() == library->days[d].intervals.size());
    for (std::size_t i = 0; i < got.days[d].intervals.size(); ++i) {
      for (int m = 0; m < kMeasureCount; ++m) {
        const auto measure = static_cast<Measure>(m);
        BOOST_TEST(got.days[d].intervals[i].value(measure) ==
                   library->days[d].intervals[i].value(measure));
      }
    }
  }
  auto heads = requiredHeads({*library}, settings.standards);
  BOOST_TEST_REQUIRE(heads.ok(), heads.message());
  BOOST_TEST_REQUIRE(fed->staffing.size() == heads->size());
  for (std::size_t d = 0; d < heads->size(); ++d) {
    BOOST_TEST(fed->staffing[d].heads == (*heads)[d].heads, boost::test_tools::per_element());
  }
}

BOOST_AUTO_TEST_CASE(aMarkedDayIsStoredAuditedAndForecastAsMarked) {
  ThreeWeeks s;
  const local_days christmasLike = s.forecastDay + days(3);
  SpecialDay closed{christmasLike, true, std::nullopt, 1.0, "staff party"};
  BOOST_TEST_REQUIRE(markSpecialDay(*s.store, closed, "person:ana", s.now).ok());
  auto fed = forecastFromSales(s.store->db(), s.zone, s.forecastDay, 7, SiteForecastSettings{});
  BOOST_TEST_REQUIRE(fed.ok(), fed.message());
  const DayForecast& day = fed->centers.front().days.at(3);
  BOOST_TEST(!day.open);
  BOOST_TEST(day.note == "staff party: closed");
  BOOST_TEST(day.total(Measure::kNetSales) == 0.0);
  BOOST_TEST(s.entries("forecast.special_day") == 1u);

  auto removed = unmarkSpecialDay(*s.store, christmasLike, "person:ana", s.now);
  BOOST_TEST_REQUIRE(removed.ok(), removed.message());
  BOOST_TEST(*removed);
  auto again = unmarkSpecialDay(*s.store, christmasLike, "person:ana", s.now);
  BOOST_TEST_REQUIRE(again.ok(), again.message());
  BOOST_TEST(!*again);
  BOOST_TEST(s.entries("forecast.special_day") == 2u);  // the second unmark changed nothing
  auto after = forecastFromSales(s.store->db(), s.zone, s.forecastDay, 7, SiteForecastSettings{});
  BOOST_TEST_REQUIRE(after.ok(), after.message());
  BOOST_TEST(after->centers.front().days.at(3).open);
}

BOOST_AUTO_TEST_CASE(tooLittleHistoryIsAClearErrorNotAForecast) {
  test::ForecastSite s("America/Los_Angeles");
  auto none = forecastFromSales(s.store->db(), s.zone, kFirstDay, 14, SiteForecastSettings{});
  BOOST_TEST(!none.ok());
  BOOST_TEST(none.message() == "no sales in the box before 2026-01-05 yet");
  auto tooMany = forecastFromSales(s.store->db(), s.zone, kFirstDay, 15, SiteForecastSettings{});
  BOOST_TEST(tooMany.message() == "days must be from 1 to 14");
}

BOOST_AUTO_TEST_CASE(theNightClocksGoBackAddsBothQuarterHoursOnTheWallClock) {
  const auto zone = site::TimeZone::locate("America/Los_Angeles").value();
  // 01:15 local happens twice on 2026-11-01: at 08:15Z (PDT) and 09:15Z (PST).
  const sys_seconds first = sys_days(2026y / November / 1) + 8h + 15min;
  const std::vector<pos::SalesInterval> sales{{first, "bar", 1000, 1, 2},
                                              {first + 1h, "bar", 500, 1, 1}};
  const auto histories = historiesFromSales(sales, zone);
  BOOST_TEST_REQUIRE(histories.size() == 1u);
  BOOST_TEST_REQUIRE(histories[0].intervals.size() == 1u);
  BOOST_TEST(histories[0].intervals[0].netSalesCents == 1500);
  BOOST_TEST(histories[0].intervals[0].covers == 3);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::forecast
