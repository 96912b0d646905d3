#include <boost/test/unit_test.hpp>

#include "domain/forecast/shift_blocks.h"
#include "domain/forecast/staffing.h"
#include "domain/forecast/synthetic_demand.h"
#include "tests/forecast/forecast_test_util.h"

namespace atoms::forecast {
namespace {

using std::chrono::days;
using test::monday;

// A forecast of one or more days where every interval has `covers` covers and `transactions`
// transactions between `fromSlot` and `toSlot`, nothing elsewhere.
RevenueCenterForecast flatForecast(const std::string& center, double covers, double transactions,
                                   int fromSlot, int toSlot, int dayCount = 1) {
  RevenueCenterForecast forecast;
  forecast.revenueCenter = center;
  for (int d = 0; d < dayCount; ++d) {
    DayForecast day;
    day.day = monday() + days{d};
    day.open = true;
    day.intervals.resize(kIntervalsPerDay);
    for (int s = fromSlot; s < toSlot; ++s) {
      auto& parts = day.intervals[static_cast<std::size_t>(s)].parts;
      for (auto& p : parts) {
        p.base = 1;
        p.dayOfWeek = 1;
      }
      parts[static_cast<int>(Measure::kCovers)].timeOfDay = covers;
      parts[static_cast<int>(Measure::kTransactions)].timeOfDay = transactions;
    }
    forecast.days.push_back(std::move(day));
  }
  return forecast;
}

LaborStandard servers() {
  LaborStandard standard;
  standard.station = "server";
  standard.driver = Measure::kCovers;
  standard.unitsPerHead = 16;  // covers per server per hour
  standard.periodMinutes = 60;
  standard.minimumHeads = 1;
  standard.opensMinute = 11 * 60;
  standard.closesMinute = 22 * 60;
  standard.roundUpFrom = 0.1;
  return standard;
}

std::vector<StationDay> mustStaff(const std::vector<RevenueCenterForecast>& forecasts,
                                  const std::vector<LaborStandard>& standards) {
  auto staffed = requiredHeads(forecasts, standards);
  BOOST_REQUIRE_MESSAGE(staffed.ok(), staffed.message());
  return std::move(*staffed);
}

BOOST_AUTO_TEST_SUITE(staffing)

BOOST_AUTO_TEST_CASE(roundsAFractionOfAHeadUpOnlyAboveTheThreshold) {
  BOOST_TEST(roundHeads(0, 0.1) == 0);
  BOOST_TEST(roundHeads(0.05, 0.1) == 0);
  BOOST_TEST(roundHeads(0.5, 0.1) == 1);
  BOOST_TEST(roundHeads(2.0, 0.1) == 2);
  BOOST_TEST(roundHeads(2.1, 0.1) == 2);
  BOOST_TEST(roundHeads(2.11, 0.1) == 3);
  BOOST_TEST(roundHeads(2.0000000001, 0) == 2);  // not a head for float dust
  BOOST_TEST(roundHeads(2.01, 0) == 3);
}

BOOST_AUTO_TEST_CASE(turnsCoversIntoServersWithAMinimumCrewWhileOpen) {
  // 12 covers a quarter hour = 48 an hour = 3 servers at 16; 13 = 3.25 servers = 4.
  RevenueCenterForecast forecast = flatForecast("dining room", 12, 0, 48, 52);
  forecast.days[0].intervals[52].parts[static_cast<int>(Measure::kCovers)] =
      IntervalParts{1, 1, 13, 1, 1};
  const auto staffed = mustStaff({forecast}, {servers()});
  BOOST_REQUIRE_EQUAL(staffed.size(), 1u);
  const StationDay& day = staffed[0];
  BOOST_TEST(day.station == "server");
  BOOST_TEST(day.load[48] == 3.0);
  BOOST_TEST(day.heads[48] == 3);
  BOOST_TEST(day.heads[52] == 4);
  BOOST_TEST(day.heads[44] == 1);  // 11:00, open, quiet: the minimum crew
  BOOST_TEST(day.heads[87] == 1);  // 21:45
  BOOST_TEST(day.heads[88] == 0);  // 22:00, closed
  BOOST_TEST(day.heads[43] == 0);
}

BOOST_AUTO_TEST_CASE(setupClosingAndTheMostHeads) {
  LaborStandard standard = servers();
  standard.setupMinutes = 30;
  standard.setupHeads = 2;
  standard.closingMinutes = 45;
  standard.closingHeads = 1;
  standard.maximumHeads = 3;
  const auto staffed = mustStaff({flatForecast("dining room", 40, 0, 76, 80)}, {standard});
  const StationDay& day = staffed[0];
  BOOST_TEST(day.heads[41] == 0);
  BOOST_TEST(day.heads[42] == 2);  // 10:30 setup
  BOOST_TEST(day.heads[43] == 2);
  BOOST_TEST(day.heads[76] == 3);  // 10 servers' worth, capped at 3
  BOOST_TEST(day.heads[90] == 1);  // 22:30 closing
  BOOST_TEST(day.heads[91] == 0);
}

BOOST_AUTO_TEST_CASE(transactionsPerCashierPerQuarterHourAddUpCenters) {
  LaborStandard cashier;
  cashier.station = "cashier";
  cashier.driver = Measure::kTransactions;
  cashier.unitsPerHead = 10;
  cashier.periodMinutes = 15;
  cashier.revenueCenters = {"counter", "drive-through"};
  const auto staffed =
      mustStaff({flatForecast("counter", 0, 12, 32, 33),
                 flatForecast("drive-through", 0, 8, 32, 33), flatForecast("patio", 0, 50, 32, 33)},
                {cashier});
  BOOST_TEST(staffed[0].load[32] == 2.0);  // 20 transactions, the patio does not count
  BOOST_TEST(staffed[0].heads[32] == 2);
}

BOOST_AUTO_TEST_CASE(aClosedDayNeedsNobodyNotEvenTheMinimumCrew) {
  RevenueCenterForecast forecast = flatForecast("dining room", 5, 0, 44, 88, 2);
  forecast.days[1].open = false;
  for (auto& interval : forecast.days[1].intervals) {
    for (auto& p : interval.parts) p.special = 0;
  }
  const auto staffed = mustStaff({forecast}, {servers()});
  BOOST_REQUIRE_EQUAL(staffed.size(), 2u);
  BOOST_TEST(staffed[0].heads[44] == 2);  // 5 covers = 20 an hour = 1.25 servers
  for (int heads : staffed[1].heads) BOOST_TEST(heads == 0);
}

BOOST_AUTO_TEST_CASE(badStandardsAreRefusedNamingTheStation) {
  LaborStandard standard = servers();
  standard.periodMinutes = 20;
  auto refused = requiredHeads({flatForecast("dining room", 1, 0, 44, 48)}, {standard});
  BOOST_TEST(refused.message() ==
             "labor standard \"server\": the period must be 15, 30, 45 or 60 minutes");
  standard = servers();
  standard.revenueCenters = {"terrace"};
  refused = requiredHeads({flatForecast("dining room", 1, 0, 44, 48)}, {standard});
  BOOST_TEST(refused.message() ==
             "labor standard \"server\": no forecast for revenue center \"terrace\"");
  standard = servers();
  standard.opensMinute = 22 * 60;
  BOOST_TEST((requiredHeads({flatForecast("dining room", 1, 0, 44, 48)}, {standard}).kind() ==
              ErrorKind::kInvalid));
}

BOOST_AUTO_TEST_CASE(shiftBlocksCoverEveryIntervalWithinShiftLengths) {
  StationDay day;
  day.station = "server";
  day.day = monday();
  for (int s = 44; s < 88; ++s) day.heads[static_cast<std::size_t>(s)] = 1;  // 11:00-22:00
  for (int s = 48; s < 54; ++s) day.heads[static_cast<std::size_t>(s)] = 2;  // lunch 12:00-13:30
  for (int s = 72; s < 84; ++s) day.heads[static_cast<std::size_t>(s)] = 3;  // dinner 18:00-21:00
  auto blocks = shiftBlocks(day, BlockRules{3 * 60, 8 * 60});
  BOOST_REQUIRE_MESSAGE(blocks.ok(), blocks.message());
  std::array<int, kIntervalsPerDay> covered{};
  for (const ShiftBlock& block : *blocks) {
    const int length = block.endMinute - block.startMinute;
    BOOST_TEST(length >= 3 * 60);
    BOOST_TEST(length <= 8 * 60);
    for (int m = block.startMinute; m < block.endMinute; m += 15) ++covered[m / 15];
  }
  for (int s = 0; s < kIntervalsPerDay; ++s) {
    BOOST_TEST(covered[static_cast<std::size_t>(s)] >= day.heads[static_cast<std::size_t>(s)]);
  }
  // 11 hours at level 1: two blocks of 5.5 h; lunch stretched to 3 h; dinner 3 h twice.
  BOOST_TEST(blocks->size() == 5u);
  BOOST_TEST((*blocks)[0].startMinute == 11 * 60);
  BOOST_TEST((*blocks)[0].endMinute == 16 * 60 + 30);
  BOOST_TEST((*blocks)[2].startMinute == 12 * 60);
  BOOST_TEST((*blocks)[2].endMinute == 15 * 60);
}

BOOST_AUTO_TEST_CASE(aShortRunAtTheEndOfTheDayStretchesEarlier) {
  StationDay day;
  day.station = "closer";
  day.day = monday();
  day.heads[94] = 1;  // 23:30
  day.heads[95] = 1;
  auto blocks = shiftBlocks(day, BlockRules{4 * 60, 8 * 60});
  BOOST_REQUIRE(blocks.ok());
  BOOST_REQUIRE_EQUAL(blocks->size(), 1u);
  BOOST_TEST((*blocks)[0].startMinute == 20 * 60);
  BOOST_TEST((*blocks)[0].endMinute == 24 * 60);
  BOOST_TEST((shiftBlocks(day, BlockRules{8 * 60, 4 * 60}).kind() == ErrorKind::kInvalid));
}

BOOST_AUTO_TEST_CASE(staffsTheWeekOfASyntheticSiteFromItsForecast) {
  // History to forecast to heads to blocks: eight weeks of the casual dining profile, servers at
  // 16 covers an hour with one always on while open.
  const SyntheticHistory synthetic =
      generateHistory(standardSiteProfiles()[0], monday() - days{56}, 56, 11);
  auto marks = SpecialDays::make(synthetic.specials);
  BOOST_REQUIRE(marks.ok());
  auto forecast = forecastDemand(synthetic.history, *marks, monday());
  BOOST_REQUIRE_MESSAGE(forecast.ok(), forecast.message());
  const auto staffed = mustStaff({*forecast}, {servers()});
  BOOST_REQUIRE_EQUAL(staffed.size(), 14u);
  const StationDay& tuesday = staffed[1];
  const StationDay& saturday = staffed[5];
  BOOST_TEST(saturday.heads[76] > tuesday.heads[76]);  // Saturday dinner needs more than Tuesday's
  BOOST_TEST(tuesday.heads[62] >= 1);                  // 15:30, quiet: the minimum crew
  BOOST_TEST(saturday.heads[40] == 0);                 // 10:00, before opening
  auto blocks = shiftBlocks(saturday, BlockRules{3 * 60, 8 * 60});
  BOOST_REQUIRE(blocks.ok());
  int headQuarters = 0;
  int blockQuarters = 0;
  for (int heads : saturday.heads) headQuarters += heads;
  for (const ShiftBlock& block : *blocks)
    blockQuarters += (block.endMinute - block.startMinute) / 15;
  BOOST_TEST(blockQuarters >= headQuarters);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::forecast
