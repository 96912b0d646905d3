// Intraday proposals (domain/forecast/intraday_check.h) on a simulated clock over a real store: a
// site with three weeks of the same day (11:00-22:00, 4 tickets of 2 covers a quarter hour), then
// today's sales as the test writes them. A surge files one add proposal with its evidence; stale
// POS data files nothing; a deny holds the station back for the rest of the day; a slow spell
// files a cut with the Fair Workweek premium the labor change engine counts (Chicago).
#include <boost/test/unit_test.hpp>

#include "domain/forecast/intraday_check.h"
#include "tests/forecast/sales_site.h"
#include "tests/labor/change_test_site.h"

namespace atoms::forecast {
namespace {

using namespace std::chrono;
using labor::testing::at;
using labor::testing::ChangeTestSite;

constexpr local_days kToday{2026y / October / 20};  // a Tuesday, published two weeks before

struct IntradaySite : test::ForecastSite {
  IntradaySite() : ForecastSite("America/Chicago"), labor("America/Chicago", {"us-il-chicago"}) {
    for (local_days day = kToday - days(21); day < kToday; day += days(1)) {
      sell(day, 11 * 60, 22 * 60, 4);
    }
    labor.person("ana");
    labor.person("bo");
    labor.shift("s-ana", at(2026, 10, 20, 10), at(2026, 10, 20, 17), "ana", "floor");
    labor.shift("s-bo", at(2026, 10, 20, 11), at(2026, 10, 20, 16), "bo", "floor");
    labor.publish("v1", labor.instant(at(2026, 10, 1, 9)), {"s-ana", "s-bo"});

    settings.standards.push_back(
        LaborStandard{"floor", Measure::kCovers, {}, 16, 60, 1, 0, 11 * 60, 22 * 60});
    check.zone = &zone;
    check.settings = &settings;
    check.quoteRelease = [this](const LaborStandard& station, site::Instant instant) {
      return quoteEarlyRelease(labor.evaluator(), labor.model, zone, station.station,
                               station.minimumHeads, instant);
    };
    check.stationName = [](const std::string&) { return std::string("Floor"); };
    check.personName = [](const std::string& id) { return id == "ana" ? "Ana" : id; };
  }

  // `tickets` tickets of 2 covers and $25.00 in every quarter hour of [fromMinute, toMinute).
  void sell(local_days day, int fromMinute, int toMinute, int tickets) {
    for (int m = fromMinute; m < toMinute; m += 15) {
      addInterval("dining", DemandInterval{local_seconds(day) + minutes(m), 2500 * tickets, tickets,
                                           2 * tickets});
    }
    flush();
  }
  std::vector<IntradayProposal> runAt(int hour, int minute, bool fresh = true) {
    now = sys_seconds(zone.toUtc(local_seconds(kToday) + hours(hour) + minutes(minute)).value());
    auto filed = runIntradayCheck(*store, check, fresh, now);
    BOOST_TEST_REQUIRE(filed.ok(), filed.message());
    return *filed;
  }

