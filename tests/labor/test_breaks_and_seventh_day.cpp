#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/labor/engine_test_site.h"

// California's seventh day of work (Labor Code 510(a)) with daily and weekly overtime, and meal
// and rest periods (Labor Code 512(a), 226.7(c); IWC Wage Order 5 sections 11 and 12), against
// the shipped tables of us-ca (which compose us). Pay $20.00/h; a premium is the time's pay at
// its premium rate (docs/labor-rules.md, "Engine"): an hour at 1.5x is $30.00, an hour at 2x
// $40.00, the hour of pay owed for a missed break $20.00.

namespace atoms::labor::testing {

namespace {

using site::PunchKind;

bool mentions(const RuleEvaluation& e, const std::string& text) {
  return e.detail.find(text) != std::string::npos;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(seventh_day)

// CA-7TH-DAY-FIRST-8 and CA-7TH-DAY-OVER-8 (Labor Code 510(a)): Sunday 2026-10-04 .. Friday
// worked 8 h each; S on Saturday, the seventh day of work of the workweek. The federal figure
// (US-FLSA-OT-WEEKLY, 29 U.S.C. 207(a)(1)) is every hour over 40 at 1.5x; the verdict counts the
// costlier jurisdiction once.
BOOST_AUTO_TEST_CASE(seventh_day_pays_first_eight_hours_at_one_and_a_half_then_double) {
  struct Case {
    const char* name;
    int startHour, endHour;
    std::int64_t first8Minutes, over8Minutes, dailyMinutes, doubleMinutes;
    std::int64_t californiaCents, federalCents;
  };
  const Case cases[] = {
      // 8 h: all at 1.5x under both laws ($240 each).
      {"8 h", 9, 17, 480, 0, 0, 0, 24000, 24000},
      // 9 h: CA 8 h at 1.5x + 1 h at 2x ($280); federal 9 h at 1.5x ($270).
      {"9 h", 9, 18, 480, 60, 0, 0, 28000, 27000},
      // 13 h: over 12 h both double time and seventh-day pay are 2x: the hour is paid once, under
      // the seventh-day rule. CA 8 h x $30 + 5 h x $40 = $440; federal 13 h x $30 = $390.
      {"13 h", 6, 19, 480, 300, 0, 0, 44000, 39000},
  };
  for (const Case& c : cases) {
    TestSite s("America/Los_Angeles", "us-ca");
    s.person("ana");
    for (unsigned d = 4; d <= 9; ++d) {
      s.shift("d" + std::to_string(d), at(2026, 10, d, 9), at(2026, 10, d, 17), "ana");
    }
    s.shift("sat", at(2026, 10, 10, c.startHour), at(2026, 10, 10, c.endHour));
    const Verdict v = s.evaluate("ana", "sat");
    const RuleEvaluation& first8 = finding(v, "CA-7TH-DAY-FIRST-8");
    BOOST_TEST(first8.premiumMinutes == c.first8Minutes, c.name);
    BOOST_TEST(textInput(first8, "seventhDay") == "2026-10-10", c.name);
    BOOST_TEST(intInput(first8, "daysWorked") == 7, c.name);
    BOOST_TEST(finding(v, "CA-7TH-DAY-OVER-8").premiumMinutes == c.over8Minutes, c.name);
    BOOST_TEST(finding(v, "CA-OT-DAILY-8").premiumMinutes == c.dailyMinutes, c.name);
    BOOST_TEST(finding(v, "CA-DT-DAILY-12").premiumMinutes == c.doubleMinutes, c.name);
    // Saturday's hours were never straight time: CA's weekly count does not change.
    BOOST_TEST(finding(v, "CA-OT-WEEKLY-40").premiumMinutes == 0, c.name);
    std::int64_t california = 0;
    for (const char* id : {"CA-7TH-DAY-FIRST-8", "CA-7TH-DAY-OVER-8", "CA-OT-DAILY-8",
                           "CA-DT-DAILY-12", "CA-OT-WEEKLY-40"}) {
      california += finding(v, id).premiumCents;
    }
    BOOST_TEST(california == c.californiaCents, c.name);
    BOOST_TEST(finding(v, "US-FLSA-OT-WEEKLY").premiumCents == c.federalCents, c.name);
    BOOST_TEST(v.premiumCents == std::max(c.californiaCents, c.federalCents), c.name);
    BOOST_TEST((v.kind == VerdictKind::kAllowedWithPremium), c.name);
  }
}

// Seven days in a row across two workweeks (Wednesday 2026-10-07 .. Tuesday 10-13, weeks from
// Sunday) are not a seventh day in one workweek: no seventh-day pay. With workweeks that start on
// Wednesday, the same seven days are one workweek and Tuesday is the seventh day.
BOOST_AUTO_TEST_CASE(seven_days_across_two_workweeks_are_not_a_seventh_day) {
  struct Case {
    unsigned workweekStart;
    std::int64_t first8Minutes;
  };
  for (const Case c : {Case{0, 0}, Case{3, 480}}) {
    TestSite s("America/Los_Angeles", "us-ca");
    s.person("bo");
    for (unsigned d = 7; d <= 12; ++d) {
      s.shift("d" + std::to_string(d), at(2026, 10, d, 9), at(2026, 10, d, 17), "bo");
    }
    s.shift("tue", at(2026, 10, 13, 9), at(2026, 10, 13, 17));
    s.model.site.workweekStart = c.workweekStart;
    const Verdict v = s.evaluate("bo", "tue");
    const RuleEvaluation& first8 = finding(v, "CA-7TH-DAY-FIRST-8");
    BOOST_TEST(first8.premiumMinutes == c.first8Minutes);
    BOOST_TEST((first8.result ==
                (c.first8Minutes > 0 ? EvalResult::kThresholdExceeded : EvalResult::kPass)));
  }
}

// A short Tuesday shift that completes a seven-day workweek moves Saturday's hours between rules:
// Saturday (10 h) was 8 h straight + 2 h daily overtime and the week's straight time was 48 h
// (8 h weekly overtime). With Tuesday's 2 h, Saturday is the seventh day (8 h at 1.5x, 2 h at
// 2x) and the straight time is 42 h (2 h weekly overtime). Each rule reports its change; CA's
// sum, +$80.00, is costlier than the federal 2 more hours at 1.5x (+$60.00).
BOOST_AUTO_TEST_CASE(completing_a_seventh_day_moves_hours_between_rules) {
  TestSite s("America/Los_Angeles", "us-ca");
  s.person("cy");
  for (unsigned d : {4u, 5u, 7u, 8u, 9u}) {
    s.shift("d" + std::to_string(d), at(2026, 10, d, 9), at(2026, 10, d, 17), "cy");
  }
  s.shift("sat", at(2026, 10, 10, 8), at(2026, 10, 10, 18), "cy");
  s.shift("tue", at(2026, 10, 6, 9), at(2026, 10, 6, 11));
  const Verdict v = s.evaluate("cy", "tue");
  BOOST_TEST(finding(v, "CA-7TH-DAY-FIRST-8").premiumMinutes == 480);
  BOOST_TEST(finding(v, "CA-7TH-DAY-OVER-8").premiumMinutes == 120);
  BOOST_TEST(finding(v, "CA-OT-DAILY-8").premiumMinutes == -120);
  BOOST_TEST(finding(v, "CA-OT-WEEKLY-40").premiumMinutes == -360);
  BOOST_TEST(finding(v, "CA-OT-WEEKLY-40").premiumCents == -18000);
  BOOST_TEST(finding(v, "US-FLSA-OT-WEEKLY").premiumCents == 6000);
  BOOST_TEST(v.premiumCents == 24000 + 8000 - 6000 - 18000);
  BOOST_TEST((v.kind == VerdictKind::kAllowedWithPremium));
}

// CA-OT-WEEKLY-40 does not count hours already paid as daily overtime (no pyramiding): four 12 h
// days leave 32 h of straight time, so a Friday of 8 h adds no CA weekly overtime, and 9 h adds
// one hour of daily overtime only. US-FLSA-OT-WEEKLY counts every hour (48 h before Friday) and
// is the costlier figure the verdict keeps.
BOOST_AUTO_TEST_CASE(california_weekly_count_excludes_daily_overtime_hours) {
  struct Case {
    int fridayEnd;
    std::int64_t weeklyMinutes, dailyMinutes, federalMinutes;
  };
  for (const Case c : {Case{17, 0, 0, 480}, Case{18, 0, 60, 540}}) {
    TestSite s("America/Los_Angeles", "us-ca");
    s.person("di");
    for (unsigned d = 5; d <= 8; ++d) {
      s.shift("d" + std::to_string(d), at(2026, 10, d, 6), at(2026, 10, d, 18), "di");
    }
    s.shift("fri", at(2026, 10, 9, 9), at(2026, 10, 9, c.fridayEnd));
    const Verdict v = s.evaluate("di", "fri");
    const RuleEvaluation& weekly = finding(v, "CA-OT-WEEKLY-40");
    BOOST_TEST(weekly.premiumMinutes == c.weeklyMinutes);
    BOOST_TEST(intInput(weekly, "straightMinutes") == 40 * 60);  // 4 x 8 h + Friday's first 8 h
    BOOST_TEST(finding(v, "CA-OT-DAILY-8").premiumMinutes == c.dailyMinutes);
    BOOST_TEST(finding(v, "US-FLSA-OT-WEEKLY").premiumMinutes == c.federalMinutes);
    BOOST_TEST(v.premiumMinutes == c.federalMinutes);
    BOOST_TEST(v.premiumCents == c.federalMinutes * 3000 / 60);
  }
}

// Daily overtime on the DST nights of America/Los_Angeles counts real hours: 00:00-09:00 on
// 2026-11-01 (fall back) is 10 h (2 h over 8); on 2026-03-08 (spring forward) 00:00-09:00 is 8 h.
BOOST_AUTO_TEST_CASE(daily_overtime_on_dst_nights_counts_real_hours) {
  struct Case {
    unsigned month, day;
    std::int64_t dayMinutes, overtimeMinutes;
  };
  for (const Case c : {Case{11, 1, 600, 120}, Case{3, 8, 480, 0}}) {
    TestSite s("America/Los_Angeles", "us-ca");
    s.person("ed");
    s.shift("night", at(2026, c.month, c.day, 0), at(2026, c.month, c.day, 9));
    const Verdict verdict = s.evaluate("ed", "night");
    const RuleEvaluation& e = finding(verdict, "CA-OT-DAILY-8");
    BOOST_TEST(intInput(e, "dayMinutes") == c.dayMinutes);
    BOOST_TEST(e.premiumMinutes == c.overtimeMinutes);
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(meal_and_rest_periods)

// CA-MEAL-1, CA-MEAL-2, CA-REST-10-PER-4 on scheduled shifts (no punches): nothing is wrong with
// the shift (pass, allowed); each finding's sentence tells the manager what is due and by when.
BOOST_AUTO_TEST_CASE(scheduled_shift_reports_the_breaks_that_are_due) {
  struct Case {
    const char* name;
    int startHour, endHour, endMinute;
    const char* meal1Text;  // part of the meal-1 finding's sentence
    bool secondMealDue;
    std::int64_t restsDue;
  };
  const Case cases[] = {
      {"exactly 5 h", 9, 14, 0, "no meal period due for 5 h of work", false, 1},
      {"5 h 1 min: waivable", 9, 14, 1, "may be waived by mutual consent", false, 1},
      {"8 h", 9, 17, 0,
       "a 30 min meal period is due before the end of the 5th hour of work (by 14:00)", false, 2},
      {"11 h: second meal", 8, 19, 0, "(by 13:00)", true, 3},
      {"3 h 29 min: no rest period", 9, 12, 29, "no meal period due", false, 0},
      {"6 h: one rest period", 9, 15, 0, "(by 14:00); it may be waived", false, 1},
      {"6 h 1 min: two", 9, 15, 1, "(by 14:00)", false, 2},
  };
  for (const Case& c : cases) {
    TestSite s("America/Los_Angeles", "us-ca");
    s.person("fay");
    s.shift("s", at(2026, 10, 7, c.startHour), at(2026, 10, 7, c.endHour, c.endMinute));
    const Verdict v = s.evaluate("fay", "s");
    const RuleEvaluation& meal1 = finding(v, "CA-MEAL-1");
    BOOST_TEST((meal1.result == EvalResult::kPass), c.name << ": " << meal1.detail);
    BOOST_TEST(mentions(meal1, c.meal1Text), c.name << ": " << meal1.detail);
    const RuleEvaluation& meal2 = finding(v, "CA-MEAL-2");
    BOOST_TEST((meal2.result == EvalResult::kPass), c.name << ": " << meal2.detail);
    BOOST_TEST(mentions(meal2, "is due") == c.secondMealDue, c.name << ": " << meal2.detail);
    const RuleEvaluation& rest = finding(v, "CA-REST-10-PER-4");
    BOOST_TEST((rest.result == EvalResult::kPass), c.name);
    BOOST_TEST(intInput(rest, "due") == c.restsDue, c.name);
    for (const RuleEvaluation* e : {&meal1, &meal2, &rest}) {
      BOOST_TEST((e->effect == VerdictKind::kAllowed), c.name);
      BOOST_TEST(e->premiumCents == 0, c.name);
    }
  }
}

// The second meal period (CA-MEAL-2) is due before the end of the 10th hour; an 11 h day may
// waive it by mutual consent (at most 12 h).
BOOST_AUTO_TEST_CASE(second_meal_period_deadline) {
  TestSite s("America/Los_Angeles", "us-ca");
  s.person("gil");
  s.shift("long", at(2026, 10, 7, 8), at(2026, 10, 7, 19));
  const Verdict verdict = s.evaluate("gil", "long");
  const RuleEvaluation& meal2 = finding(verdict, "CA-MEAL-2");
  BOOST_TEST(mentions(meal2, "before the end of the 10th hour of work (by 18:00)"), meal2.detail);
  BOOST_TEST(mentions(meal2, "may be waived"), meal2.detail);
}

// A gap of at least 30 minutes between two shifts of the day is the meal period (CA-MEAL-1);
// the day's 8 h still need two rest periods.
BOOST_AUTO_TEST_CASE(gap_between_shifts_serves_as_the_meal_period) {
  TestSite s("America/Los_Angeles", "us-ca");
  s.person("hal");
  s.shift("morning", at(2026, 10, 7, 9), at(2026, 10, 7, 13), "hal");
  s.shift("afternoon", at(2026, 10, 7, 13, 30), at(2026, 10, 7, 17, 30));
  const Verdict v = s.evaluate("hal", "afternoon");
  BOOST_TEST(mentions(finding(v, "CA-MEAL-1"), "meal period at 13:00 (30 min) after 4 h of work"),
             finding(v, "CA-MEAL-1").detail);
  BOOST_TEST(intInput(finding(v, "CA-REST-10-PER-4"), "due") == 2);
  // Back to back, the same 8 h need the meal before 14:00.
  s.model.shifts.back().start = s.stamp(at(2026, 10, 7, 13));
  s.model.shifts.back().end = s.stamp(at(2026, 10, 7, 17));
  const Verdict verdict = s.evaluate("hal", "afternoon");
  const RuleEvaluation& meal = finding(verdict, "CA-MEAL-1");
  BOOST_TEST(mentions(meal, "is due before the end of the 5th hour of work (by 14:00)"),
             meal.detail);
}

// The deadline of a meal period on a DST night is in real hours of work: five hours after 00:00
// is 04:00 on the fall-back night (01:00-02:00 happens twice) and 06:00 on the spring-forward
// night (02:00-03:00 does not exist).
BOOST_AUTO_TEST_CASE(meal_deadline_on_dst_nights) {
  struct Case {
    unsigned month, day;
    const char* deadline;
  };
  for (const Case c : {Case{11, 1, "(by 04:00)"}, Case{3, 8, "(by 06:00)"}}) {
    TestSite s("America/Los_Angeles", "us-ca");
    s.person("ida");
    s.shift("night", at(2026, c.month, c.day, 0), at(2026, c.month, c.day, 8));
    const Verdict verdict = s.evaluate("ida", "night");
    const RuleEvaluation& meal = finding(verdict, "CA-MEAL-1");
    BOOST_TEST(mentions(meal, c.deadline), meal.detail);
  }
}

// CA-MEAL-1 from punches (Labor Code 512(a); premium 226.7(c): one hour of pay). Shift 09:00-17:00
// on 2026-10-07, clocked 09:00-17:00 with the break below.
BOOST_AUTO_TEST_CASE(meal_period_from_punches) {
  struct Case {
    const char* name;
    int breakHour, breakMinute, breakLength;  // breakLength 0: no break punched
    EvalResult result;
    const char* outcome;  // "" when on time
  };
  const Case cases[] = {
      {"on time", 12, 0, 30, EvalResult::kPass, ""},
      {"at the end of the 5th hour", 14, 0, 30, EvalResult::kPass, ""},
      {"late", 14, 1, 30, EvalResult::kFail, "late"},
      {"short", 12, 0, 20, EvalResult::kFail, "short"},
      {"missed", 0, 0, 0, EvalResult::kFail, "missed"},
  };
  for (const Case& c : cases) {
    TestSite s("America/Los_Angeles", "us-ca");
    s.person("jo");
    s.shift("s", at(2026, 10, 7, 9), at(2026, 10, 7, 17), "jo");
    s.punch("jo", PunchKind::kClockIn, at(2026, 10, 7, 9));
    if (c.breakLength > 0) {
      s.punch("jo", PunchKind::kBreakStart, at(2026, 10, 7, c.breakHour, c.breakMinute));
      s.punch("jo", PunchKind::kBreakEnd,
              at(2026, 10, 7, c.breakHour, c.breakMinute + c.breakLength));
    }
    s.punch("jo", PunchKind::kClockOut, at(2026, 10, 7, 17));
    const Verdict v = s.evaluate("jo", "s");
    const RuleEvaluation& meal = finding(v, "CA-MEAL-1");
    BOOST_TEST((meal.result == c.result), c.name << ": " << meal.detail);
    const bool owed = c.result == EvalResult::kFail;
    BOOST_TEST(meal.premiumCents == (owed ? 2000 : 0), c.name);
    if (owed) BOOST_TEST(textInput(meal, "outcome") == c.outcome, c.name);
    BOOST_TEST(v.premiumCents == (owed ? 2000 : 0), c.name);
    BOOST_TEST((v.kind == (owed ? VerdictKind::kAllowedWithPremium : VerdictKind::kAllowed)),
               c.name);
    BOOST_TEST((v.approver.has_value() == owed), c.name);
    // Without a meal period the day is 8 h of work, else 7 h 30 or 7 h 40.
    BOOST_TEST(intInput(meal, "workMinutes") == 480 - c.breakLength, c.name);
  }
}

// Both meal periods missed in a 12 h 30 day (over 12 h, the second cannot be waived): each rule
// reports it, the day owes one hour of pay for meal periods (226.7(c): per workday), on top of
// the daily overtime (4 h at 1.5x, 30 min at 2x).
BOOST_AUTO_TEST_CASE(one_meal_premium_per_workday) {
  TestSite s("America/Los_Angeles", "us-ca");
  s.person("kai");
  s.shift("s", at(2026, 10, 7, 7), at(2026, 10, 7, 19, 30), "kai");
  s.punch("kai", PunchKind::kClockIn, at(2026, 10, 7, 7));
  s.punch("kai", PunchKind::kClockOut, at(2026, 10, 7, 19, 30));
  const Verdict v = s.evaluate("kai", "s");
  BOOST_TEST((finding(v, "CA-MEAL-1").result == EvalResult::kFail));
  BOOST_TEST((finding(v, "CA-MEAL-2").result == EvalResult::kFail));
  BOOST_TEST(finding(v, "CA-MEAL-1").premiumCents == 2000);
  BOOST_TEST(finding(v, "CA-MEAL-2").premiumCents == 2000);
  BOOST_TEST(finding(v, "CA-OT-DAILY-8").premiumCents == 12000);
  BOOST_TEST(finding(v, "CA-DT-DAILY-12").premiumCents == 2000);
  BOOST_TEST(v.premiumCents == 12000 + 2000 + 2000);
}

// A meal period missed in a 5 h 45 min day is lawful under a mutual-consent waiver (day at most
// 6 h): reported, no premium.
BOOST_AUTO_TEST_CASE(waivable_meal_period_owes_no_premium) {
  TestSite s("America/Los_Angeles", "us-ca");
  s.person("lu");
  s.shift("s", at(2026, 10, 7, 9), at(2026, 10, 7, 15), "lu");
  s.punch("lu", PunchKind::kClockIn, at(2026, 10, 7, 9));
  s.punch("lu", PunchKind::kClockOut, at(2026, 10, 7, 14, 45));
  const Verdict v = s.evaluate("lu", "s");
  const RuleEvaluation& meal = finding(v, "CA-MEAL-1");
  BOOST_TEST((meal.result == EvalResult::kThresholdExceeded), meal.detail);
  BOOST_TEST(mentions(meal, "waiver"), meal.detail);
  BOOST_TEST(v.premiumCents == 0);
  BOOST_TEST((v.kind == VerdictKind::kAllowed));
}

// CA-REST-10-PER-4 from punches, where the time clock records rest breaks: 8 h on the clock
// with a 30 min meal (7 h 30 of work) need two 10 min rest periods. Where the clock records only
// meals, rest periods are not judged from punches (a missing punch proves nothing).
BOOST_AUTO_TEST_CASE(rest_periods_from_punches) {
  struct Case {
    const char* name;
    std::vector<int> restMinutes;  // the rest breaks taken, at 10:30 and 15:30
    bool recorded;
    EvalResult result;
    std::int64_t cents;
  };
  const Case cases[] = {
      {"two taken", {10, 10}, true, EvalResult::kPass, 0},
      {"one taken", {10}, true, EvalResult::kFail, 2000},
      {"one too short", {10, 7}, true, EvalResult::kFail, 2000},
      {"not recorded", {}, false, EvalResult::kNotApplicable, 0},
  };
  for (const Case& c : cases) {
    TestSite s("America/Los_Angeles", "us-ca");
    s.person("mo");
    s.shift("s", at(2026, 10, 7, 9), at(2026, 10, 7, 17), "mo");
    s.punch("mo", PunchKind::kClockIn, at(2026, 10, 7, 9));
    for (std::size_t i = 0; i < c.restMinutes.size(); ++i) {
      const int hour = i == 0 ? 10 : 15;
      s.punch("mo", PunchKind::kBreakStart, at(2026, 10, 7, hour, 30));
      s.punch("mo", PunchKind::kBreakEnd, at(2026, 10, 7, hour, 30 + c.restMinutes[i]));
    }
    s.punch("mo", PunchKind::kBreakStart, at(2026, 10, 7, 12));
    s.punch("mo", PunchKind::kBreakEnd, at(2026, 10, 7, 12, 30));
    s.punch("mo", PunchKind::kClockOut, at(2026, 10, 7, 17));
    LaborOptions options;
    options.punchesRecordRestBreaks = c.recorded;
    const Verdict v = s.evaluate("mo", "s", Scope::kAllShifts, options);
    const RuleEvaluation& rest = finding(v, "CA-REST-10-PER-4");
    BOOST_TEST((rest.result == c.result), c.name << ": " << rest.detail);
    BOOST_TEST(intInput(rest, "due") == 2, c.name);
    BOOST_TEST(rest.premiumCents == c.cents, c.name);
    BOOST_TEST((finding(v, "CA-MEAL-1").result == EvalResult::kPass), c.name);
    BOOST_TEST(v.premiumCents == c.cents, c.name);
  }
}

// A workday's punches are judged once, with the first of the person's shifts they overlap: in a
// whole-schedule check (Scope::kEarlierShifts) the later shift of the day points to it, so the
// premium is counted once.
BOOST_AUTO_TEST_CASE(punched_workday_is_judged_with_its_first_shift) {
  TestSite s("America/Los_Angeles", "us-ca");
  s.person("ned");
  s.shift("am", at(2026, 10, 7, 9), at(2026, 10, 7, 13), "ned");
  s.shift("pm", at(2026, 10, 7, 13), at(2026, 10, 7, 17), "ned");
  s.punch("ned", PunchKind::kClockIn, at(2026, 10, 7, 9));
  s.punch("ned", PunchKind::kClockOut, at(2026, 10, 7, 17));
  for (Scope scope : {Scope::kEarlierShifts, Scope::kAllShifts}) {
    const Verdict am = s.evaluate("ned", "am", scope);
    const Verdict pm = s.evaluate("ned", "pm", scope);
    BOOST_TEST((finding(am, "CA-MEAL-1").result == EvalResult::kFail));
    BOOST_TEST(finding(am, "CA-MEAL-1").premiumCents == 2000);
    BOOST_TEST((finding(pm, "CA-MEAL-1").result == EvalResult::kNotApplicable));
    BOOST_TEST(mentions(finding(pm, "CA-MEAL-1"), "judged with shift am"));
    BOOST_TEST(finding(pm, "CA-MEAL-1").premiumCents == 0);
  }
}

// Punches that cannot be read (a clock_in with no clock_out) are named, and nothing is owed.
BOOST_AUTO_TEST_CASE(unreadable_punches_are_named) {
  TestSite s("America/Los_Angeles", "us-ca");
  s.person("oz");
  s.shift("s", at(2026, 10, 7, 9), at(2026, 10, 7, 17), "oz");
  s.punch("oz", PunchKind::kClockIn, at(2026, 10, 7, 9, 2));
  s.punch("oz", PunchKind::kBreakStart, at(2026, 10, 7, 12));
  const Verdict v = s.evaluate("oz", "s");
  const RuleEvaluation& meal = finding(v, "CA-MEAL-1");
  BOOST_TEST((meal.result == EvalResult::kNotApplicable));
  BOOST_TEST(mentions(meal, "clock_in at 09:02 has no clock_out"), meal.detail);
  BOOST_TEST(v.premiumCents == 0);
}

// Outside California no meal or rest rule applies: no findings of those kinds.
BOOST_AUTO_TEST_CASE(no_break_rules_outside_california) {
  TestSite s("America/Chicago", "us");
  s.person("pat");
  s.shift("s", at(2026, 10, 7, 8), at(2026, 10, 7, 18));
  const Verdict v = s.evaluate("pat", "s");
  BOOST_TEST(v.find("CA-MEAL-1") == nullptr);
  BOOST_TEST(v.find("CA-REST-10-PER-4") == nullptr);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::labor::testing
