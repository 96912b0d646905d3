// The labor standards file (domain/forecast/labor_standards_text.h): lines read into standards,
// comments and blank lines skipped, a bad line named by file, line and column.
#include <boost/test/unit_test.hpp>

#include "domain/forecast/labor_standards_text.h"

namespace atoms::forecast {
namespace {

BOOST_AUTO_TEST_SUITE(labor_standards_text)

BOOST_AUTO_TEST_CASE(readsEachStationWithItsRevenueCenters) {
  auto read = parseLaborStandards(
      "# station driver per_head period min max opens closes\n"
      "\n"
      "floor covers 16 60 1 6 11:00 22:00   # the dining room\n"
      "bar net_sales 40000 60 1 3 16:00 24:00 bar patio\n",
      "/etc/atoms-edge/standards");
  BOOST_TEST_REQUIRE(read.ok(), read.message());
  BOOST_TEST_REQUIRE(read->size() == 2u);
  const LaborStandard& bar = (*read)[1];
  BOOST_TEST(bar.station == "bar");
  BOOST_TEST((bar.driver == Measure::kNetSales));
  BOOST_TEST(bar.unitsPerHead == 40000.0);
  BOOST_TEST(bar.closesMinute == 24 * 60);
  BOOST_TEST((bar.revenueCenters == std::vector<std::string>{"bar", "patio"}));
  BOOST_TEST((*read)[0].revenueCenters.empty());
  BOOST_TEST((*read)[0].minimumHeads == 1);
}

BOOST_AUTO_TEST_CASE(aBadLineIsNamedByFileLineAndColumn) {
  auto driver = parseLaborStandards("floor guests 16 60 1 6 11:00 22:00\n", "std");
  BOOST_TEST(driver.message() ==
             "std line 1: driver 'guests' is not covers, transactions or net_sales");
  auto opens = parseLaborStandards("\nfloor covers 16 60 1 6 11h 22:00\n", "std");
  BOOST_TEST(opens.message() == "std line 2: opens '11h' is not HH:MM");
  auto shortLine = parseLaborStandards("floor covers 16\n", "std");
  BOOST_TEST(shortLine.message() ==
             "std line 1: expected station, driver, per_head, period, min, max, opens, closes");
  auto period = parseLaborStandards("floor covers 16 50 1 6 11:00 22:00\n", "std");
  BOOST_TEST(!period.ok());
  BOOST_TEST(period.message().rfind("std line 1: labor standard \"floor\": ", 0) == 0);
  // People and minutes are whole numbers: a fraction is refused, never truncated.
  auto half = parseLaborStandards("floor covers 16 60 1.5 6 11:00 22:00\n", "std");
  BOOST_TEST(half.message() == "std line 1: min '1.5' is not a whole number of people");
  auto huge = parseLaborStandards("floor covers 16 1e12 1 6 11:00 22:00\n", "std");
  BOOST_TEST(huge.message() == "std line 1: period '1e12' is not a whole number of minutes");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::forecast
