// Labor against sales (domain/pos/labor_vs_sales.h, work_spans.h, sales_expectation.h): exact
// cents and minutes per interval and per day, labor % none without sales, a punch across
// midnight, an open punch counted up to now, the engine's premiums, DST days of 23 and 25 hours,
// the projection from the weekday average, and a week of days.
#include <boost/test/unit_test.hpp>

#include "domain/pos/labor_vs_sales.h"
#include "domain/pos/sales_expectation.h"
#include "domain/pos/work_spans.h"
#include "tests/labor/engine_test_site.h"

namespace atoms::pos {
namespace {

using namespace std::chrono;
using labor::testing::at;
using site::PunchKind;

LocalDay localDay(int y, unsigned m, unsigned d) { return local_days{year{y} / month{m} / day{d}}; }

struct LaborSite : labor::testing::TestSite {
  LaborSite() : TestSite("America/Los_Angeles", "us-ca") {}

  site::Instant utc(site::LocalTime local) const { return stamp(local).utc; }

  // The input for `day` (and the day before and after) at `now`, with the sales given.
  LaborVsSalesInput input(LocalDay day, site::Instant now, std::vector<SalesInterval> sales = {},
                          std::vector<ExpectedSales> expected = {}) const {
    auto ctx = labor::LaborContext::build(model, *rules);
    BOOST_TEST_REQUIRE(ctx.ok(), ctx.message());
    const site::Instant from = utc(site::LocalTime(day - days(1)));
    const site::Instant to = utc(site::LocalTime(day + days(2)));
    auto scheduled = scheduledSpans(*ctx, from, to);
    BOOST_TEST_REQUIRE(scheduled.ok(), scheduled.message());
    LaborVsSalesInput in;
    in.scheduled = *scheduled;
    in.actual = actualSpans(model, in.scheduled, from, to, now);
    in.sales = std::move(sales);
    in.expected = std::move(expected);
    in.expectationSource = "weekday_average_4w";
    return in;
  }

  DayFigures dayFigures(const LaborVsSalesInput& in, LocalDay day, site::Instant now) const {
    auto figures = laborVsSalesDay(in, *tz, day, now);
    BOOST_TEST_REQUIRE(figures.ok(), figures.message());
    return *figures;
  }

