#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <string>

#include "tests/labor/engine_test_site.h"
#include "tests/support/text_checks.h"

// Meal and rest periods of Washington (WAC 296-126-092), Oregon (OAR 839-020-0050) and Illinois
// (820 ILCS 140/3), against the shipped tables. None of them has a pay remedy like California's
// 226.7(c): a missed break is a fail that owes no premium; on a schedule, what is due is what the
// manager plans. Wednesday 2026-10-07; pay $20.00/h.

namespace atoms::labor::testing {

namespace {

using atoms::testing::contains;
using site::PunchKind;

// One shift of `person` on 2026-10-07 from start to end, evaluated under `jurisdiction`.
Verdict evaluateDay(const std::string& zone, const std::string& jurisdiction, LocalTime start,
                    LocalTime end) {
  TestSite s(zone, jurisdiction);
  s.person("ari");
  s.shift("s", start, end);
  return s.evaluate("ari", "s");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(state_meal_and_rest_periods)

// WA-MEAL-1, WAC 296-126-092(1), (2): a meal period of 30 minutes for work of more than five
// hours, "no less than two hours nor more than five hours from the beginning of the shift".
BOOST_AUTO_TEST_CASE(washington_meal_period_window) {
  struct Case {
    const char* name;
    int endHour, endMinute;
    const char* text;
    bool toPlan;
  };
  const Case cases[] = {
      {"5 h: none", 14, 0, "no meal period due for 5 h of work", false},
      {"5 h 1 min: due", 14, 1,
       "a 30 min meal period is due after the end of the 2nd hour and before the end of the 5th "
       "hour of work (between 11:00 and 14:00)",
       true},
  };
  for (const Case& c : cases) {
    const Verdict v = evaluateDay("America/Los_Angeles", "us-wa", at(2026, 10, 7, 9),
                                  at(2026, 10, 7, c.endHour, c.endMinute));
    const RuleEvaluation& meal = finding(v, "WA-MEAL-1");
    BOOST_TEST((meal.result == EvalResult::kPass), c.name);
    BOOST_TEST(contains(meal.detail, c.text), c.name << ": " << meal.detail);
    BOOST_TEST(meal.toPlan == c.toPlan, c.name);
    BOOST_TEST((v.kind == VerdictKind::kAllowed), c.name);
  }
}

// From punches: a meal started before the end of the 2nd hour (WAC 296-126-092(1) "no less than
// two hours") or after the 5th is a fail, and owes nothing (the rule has no pay remedy).
BOOST_AUTO_TEST_CASE(washington_meal_period_from_punches) {
  struct Case {
    const char* name;
    int breakHour, breakMinute;
    EvalResult result;
    const char* outcome;
  };
  const Case cases[] = {
      {"at 2 h", 11, 0, EvalResult::kPass, ""},
      {"before 2 h", 10, 59, EvalResult::kFail, "early"},
      {"at 5 h", 14, 0, EvalResult::kPass, ""},
      {"after 5 h", 14, 1, EvalResult::kFail, "late"},
  };
  for (const Case& c : cases) {
    TestSite s("America/Los_Angeles", "us-wa");
    s.person("bea");
    s.shift("s", at(2026, 10, 7, 9), at(2026, 10, 7, 17), "bea");
    s.punch("bea", PunchKind::kClockIn, at(2026, 10, 7, 9));
    s.punch("bea", PunchKind::kBreakStart, at(2026, 10, 7, c.breakHour, c.breakMinute));
    s.punch("bea", PunchKind::kBreakEnd, at(2026, 10, 7, c.breakHour, c.breakMinute + 30));
    s.punch("bea", PunchKind::kClockOut, at(2026, 10, 7, 17));
    const Verdict v = s.evaluate("bea", "s");
    const RuleEvaluation& meal = finding(v, "WA-MEAL-1");
    BOOST_TEST((meal.result == c.result), c.name << ": " << meal.detail);
    if (c.result == EvalResult::kFail) BOOST_TEST(textInput(meal, "outcome") == c.outcome);
    BOOST_TEST(meal.premiumCents == 0, c.name);
    BOOST_TEST(v.premiumCents == 0, c.name);
  }
}

// Oregon, OAR 839-020-0050(2)(a), (c), (d): no meal period for a work period under six hours; from
// six to seven hours it falls after the 2nd hour and is over before the 5th begins; over seven
// hours, after the 3rd and over before the 6th. The rule for the other length of day is n/a.
BOOST_AUTO_TEST_CASE(oregon_meal_window_depends_on_the_length_of_the_day) {
  struct Case {
    const char* name;
    int endHour, endMinute;
    const char* upTo7Text;  // "" when n/a
    const char* over7Text;  // "" when n/a
  };
  const Case cases[] = {
      {"5 h 59 min", 14, 59, "no meal period due", ""},
      {"6 h", 15, 0,
       "after the end of the 2nd hour and before the end of the 4th hour of work (between 11:00 "
       "and 13:00)",
       ""},
      {"7 h", 16, 0, "(between 11:00 and 13:00)", ""},
      {"7 h 1 min", 16, 1, "",
       "after the end of the 3rd hour and before the end of the 5th hour of work (between 12:00 "
       "and 14:00)"},
  };
  for (const Case& c : cases) {
    const Verdict v = evaluateDay("America/Los_Angeles", "us-or", at(2026, 10, 7, 9),
                                  at(2026, 10, 7, c.endHour, c.endMinute));
    const RuleEvaluation& upTo7 = finding(v, "OR-MEAL-UP-TO-7H");
    const RuleEvaluation& over7 = finding(v, "OR-MEAL-OVER-7H");
    const bool shortDay = *c.upTo7Text != '\0';
    BOOST_TEST((upTo7.result == (shortDay ? EvalResult::kPass : EvalResult::kNotApplicable)),
               c.name << ": " << upTo7.detail);
    BOOST_TEST((over7.result == (shortDay ? EvalResult::kNotApplicable : EvalResult::kPass)),
               c.name << ": " << over7.detail);
    const RuleEvaluation& judged = shortDay ? upTo7 : over7;
    BOOST_TEST(contains(judged.detail, shortDay ? c.upTo7Text : c.over7Text),
               c.name << ": " << judged.detail);
  }
}

// Rest periods counted as each text counts them. WA-REST, WAC 296-126-092(4): ten minutes "for
// each four hours of working time" (whole periods) and "No employee shall be required to work
// more than three hours without a rest period": 3 h none, 3 h 1 min one, 7 h 59 min one, 8 h two.
// OR-REST, OAR 839-020-0050: ten minutes "for every segment of four hours or major part thereof
// (two hours and one minute through four hours)": 2 h none, 2 h 1 min one, 6 h one, 6 h 1 min two.
BOOST_AUTO_TEST_CASE(rest_periods_as_each_state_counts_them) {
  struct Case {
    const char* jurisdiction;
    const char* ruleId;
    int endHour, endMinute;
    std::int64_t due;
  };
  const Case cases[] = {
      {"us-wa", "WA-REST", 12, 0, 0},  {"us-wa", "WA-REST", 12, 1, 1},
      {"us-wa", "WA-REST", 16, 59, 1}, {"us-wa", "WA-REST", 17, 0, 2},
      {"us-or", "OR-REST", 11, 0, 0},  {"us-or", "OR-REST", 11, 1, 1},
      {"us-or", "OR-REST", 15, 0, 1},  {"us-or", "OR-REST", 15, 1, 2},
  };
  for (const Case& c : cases) {
    const Verdict v = evaluateDay("America/Los_Angeles", c.jurisdiction, at(2026, 10, 7, 9),
                                  at(2026, 10, 7, c.endHour, c.endMinute));
    const RuleEvaluation& rest = finding(v, c.ruleId);
    BOOST_TEST(intInput(rest, "due") == c.due,
               c.ruleId << " to " << c.endHour << ":" << c.endMinute);
    // Washington's three-hour stretch is named where a rest is due; Oregon has none.
    const bool stretch = std::string(c.ruleId) == "WA-REST" && c.due > 0;
    BOOST_TEST(contains(rest.detail, "no more than 3 h of work without one") == stretch,
               rest.detail);
  }
}

// IL-MEAL, 820 ILCS 140/3: "employees who are to work for 7 1/2 continuous hours" get 20 minutes
// "beginning no later than 5 hours after the start of the work period": 7 h 29 min none, 7 h 30
// min due (at least, not more than).
BOOST_AUTO_TEST_CASE(illinois_meal_period_from_seven_and_a_half_hours) {
  struct Case {
    int endHour, endMinute;
    const char* text;
  };
  for (const Case c : {Case{16, 29, "no meal period due for 7 h 29 min of work"},
                       Case{16, 30,
                            "a 20 min meal period is due before the end of the 5th hour of "
                            "work (by 14:00)"}}) {
    const Verdict v = evaluateDay("America/Chicago", "us-il", at(2026, 10, 7, 9),
                                  at(2026, 10, 7, c.endHour, c.endMinute));
    const RuleEvaluation& meal = finding(v, "IL-MEAL");
    BOOST_TEST(contains(meal.detail, c.text), meal.detail);
    BOOST_TEST(meal.effect == VerdictKind::kAllowed);
  }
  // Illinois has no rest-period law: no rest rule is evaluated.
  const Verdict v =
      evaluateDay("America/Chicago", "us-il", at(2026, 10, 7, 9), at(2026, 10, 7, 17));
  for (const RuleEvaluation& e : v.evaluations) BOOST_TEST(!contains(e.ruleId, "REST"), e.ruleId);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::labor::testing
