#include <boost/test/unit_test.hpp>

#include "domain/forecast/demand_history.h"
#include "domain/forecast/special_day.h"
#include "tests/forecast/forecast_test_util.h"

namespace atoms::forecast {
namespace {

using test::monday;

DemandInterval rowAt(std::chrono::local_seconds start) {
  DemandInterval row;
  row.start = start;
  row.netSalesCents = 1000;
  row.transactions = 1;
  row.covers = 2;
  return row;
}

BOOST_AUTO_TEST_SUITE(demand_history)

BOOST_AUTO_TEST_CASE(laysRowsOutPerDayAndInterval) {
  RevenueCenterHistory history{"bar", {}};
  history.intervals.push_back(rowAt(std::chrono::local_seconds{monday()} + std::chrono::hours{12}));
  auto grid = gridFromHistory(history, monday(), monday() + std::chrono::days{2});
  BOOST_REQUIRE_MESSAGE(grid.ok(), grid.message());
  BOOST_REQUIRE_EQUAL(grid->days.size(), 2u);
  BOOST_TEST(grid->days[0].values[0][48] == 1000);
  BOOST_TEST(grid->days[0].total(Measure::kCovers) == 2);
  BOOST_TEST(grid->days[0].traded());
  BOOST_TEST(!grid->days[1].traded());
}

BOOST_AUTO_TEST_CASE(rejectsAStartOffTheQuarterHourNamingIt) {
  RevenueCenterHistory history{"bar", {}};
  history.intervals.push_back(
      rowAt(std::chrono::local_seconds{monday()} + std::chrono::minutes{12 * 60 + 5}));
  auto grid = gridFromHistory(history, monday(), monday() + std::chrono::days{1});
  BOOST_REQUIRE(!grid.ok());
  BOOST_TEST((grid.kind() == ErrorKind::kInvalid));
  BOOST_TEST(grid.message() ==
             "revenue center \"bar\", interval 2026-03-02 12:05: does not start on a 15-minute "
             "boundary");
}

BOOST_AUTO_TEST_CASE(rejectsARowGivenTwiceAndNegativeCounts) {
  RevenueCenterHistory twice{"bar", {}};
  twice.intervals.push_back(rowAt(std::chrono::local_seconds{monday()}));
  twice.intervals.push_back(rowAt(std::chrono::local_seconds{monday()}));
  auto grid = gridFromHistory(twice, monday(), monday() + std::chrono::days{1});
  BOOST_TEST(grid.message() == "revenue center \"bar\", interval 2026-03-02 00:00: given twice");

  RevenueCenterHistory negative{"bar", {rowAt(std::chrono::local_seconds{monday()})}};
  negative.intervals[0].covers = -1;
  BOOST_TEST(!gridFromHistory(negative, monday(), monday() + std::chrono::days{1}).ok());
}

BOOST_AUTO_TEST_CASE(specialDaysRejectADayMarkedTwiceAndAWildMultiplier) {
  SpecialDay a{monday(), true, std::nullopt, 1.0, "holiday"};
  auto twice = SpecialDays::make({a, a});
  BOOST_TEST(twice.message() == "special day 2026-03-02: marked twice");
  SpecialDay wild{monday(), false, std::nullopt, -2, "fair"};
  BOOST_TEST((SpecialDays::make({wild}).kind() == ErrorKind::kInvalid));
  auto fine = SpecialDays::make({a});
  BOOST_REQUIRE(fine.ok());
  BOOST_TEST(fine->find(monday()) != nullptr);
  BOOST_TEST(fine->find(monday() + std::chrono::days{1}) == nullptr);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::forecast
