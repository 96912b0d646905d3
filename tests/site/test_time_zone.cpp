#include <boost/test/unit_test.hpp>

#include "domain/site/time_zone.h"
#include "tests/site/site_test_util.h"

using namespace atoms::site;
using namespace std::chrono;

namespace {

using testing::utc;

LocalTime local(int y, unsigned mo, unsigned d, int h, int mi) {
  return local_days{year{y} / month{mo} / day{d}} + hours{h} + minutes{mi};
}
}  // namespace

BOOST_AUTO_TEST_SUITE(time_zone)

BOOST_AUTO_TEST_CASE(convertsBothWaysAroundTheYear) {
  auto la = TimeZone::locate("America/Los_Angeles");
  BOOST_REQUIRE_MESSAGE(la.ok(), la.message());
  BOOST_TEST((la->toUtc(local(2026, 1, 15, 9, 0)).value() == utc(2026, 1, 15, 17, 0)));
  BOOST_TEST((la->toUtc(local(2026, 7, 15, 9, 0)).value() == utc(2026, 7, 15, 16, 0)));
  BOOST_TEST((la->toLocal(utc(2026, 7, 15, 16, 0)) == local(2026, 7, 15, 9, 0)));
  BOOST_TEST((la->offsetAt(utc(2026, 1, 15, 0, 0)) == hours{-8}));
}

BOOST_AUTO_TEST_CASE(gapAndOverlapReportBothOffsets) {
  auto ny = TimeZone::locate("America/New_York").value();
  auto gap = ny.toUtc(local(2026, 3, 8, 2, 30));
  BOOST_REQUIRE(!gap.ok());
  BOOST_TEST(gap.message().find("does not exist") != std::string::npos, gap.message());
  BOOST_TEST(
      (ny.offsetsFor(local(2026, 3, 8, 2, 30)) == std::vector<Seconds>{hours{-5}, hours{-4}}));
  auto overlap = ny.toUtc(local(2026, 11, 1, 1, 30));
  BOOST_REQUIRE(!overlap.ok());
  BOOST_TEST(overlap.message().find("ambiguous") != std::string::npos, overlap.message());
  BOOST_TEST(
      (ny.offsetsFor(local(2026, 11, 1, 1, 30)) == std::vector<Seconds>{hours{-4}, hours{-5}}));
  // One minute either side of the gap is fine.
  BOOST_TEST((ny.toUtc(local(2026, 3, 8, 1, 59)).value() == utc(2026, 3, 8, 6, 59)));
  BOOST_TEST((ny.toUtc(local(2026, 3, 8, 3, 0)).value() == utc(2026, 3, 8, 7, 0)));
}

// Real midnight changes in this tzdata (zdump -v): Santiago jumps 00:00 -> 01:00 on 2026-09-06,
// Beirut on 2026-03-29; Havana goes back 01:00 -> 00:00 on 2026-11-01, so midnight happens twice.
BOOST_AUTO_TEST_CASE(aDayWhoseMidnightIsInAGapStartsWhenTheClocksJump) {
  const auto santiago = TimeZone::locate("America/Santiago").value();
  const local_days jump{2026y / September / 6};
  BOOST_TEST(!santiago.toUtc(LocalTime(jump)).ok());
  BOOST_TEST((santiago.startOfDay(jump) == utc(2026, 9, 6, 4, 0)));
  BOOST_TEST((santiago.toLocal(santiago.startOfDay(jump)) == local(2026, 9, 6, 1, 0)));
  // The day before ends there: 24 hours at -04:00; the day itself has 23.
  BOOST_TEST((santiago.startOfDay(jump) - santiago.startOfDay(jump - days(1)) == hours(24)));
  BOOST_TEST((santiago.startOfDay(jump + days(1)) - santiago.startOfDay(jump) == hours(23)));
  // Inside the gap, any wall-clock time gives the jump too.
  BOOST_TEST((santiago.firstInstantFrom(local(2026, 9, 6, 0, 30)) == utc(2026, 9, 6, 4, 0)));
  const auto beirut = TimeZone::locate("Asia/Beirut").value();
  BOOST_TEST((beirut.startOfDay(local_days{2026y / March / 29}) == utc(2026, 3, 28, 22, 0)));
}

BOOST_AUTO_TEST_CASE(aDayWhoseMidnightIsRepeatedStartsAtTheFirst) {
  const auto havana = TimeZone::locate("America/Havana").value();
  const local_days back{2026y / November / 1};
  BOOST_TEST(!havana.toUtc(LocalTime(back)).ok());
  BOOST_TEST((havana.startOfDay(back) == utc(2026, 11, 1, 4, 0)));  // 00:00 CDT, not 05:00Z CST
  BOOST_TEST((havana.startOfDay(back + days(1)) - havana.startOfDay(back) == hours(25)));
  BOOST_TEST((havana.firstInstantFrom(local(2026, 11, 1, 0, 30)) == utc(2026, 11, 1, 4, 30)));
  // An ordinary midnight is just midnight.
  BOOST_TEST((havana.startOfDay(local_days{2026y / December / 1}) == utc(2026, 12, 1, 5, 0)));
}

BOOST_AUTO_TEST_CASE(unknownZoneIsAnErrorValue) {
  auto z = TimeZone::locate("Mars/Olympus_Mons");
  BOOST_REQUIRE(!z.ok());
  BOOST_TEST(z.message() == "unknown time zone 'Mars/Olympus_Mons'");
}

BOOST_AUTO_TEST_CASE(formatsOffsetsAndLocalTimes) {
  BOOST_TEST(formatOffset(hours{-8}) == "-08:00");
  BOOST_TEST(formatOffset(hours{5} + minutes{30}) == "+05:30");
  BOOST_TEST(formatOffset(Seconds{0}) == "+00:00");
  BOOST_TEST(formatLocal(local(2026, 3, 8, 2, 30)) == "2026-03-08T02:30:00");
  // Every field zero-padded, the last second of a day, and years outside four digits.
  BOOST_TEST(formatLocal(local(999, 1, 2, 3, 4) + Seconds{5}) == "0999-01-02T03:04:05");
  BOOST_TEST(formatLocal(local(2026, 12, 31, 23, 59) + Seconds{59}) == "2026-12-31T23:59:59");
  BOOST_TEST(formatLocal(local(10000, 1, 1, 0, 0)) == "10000-01-01T00:00:00");
  BOOST_TEST(formatLocalDay(std::chrono::local_days{std::chrono::year{2026} / 2 / 3}) ==
             "2026-02-03");
}

BOOST_AUTO_TEST_SUITE_END()