  ChangeTestSite labor;
  SiteForecastSettings settings;
  IntradayCheck check;
};

BOOST_AUTO_TEST_SUITE(intraday)

BOOST_AUTO_TEST_CASE(aSurgeFilesOneAddProposalWithItsEvidence) {
  IntradaySite s;
  s.sell(kToday, 11 * 60, 12 * 60, 4);
  s.sell(kToday, 12 * 60, 13 * 60, 8);  // twice the usual over the last hour
  const auto filed = s.runAt(13, 5);
  BOOST_TEST_REQUIRE(filed.size() == 1u);
  const IntradayProposal& p = filed.front();
  BOOST_TEST(p.signal.station == "floor");
  BOOST_TEST(intradayKindName(p.signal.kind) == "add");
  BOOST_TEST(p.signal.actual == 64);
  BOOST_TEST(p.signal.forecast == 32);
  BOOST_TEST(p.signal.percentOff() == 100);
  BOOST_TEST(p.summary ==
             "Floor: covers 12:00-13:00 ran 100% above the forecast (64 covers against 32 "
             "covers). Add one person at Floor?");
  BOOST_TEST(s.entries("intraday.proposal") == 1u);
  // Still pending a quarter hour later: no second one.
  s.sell(kToday, 13 * 60, 13 * 60 + 15, 8);
  BOOST_TEST(s.runAt(13, 20).empty());
  BOOST_TEST(s.entries("intraday.proposal") == 1u);
}

BOOST_AUTO_TEST_CASE(stalePosDataFilesNothing) {
  IntradaySite s;
  s.sell(kToday, 12 * 60, 13 * 60, 8);
  BOOST_TEST(s.runAt(13, 5, /*fresh=*/false).empty());
  BOOST_TEST(s.entries("intraday.proposal") == 0u);
  auto day = proposalsOn(s.store->db(), kToday);
  BOOST_TEST_REQUIRE(day.ok(), day.message());
  BOOST_TEST(day->empty());
}

BOOST_AUTO_TEST_CASE(afterADenyTheStationIsNotAskedAgainThatDay) {
  IntradaySite s;
  s.sell(kToday, 12 * 60, 13 * 60, 8);
  const auto filed = s.runAt(13, 5);
  BOOST_TEST_REQUIRE(filed.size() == 1u);
  auto denied = decideProposal(*s.store, filed.front().id, false, "manager-1", "we manage", s.now);
  BOOST_TEST_REQUIRE(denied.ok(), denied.message());
  BOOST_TEST(proposalStateName(denied->state) == "denied");
  BOOST_TEST(s.entries("intraday.decided") == 1u);
  s.sell(kToday, 13 * 60, 15 * 60, 9);
  BOOST_TEST(s.runAt(14, 5).empty());
  BOOST_TEST(s.runAt(15, 5).empty());
  BOOST_TEST(s.entries("intraday.proposal") == 1u);
  // Deciding it again is refused and changes nothing.
  auto twice = decideProposal(*s.store, filed.front().id, true, "manager-1", "", s.now);
  BOOST_TEST(!twice.ok());
  BOOST_TEST(twice.message() ==
             "intraday proposal " + std::to_string(filed.front().id) + " is already denied");
  BOOST_TEST(s.entries("intraday.decided") == 1u);
}

BOOST_AUTO_TEST_CASE(aSlowSpellFilesACutWithTheChangeEnginesPremium) {
  IntradaySite s;
  s.sell(kToday, 11 * 60, 12 * 60, 4);
  s.sell(kToday, 12 * 60, 13 * 60, 1);  // a quarter of the usual
  const auto filed = s.runAt(13, 5);
  BOOST_TEST_REQUIRE(filed.size() == 1u);
  const IntradayProposal& p = filed.front();
  BOOST_TEST(intradayKindName(p.signal.kind) == "cut");
  BOOST_TEST(p.signal.actual == 8);
  BOOST_TEST(p.signal.forecast == 32);
  BOOST_TEST(p.shiftId == "s-ana");  // the one ending last
  BOOST_TEST(p.personId == "ana");
  // Ana's 13:30-17:00 cut with under 24 hours' notice: half her $20.00 rate for 3.5 hours
  // (CHI-FWW-PREDICTABILITY-PAY), exactly what the change engine counts for that cut.
  const labor::ChangeVerdict engine = s.labor.evaluate(
      labor::ScheduleChange{labor::CutShift{"s-ana", false, s.labor.stamp(at(2026, 10, 20, 10)),
                                            s.labor.stamp(at(2026, 10, 20, 13, 30))}},
      site::toInstant(s.now));
  BOOST_TEST(engine.premiumCents == 3500);
  BOOST_TEST(p.premiumCents == 3500);
  BOOST_TEST(p.summary ==
             "Floor: covers 12:00-13:00 ran 75% below the forecast (8 covers against 32 covers). "
             "Offer Ana to finish at 13:30 instead of 17:00? Fair Workweek premium for the cut: "
             "$35.00.");
}

BOOST_AUTO_TEST_CASE(aSlowSpellWithOnlyTheMinimumCrewOnShiftFilesNothing) {
  IntradaySite s;
  s.settings.standards.front().minimumHeads = 2;  // both are needed whatever the sales
  s.sell(kToday, 12 * 60, 13 * 60, 1);
  BOOST_TEST(s.runAt(13, 5).empty());
}

BOOST_AUTO_TEST_CASE(salesCloseToTheForecastFileNothing) {
  IntradaySite s;
  s.sell(kToday, 12 * 60, 13 * 60, 5);  // 25% above, but only 8 covers over the hour
  s.settings.intraday.minimumGapCount = 10;
  BOOST_TEST(s.runAt(13, 5).empty());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::forecast