  SalesInterval sale(site::LocalTime local, std::int64_t cents) const {
    return SalesInterval{utc(local), "main", cents, 1, 1};
  }
};

const IntervalFigures& intervalAt(const DayFigures& d, site::LocalTime local) {
  for (const IntervalFigures& i : d.intervals) {
    if (i.localStart == local) return i;
  }
  BOOST_FAIL("no interval at " << site::formatLocal(local));
  return d.intervals.front();
}

BOOST_AUTO_TEST_SUITE(labor_vs_sales)

BOOST_AUTO_TEST_CASE(spanSharesAddUpToTheSpanExactly) {
  const site::Instant start = sys_days(2026y / 12 / 1) + 17h + 7min + 13s;
  const WorkSpan span{"ana", start, start + 7h + 11min + 5s, 1733, 1001};
  std::int64_t minutes = 0, cents = 0;
  for (site::Instant t = sys_days(2026y / 12 / 1) + 17h; t < span.end; t += kIntervalLength) {
    const LaborFigures share = spanShare(span, t, t + kIntervalLength);
    minutes += share.minutes;
    cents += share.costCents;
  }
  BOOST_TEST(minutes == 431);  // 7 h 11 min 5 s, whole minutes
  // 25865 s at $17.33/h = 12451.12 -> 12451, plus the premium 1001.
  BOOST_TEST(cents == 12451 + 1001);
}

BOOST_AUTO_TEST_CASE(laborPercentIsNoneWithoutSales) {
  LaborSite s;
  s.person("ana", 2000);
  s.shift("s1", at(2026, 12, 1, 6), at(2026, 12, 1, 10), "ana");
  s.punch("ana", PunchKind::kClockIn, at(2026, 12, 1, 6));
  const site::Instant now = s.utc(at(2026, 12, 1, 7));
  const DayFigures d =
      s.dayFigures(s.input(localDay(2026, 12, 1), now), localDay(2026, 12, 1), now);
  BOOST_TEST(d.soFar.laborMinutes == 60);
  BOOST_TEST(d.soFar.laborCents == 2000);
  BOOST_TEST(d.soFar.salesCents == 0);
  BOOST_TEST(!d.soFar.laborBasisPoints().has_value());
  BOOST_TEST(!d.projected.laborBasisPoints().has_value());
  BOOST_TEST(d.soFar.salesPerLaborHourCents().value_or(-1) == 0);
  BOOST_TEST(!LaborSalesTotals{}.salesPerLaborHourCents().has_value());
}

BOOST_AUTO_TEST_CASE(aPunchAcrossMidnightCountsOnBothDays) {
  LaborSite s;
  s.person("ana", 1800);
  s.punch("ana", PunchKind::kClockIn, at(2026, 12, 1, 22));
  s.punch("ana", PunchKind::kClockOut, at(2026, 12, 2, 2));
  const site::Instant now = s.utc(at(2026, 12, 3, 0));
  const auto in = s.input(localDay(2026, 12, 1), now);
  const DayFigures first = s.dayFigures(in, localDay(2026, 12, 1), now);
  const DayFigures second = s.dayFigures(in, localDay(2026, 12, 2), now);
  BOOST_TEST(first.soFar.laborMinutes == 120);
  BOOST_TEST(first.soFar.laborCents == 3600);
  BOOST_TEST(second.soFar.laborMinutes == 120);
  BOOST_TEST(second.soFar.laborCents == 3600);
  const IntervalFigures& last = intervalAt(first, at(2026, 12, 1, 23, 45));
  BOOST_TEST(last.actual.heads == 1);
  BOOST_TEST(last.actual.minutes == 15);
  BOOST_TEST(last.actual.costCents == 450);
  BOOST_TEST(intervalAt(second, at(2026, 12, 2, 2)).actual.minutes == 0);
}

BOOST_AUTO_TEST_CASE(anOpenPunchCountsUpToNowAndTheScheduleProjectsTheRest) {
  LaborSite s;
  s.person("ana", 2000);
  s.shift("s1", at(2026, 12, 1, 9), at(2026, 12, 1, 17), "ana");
  s.punch("ana", PunchKind::kClockIn, at(2026, 12, 1, 9));
  s.punch("ana", PunchKind::kBreakStart, at(2026, 12, 1, 12));
  s.punch("ana", PunchKind::kBreakEnd, at(2026, 12, 1, 12, 30));
  const site::Instant now = s.utc(at(2026, 12, 1, 13, 10));
  const auto in =
      s.input(localDay(2026, 12, 1), now, {s.sale(at(2026, 12, 1, 12), 50000)},
              {{s.utc(at(2026, 12, 1, 13)), 25000}, {s.utc(at(2026, 12, 1, 13, 15)), 5001}});
  BOOST_TEST_REQUIRE(in.scheduled.size() == 1u);
  BOOST_TEST(in.scheduled[0].extraCents == 0);
  const DayFigures d = s.dayFigures(in, localDay(2026, 12, 1), now);
  BOOST_TEST(d.scheduled.minutes == 480);
  BOOST_TEST(d.scheduled.costCents == 16000);
  BOOST_TEST(d.soFar.laborMinutes == 220);  // 9:00-12:00 and 12:30-13:10
  BOOST_TEST(d.soFar.laborCents == 6000 + 1333);
  BOOST_TEST(d.soFar.salesCents == 50000);
  BOOST_TEST(d.soFar.laborBasisPoints().value_or(-1) == 1467);  // 14.67 %
  BOOST_TEST(d.soFar.salesPerLaborHourCents().value_or(-1) == 13636);
  const IntervalFigures& current = intervalAt(d, at(2026, 12, 1, 13));
  BOOST_TEST(current.actual.minutes == 10);
  BOOST_TEST(current.scheduled.minutes == 15);
  BOOST_TEST(current.projectedMinutes == 15);
  BOOST_TEST(current.projectedSalesCents == 8333);  // 5 of its 15 minutes are left
  BOOST_TEST(intervalAt(d, at(2026, 12, 1, 12)).actual.minutes == 0);  // on the meal break
  BOOST_TEST(d.projected.laborMinutes == 220 + 230);
  BOOST_TEST(d.projected.laborCents == 7333 + (16000 - 8333));
  BOOST_TEST(d.projected.salesCents == 50000 + 8333 + 5001);
  BOOST_TEST(d.projected.laborBasisPoints().value_or(-1) == 2368);  // 15000/63334
  BOOST_TEST(d.expectationSource == "weekday_average_4w");
}

BOOST_AUTO_TEST_CASE(premiumsTheEngineComputesAreCosted) {
  LaborSite s;
  s.person("ana", 2000);
  // 10.5 hours in California: 2.5 hours of daily overtime at 1.5x, 0.5x of it extra.
  s.shift("s1", at(2026, 12, 2, 8), at(2026, 12, 2, 18, 30), "ana");
  const site::Instant now = s.utc(at(2026, 12, 2, 7));
  const auto in = s.input(localDay(2026, 12, 2), now);
  BOOST_TEST_REQUIRE(in.scheduled.size() == 1u);
  BOOST_TEST(in.scheduled[0].extraCents == 2500);
  const DayFigures d = s.dayFigures(in, localDay(2026, 12, 2), now);
  BOOST_TEST(d.scheduled.minutes == 630);
  BOOST_TEST(d.scheduled.costCents == 21000 + 2500);
  BOOST_TEST(d.projected.laborCents == 21000 + 2500);
  BOOST_TEST(d.soFar.laborCents == 0);
}

BOOST_AUTO_TEST_CASE(aPunchedStretchCarriesThePremiumOfTheShiftItWorks) {
  LaborSite s;
  s.person("ana", 2000);
  s.shift("s1", at(2026, 12, 2, 8), at(2026, 12, 2, 18, 30), "ana");
  s.punch("ana", PunchKind::kClockIn, at(2026, 12, 2, 8));
  s.punch("ana", PunchKind::kClockOut, at(2026, 12, 2, 18, 30));
  const site::Instant now = s.utc(at(2026, 12, 2, 20));
  const auto in = s.input(localDay(2026, 12, 2), now);
  BOOST_TEST_REQUIRE(in.actual.size() == 1u);
  const std::int64_t extra = in.scheduled.at(0).extraCents;
  // California: 2.5 h past 8 at half of $20, and, now that the punches show no meal break in
  // 10.5 hours, one hour's pay of meal-period premium.
  BOOST_TEST_REQUIRE(extra == 2500 + 2000);
  BOOST_TEST(in.actual[0].extraCents == extra);
  const DayFigures d = s.dayFigures(in, localDay(2026, 12, 2), now);
  BOOST_TEST(d.soFar.laborCents == 21000 + extra);
  BOOST_TEST(d.projected.laborCents == 21000 + extra);
}

BOOST_AUTO_TEST_CASE(dstDaysHave23And25Hours) {
  LaborSite s;
  s.person("ana", 2000);
  s.shift("spring", at(2026, 3, 8, 0), at(2026, 3, 8, 4), "ana");
  s.shift("fall", at(2026, 11, 1, 0), at(2026, 11, 1, 4), "ana");
  const site::Instant now = s.utc(at(2026, 11, 2, 0));
  const DayFigures spring =
      s.dayFigures(s.input(localDay(2026, 3, 8), now), localDay(2026, 3, 8), now);
  BOOST_TEST(spring.intervals.size() == 92u);
  BOOST_TEST(spring.scheduled.minutes == 180);  // 00:00 to 04:00 is three real hours
  BOOST_TEST(spring.scheduled.costCents == 6000);
  const DayFigures fall =
      s.dayFigures(s.input(localDay(2026, 11, 1), now), localDay(2026, 11, 1), now);
  BOOST_TEST(fall.intervals.size() == 100u);
  BOOST_TEST(fall.scheduled.minutes == 300);
  BOOST_TEST(fall.scheduled.costCents == 10000);
  // The repeated hour: two intervals at 01:00 local, an hour apart.
  BOOST_TEST((fall.intervals[4].localStart == fall.intervals[8].localStart));
}

BOOST_AUTO_TEST_CASE(aMidnightInAGapOrRepeatedStartsTheDayAtItsFirstInstant) {
  // Santiago jumps 00:00 -> 01:00 on 2026-09-06; Havana goes back 01:00 -> 00:00 on 2026-11-01.
  const auto santiago = site::TimeZone::locate("America/Santiago").value();
  const LocalDay jump = localDay(2026, 9, 6);
  auto short_ = laborVsSalesDay({}, santiago, jump, sys_days(2026y / 9 / 1));
  BOOST_TEST_REQUIRE(short_.ok(), short_.message());
  BOOST_TEST(short_->intervals.size() == 92u);
  BOOST_TEST((short_->intervals.front().start == sys_days(2026y / 9 / 6) + 4h));
  BOOST_TEST((short_->intervals.front().localStart == site::LocalTime(jump) + 1h));
  BOOST_TEST((dayBounds(santiago, jump - days(1)).second == dayBounds(santiago, jump).first));
  auto average = weekdayAverage({}, santiago, jump);
  BOOST_TEST_REQUIRE(average.ok(), average.message());

  const auto havana = site::TimeZone::locate("America/Havana").value();
  const LocalDay back = localDay(2026, 11, 1);
  auto long_ = laborVsSalesDay({}, havana, back, sys_days(2026y / 9 / 1));
  BOOST_TEST_REQUIRE(long_.ok(), long_.message());
  BOOST_TEST(long_->intervals.size() == 100u);
  BOOST_TEST((long_->intervals.front().start == sys_days(2026y / 11 / 1) + 4h));
  BOOST_TEST((long_->intervals[0].localStart == long_->intervals[4].localStart));
}

BOOST_AUTO_TEST_CASE(theWeekdayAverageCountsTheWeeksThatSold) {
  LaborSite s;
  const std::vector<SalesInterval> history = {
      s.sale(at(2026, 11, 24, 13), 30000),
      s.sale(at(2026, 11, 17, 13), 20000),
      s.sale(at(2026, 11, 24, 13, 15), 10001),
      s.sale(at(2026, 11, 25, 13), 99999),  // a Wednesday: not the same weekday
      s.sale(at(2026, 10, 27, 13), 77777),  // five weeks back: too old
  };
  auto expected = weekdayAverage(history, *s.tz, localDay(2026, 12, 1));
  BOOST_TEST_REQUIRE(expected.ok(), expected.message());
  const std::vector<ExpectedSales> want = {{s.utc(at(2026, 12, 1, 13)), 25000},
                                           {s.utc(at(2026, 12, 1, 13, 15)), 5001}};
  BOOST_TEST((*expected == want));
  auto none = weekdayAverage({}, *s.tz, localDay(2026, 12, 1));
  BOOST_TEST_REQUIRE(none.ok());
  BOOST_TEST(none->empty());
}

BOOST_AUTO_TEST_CASE(aWeekAddsUpItsDays) {
  LaborSite s;
  s.person("ana", 2000);
  s.shift("mon", at(2026, 11, 30, 9), at(2026, 11, 30, 13), "ana");
  s.shift("tue", at(2026, 12, 1, 9), at(2026, 12, 1, 13), "ana");
  s.punch("ana", PunchKind::kClockIn, at(2026, 11, 30, 9));
  s.punch("ana", PunchKind::kClockOut, at(2026, 11, 30, 13, 30));
  const site::Instant now = s.utc(at(2026, 12, 1, 8));
  LaborVsSalesInput in = s.input(localDay(2026, 11, 30), now, {s.sale(at(2026, 11, 30, 12), 36000)},
                                 {{s.utc(at(2026, 12, 1, 12)), 40000}});
  auto week = laborVsSalesWeek(in, *s.tz, localDay(2026, 11, 30), now);
  BOOST_TEST_REQUIRE(week.ok(), week.message());
  BOOST_TEST_REQUIRE(week->days.size() == 7u);
  BOOST_TEST(week->days[0].intervals.empty());
  BOOST_TEST(week->days[0].soFar.laborCents == 9000);
  BOOST_TEST(week->days[0].soFar.laborBasisPoints().value_or(-1) == 2500);
  BOOST_TEST(week->days[1].projected.laborCents == 8000);
  BOOST_TEST(week->days[1].projected.salesCents == 40000);
  BOOST_TEST(week->scheduled.minutes == 480);
  BOOST_TEST(week->soFar.laborCents == 9000);
  BOOST_TEST(week->projected.laborCents == 17000);
  BOOST_TEST(week->projected.salesCents == 76000);
  BOOST_TEST(week->projected.laborBasisPoints().value_or(-1) == 2237);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::pos
