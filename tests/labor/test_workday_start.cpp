#include <boost/test/unit_test.hpp>
#include <cstdint>

#include "tests/labor/engine_test_site.h"

// The workday boundary (the site file's workdayStart, SiteInfo::workdayStartMinute). California
// Labor Code 500(a): "'Workday' and 'day' mean any consecutive 24-hour period commencing at the
// same time each calendar day"; the employer picks the time. With workdays from midnight a closing
// shift is cut in two at midnight; from 04:00 it is one workday. Pay $20.00/h, us-ca, Friday
// 2026-10-09.

namespace atoms::labor::testing {

BOOST_AUTO_TEST_SUITE(workday_start)

// A 10 h closing shift, 18:00 to 04:00: from midnight it is 6 h on Friday and 4 h on Saturday (no
// daily overtime); from 04:00 it is one 10 h workday, 2 h over CA-OT-DAILY-8 (2 h x $30.00).
BOOST_AUTO_TEST_CASE(closing_shift_is_one_workday_from_the_configured_start) {
  struct Case {
    int startHour;
    std::int64_t dailyMinutes, dayMinutes;
  };
  for (const Case c : {Case{0, 0, 360}, Case{4, 120, 600}}) {
    TestSite s("America/Los_Angeles", "us-ca");
    s.person("ella");
    s.shift("close", at(2026, 10, 9, 18), at(2026, 10, 10, 4));
    s.model.site.workdayStartMinute = c.startHour * 60;
    const Verdict v = s.evaluate("ella", "close");
    const RuleEvaluation& daily = finding(v, "CA-OT-DAILY-8");
    BOOST_TEST(daily.premiumMinutes == c.dailyMinutes, "workdays from " << c.startHour);
    BOOST_TEST(daily.premiumCents == c.dailyMinutes / 60 * 3000);
    BOOST_TEST(intInput(daily, "dayMinutes") == c.dayMinutes);
  }
}

// The boundary splits what it crosses: from 04:00, a Saturday 02:00 to 06:00 shift is 2 h of
// Friday's workday and 2 h of Saturday's. With Friday's 18:00 to 02:00 closing shift (8 h) the
// 02:00 shift brings Friday's workday to 10 h: 2 h of daily overtime. From midnight, Friday has
// 6 h and Saturday 2 h + 4 h = 6 h: none.
BOOST_AUTO_TEST_CASE(boundary_splits_the_shift_it_crosses) {
  for (const int hour : {0, 4}) {
    TestSite s("America/Los_Angeles", "us-ca");
    s.person("finn");
    s.shift("close", at(2026, 10, 9, 18), at(2026, 10, 10, 2), "finn");
    s.shift("late", at(2026, 10, 10, 2), at(2026, 10, 10, 6));
    s.model.site.workdayStartMinute = hour * 60;
    const Verdict v = s.evaluate("finn", "late");
    BOOST_TEST(finding(v, "CA-OT-DAILY-8").premiumMinutes == (hour == 4 ? 120 : 0),
               "workdays from " << hour);
  }
}

// Meal periods are judged over the same workday: from 04:00, a 22:00 to 01:00 shift and a 01:30
// to 05:00 shift the next calendar day are one 6 h 30 min workday whose 30 min gap is the meal
// period CA-MEAL-1 asks for; from midnight the 01:30 shift is a workday of its own (3 h 30 min,
// no meal due).
BOOST_AUTO_TEST_CASE(meal_period_over_the_configured_workday) {
  for (const int hour : {0, 4}) {
    TestSite s("America/Los_Angeles", "us-ca");
    s.person("gus");
    s.shift("first", at(2026, 10, 9, 22), at(2026, 10, 10, 1), "gus");
    s.shift("second", at(2026, 10, 10, 1, 30), at(2026, 10, 10, 5));
    // The second shift's workday starts on Friday from 04:00, on Saturday from midnight.
    s.model.site.workdayStartMinute = hour * 60;
    const Verdict v = s.evaluate("gus", "second");
    const RuleEvaluation& meal = finding(v, "CA-MEAL-1");
    BOOST_TEST(intInput(meal, "workMinutes") == (hour == 4 ? 390 : 210), "from " << hour);
    BOOST_TEST(textInput(meal, "workday") == (hour == 4 ? "2026-10-09" : "2026-10-10"));
    if (hour == 4) BOOST_TEST(meal.detail.find("meal period at 01:00") != std::string::npos);
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::labor::testing
