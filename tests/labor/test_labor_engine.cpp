#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tests/labor/engine_test_site.h"

namespace atoms::labor::testing {

BOOST_AUTO_TEST_SUITE(labor_engine)

// US-FLSA-OT-WEEKLY: four 8 h days (Mon 2026-10-05 .. Thu) then a Friday shift.
BOOST_AUTO_TEST_CASE(weekly_overtime_starts_after_forty_hours) {
  struct Case {
    int fridayEndHour, fridayEndMinute;
    EvalResult result;
    std::int64_t overtimeMinutes, cents;
    VerdictKind kind;
  };
  const Case cases[] = {
      {17, 0, EvalResult::kPass, 0, 0, VerdictKind::kAllowed},  // exactly 40 h
      // 40 h 15 min: 15 min at 1.5 x $20.00 = $7.50.
      {17, 15, EvalResult::kThresholdExceeded, 15, 750, VerdictKind::kAllowedWithPremium},
  };
  for (const Case& c : cases) {
    TestSite s("America/Chicago", "us");
    s.person("ana");
    for (unsigned d = 5; d <= 8; ++d) {
      s.shift("mon-thu-" + std::to_string(d), at(2026, 10, d, 9), at(2026, 10, d, 17), "ana");
    }
    s.shift("fri", at(2026, 10, 9, 9), at(2026, 10, 9, c.fridayEndHour, c.fridayEndMinute));
    const Verdict v = s.evaluate("ana", "fri");
    const RuleEvaluation& e = finding(v, "US-FLSA-OT-WEEKLY");
    BOOST_TEST((e.result == c.result));
    BOOST_TEST(intInput(e, "overtimeMinutes") == c.overtimeMinutes);
    BOOST_TEST(e.premiumCents == c.cents);
    // Of the 1.5 x, the 0.5 x above the regular pay is the extra cost.
    BOOST_TEST(e.extraCents == c.cents / 3);
    BOOST_TEST((v.kind == c.kind));
    BOOST_TEST(v.premiumCents == c.cents);
    BOOST_TEST((v.approver == (c.cents > 0 ? std::optional<std::string>("manager-1")
                                           : std::optional<std::string>())));
  }
}

// The workweek starts Sunday 00:00 local: Saturday's hours do not count toward the next week.
BOOST_AUTO_TEST_CASE(weekly_overtime_resets_on_sunday) {
  TestSite s("America/Chicago", "us");
  s.person("ana");
  for (unsigned d = 5; d <= 9; ++d) {  // Mon..Fri, 40 h
    s.shift("wk-" + std::to_string(d), at(2026, 10, d, 9), at(2026, 10, d, 17), "ana");
  }
  s.shift("sun", at(2026, 10, 11, 9), at(2026, 10, 11, 17));
  s.shift("sat", at(2026, 10, 10, 9), at(2026, 10, 10, 17));
  BOOST_TEST(finding(s.evaluate("ana", "sun"), "US-FLSA-OT-WEEKLY").premiumMinutes == 0);
  BOOST_TEST(finding(s.evaluate("ana", "sat"), "US-FLSA-OT-WEEKLY").premiumMinutes == 480);
}

// CA-OT-DAILY-8 and CA-DT-DAILY-12 (Labor Code 510(a)): one shift on a Wednesday in San
// Francisco, $20.00/h: the premium is the overtime's pay at its rate ($30/h at 1.5x, $40/h at 2x).
BOOST_AUTO_TEST_CASE(california_daily_overtime_and_double_time) {
  struct Case {
    int endHour, endMinute;
    std::int64_t dailyMinutes, doubleMinutes, totalCents;
  };
  const Case cases[] = {
      {14, 0, 0, 0, 0},                // 06:00-14:00 exactly 8 h
      {14, 1, 1, 0, 50},               // 8 h 1 min: 1 min at 1.5x
      {14, 30, 30, 0, 1500},           // 8 h 30: 30 min at 1.5x
      {18, 0, 240, 0, 12000},          // exactly 12 h: 4 h at 1.5x, no double time
      {18, 1, 240, 1, 12000 + 67},     // 12 h 1 min: the minute over 12 h at 2x ($0.6666)
      {19, 0, 240, 60, 12000 + 4000},  // 13 h: plus 1 h at 2x
  };
  for (const Case& c : cases) {
    TestSite s("America/Los_Angeles", "us-ca-san-francisco");
    s.person("bo");
    s.shift("long", at(2026, 10, 7, 6), at(2026, 10, 7, c.endHour, c.endMinute));
    const Verdict v = s.evaluate("bo", "long");
    BOOST_TEST(finding(v, "CA-OT-DAILY-8").premiumMinutes == c.dailyMinutes);
    BOOST_TEST(finding(v, "CA-DT-DAILY-12").premiumMinutes == c.doubleMinutes);
    BOOST_TEST(v.premiumCents == c.totalCents);
    BOOST_TEST(v.premiumMinutes == c.dailyMinutes + c.doubleMinutes);
    BOOST_TEST(
        (v.kind == (c.totalCents > 0 ? VerdictKind::kAllowedWithPremium : VerdictKind::kAllowed)));
  }
}

// CA-OT-DAILY-8 over a shift across midnight: hours count toward the local day they fall in.
BOOST_AUTO_TEST_CASE(shift_across_midnight_splits_into_workdays) {
  TestSite s("America/Los_Angeles", "us-ca");
  s.person("cy");
  s.shift("night", at(2026, 10, 7, 20), at(2026, 10, 8, 6));  // 4 h + 6 h
  BOOST_TEST(finding(s.evaluate("cy", "night"), "CA-OT-DAILY-8").premiumMinutes == 0);
  // With 6 h already worked on the 7th, that day reaches 10 h: 2 h of daily overtime.
  s.shift("day", at(2026, 10, 7, 10), at(2026, 10, 7, 16), "cy");
  const Verdict v = s.evaluate("cy", "night");
  BOOST_TEST(finding(v, "CA-OT-DAILY-8").premiumMinutes == 120);
  BOOST_TEST(intInput(finding(v, "CA-OT-DAILY-8"), "dayMinutes") == 600);
}

// CA-OT-DAILY-8 on the spring-forward night (America/Los_Angeles, 2026-03-08, 02:00 -> 03:00):
// hours are real elapsed hours, so 00:00-09:00 local is 8 h.
BOOST_AUTO_TEST_CASE(dst_night_counts_real_hours) {
  TestSite s("America/Los_Angeles", "us-ca");
  s.person("di");
  s.shift("dst", at(2026, 3, 8, 0), at(2026, 3, 8, 9));
  s.shift("dst-cross", at(2026, 3, 7, 22), at(2026, 3, 8, 9, 30));
  const Verdict exact = s.evaluate("di", "dst");
  BOOST_TEST(finding(exact, "CA-OT-DAILY-8").result == EvalResult::kPass);
  BOOST_TEST(intInput(finding(exact, "CA-OT-DAILY-8"), "dayMinutes") == 480);
  // 22:00-00:00 on the 7th (2 h) and 00:00-09:30 on the 8th (8 h 30 real): 30 min overtime.
  const Verdict cross = s.evaluate("di", "dst-cross");
  BOOST_TEST(finding(cross, "CA-OT-DAILY-8").premiumMinutes == 30);
}

// CHI-FWW-REST-10H: rest exactly 10 h passes; 9 h 59 needs consent and owes 1.25 x for the minute.
BOOST_AUTO_TEST_CASE(chicago_rest_between_shifts) {
  struct Case {
    int startHour, startMinute;
    EvalResult result;
    VerdictKind kind;
    std::int64_t cents;
  };
  const Case cases[] = {
      {8, 0, EvalResult::kPass, VerdictKind::kAllowed, 0},
      // 1 min inside the rest at 1.25 x $24.00/h = 50 cents.
      {7, 59, EvalResult::kThresholdExceeded, VerdictKind::kNeedsConsent, 50},
  };
  for (const Case& c : cases) {
    TestSite s("America/Chicago", "us-il-chicago");
    s.person("eve", 2400);
    s.shift("close", at(2026, 10, 6, 14), at(2026, 10, 6, 22), "eve");
    s.shift("open", at(2026, 10, 7, c.startHour, c.startMinute), at(2026, 10, 7, 12));
    const Verdict v = s.evaluate("eve", "open");
    const RuleEvaluation& e = finding(v, "CHI-FWW-REST-10H");
    BOOST_TEST((e.result == c.result));
    BOOST_TEST((v.kind == c.kind));
    BOOST_TEST(v.premiumCents == c.cents);
    BOOST_TEST(intInput(e, "restMinutes") == (c.cents > 0 ? 599 : 600));
  }
}

// PHL-FWW-REST-9H: the short rest may come after S (S closes, P already opens the next day);
// the premium is a flat $40.00 per short rest.
BOOST_AUTO_TEST_CASE(philadelphia_rest_after_the_shift_owes_flat_premium) {
  TestSite s("America/New_York", "us-pa-philadelphia");
  s.person("fin");
  s.shift("open", at(2026, 10, 8, 7), at(2026, 10, 8, 12), "fin");
  s.shift("close", at(2026, 10, 7, 17), at(2026, 10, 7, 23));  // 8 h rest before "open"
  const Verdict v = s.evaluate("fin", "close");
  const RuleEvaluation& e = finding(v, "PHL-FWW-REST-9H");
  BOOST_TEST(e.result == EvalResult::kThresholdExceeded);
  BOOST_TEST(intInput(e, "restMinutes") == 480);
  BOOST_TEST(v.kind == VerdictKind::kNeedsConsent);
  BOOST_TEST(v.premiumCents == 4000);
  BOOST_TEST(v.extraCents == 4000);  // a flat premium is all extra
  BOOST_TEST((v.approver == std::optional<std::string>("manager-1")));
}

// US-FLSA-MINOR-14-15-HOURS: a 15-year-old, 07:00-19:00 (21:00 from June 1 to Labor Day).
BOOST_AUTO_TEST_CASE(minor_fifteen_time_window) {
  struct Case {
    LocalTime start, end;
    bool schoolDay;
    EvalResult result;
  };
  const Case cases[] = {
      {at(2026, 10, 10, 15), at(2026, 10, 10, 19), false, EvalResult::kPass},
      {at(2026, 10, 10, 15, 1), at(2026, 10, 10, 19, 1), false, EvalResult::kFail},
      {at(2026, 7, 11, 17), at(2026, 7, 11, 21), false, EvalResult::kPass},
      {at(2026, 7, 11, 17), at(2026, 7, 11, 21, 1), false, EvalResult::kFail},
      {at(2026, 9, 7, 17), at(2026, 9, 7, 21), false, EvalResult::kPass},  // Labor Day
      {at(2026, 9, 8, 17), at(2026, 9, 8, 21), false, EvalResult::kFail},  // the day after
      {at(2026, 10, 6, 6, 59), at(2026, 10, 6, 9), false, EvalResult::kFail},
      // A school day allows 3 h: 15:00-19:00 is inside the window but 4 h long.
      {at(2026, 10, 6, 15), at(2026, 10, 6, 19), true, EvalResult::kFail},
      {at(2026, 10, 6, 16), at(2026, 10, 6, 19), true, EvalResult::kPass},
  };
  for (const Case& c : cases) {
    TestSite s("America/Los_Angeles", "us");
    s.person("kid", 1600, date(2011, 1, 15));  // 15 throughout 2026
    if (c.schoolDay) {
      s.model.schoolCalendar.schoolDays.push_back(site::Date{chr::floor<chr::days>(c.start)});
    }
    s.shift("s", c.start, c.end);
    const Verdict v = s.evaluate("kid", "s");
    const RuleEvaluation& e = finding(v, "US-FLSA-MINOR-14-15-HOURS");
    BOOST_TEST((e.result == c.result), site::formatLocal(c.start) << ": " << e.detail);
    BOOST_TEST(
        (v.kind == (c.result == EvalResult::kFail ? VerdictKind::kDenied : VerdictKind::kAllowed)));
  }
}

// US-FLSA-MINOR-14-15-HOURS does not apply at 16: the rule reports n/a.
BOOST_AUTO_TEST_CASE(minor_rule_not_applicable_at_sixteen) {
  TestSite s("America/Los_Angeles", "us");
  s.person("teen", 1600, date(2010, 1, 15));
  s.shift("late", at(2026, 10, 10, 15), at(2026, 10, 10, 21));
  const Verdict v = s.evaluate("teen", "late");
  BOOST_TEST((finding(v, "US-FLSA-MINOR-14-15-HOURS").result == EvalResult::kNotApplicable));
  BOOST_TEST((v.kind == VerdictKind::kAllowed));
}

// R-SCH-CERTIFICATION and R-SCH-STATION-AGE at the bar (alcohol permit, minimum age 21).
BOOST_AUTO_TEST_CASE(station_certification_and_age) {
  struct Case {
    const char* name;
    std::optional<site::Date> birth;
    bool held;                          // holds the alcohol permit
    std::optional<site::Date> expires;  // none: does not expire
    EvalResult cert, age;
  };
  const Case cases[] = {
      {"valid", date(1990, 1, 1), true, date(2027, 1, 1), EvalResult::kPass, EvalResult::kPass},
      {"missing", date(1990, 1, 1), false, std::nullopt, EvalResult::kFail, EvalResult::kPass},
      {"expired the day before", date(1990, 1, 1), true, date(2026, 10, 9), EvalResult::kFail,
       EvalResult::kPass},
      {"expires on the day", date(1990, 1, 1), true, date(2026, 10, 10), EvalResult::kPass,
       EvalResult::kPass},
      {"twenty", date(2005, 10, 11), true, std::nullopt, EvalResult::kPass, EvalResult::kFail},
      {"21st birthday", date(2005, 10, 10), true, std::nullopt, EvalResult::kPass,
       EvalResult::kPass},
      {"no birth date", std::nullopt, true, std::nullopt, EvalResult::kPass, EvalResult::kFail},
  };
  for (const Case& c : cases) {
    TestSite s("America/Los_Angeles", "us");
    site::Person& p = s.person("fay", 2000, c.birth);
    if (c.held) p.certifications.push_back({"alcohol", c.expires});
    s.shift("bar", at(2026, 10, 10, 12), at(2026, 10, 10, 18), std::nullopt, "bar");
    const Verdict v = s.evaluate("fay", "bar");
    BOOST_TEST((finding(v, "R-SCH-CERTIFICATION").result == c.cert), c.name);
    BOOST_TEST((finding(v, "R-SCH-STATION-AGE").result == c.age), c.name);
    const bool denied = c.cert == EvalResult::kFail || c.age == EvalResult::kFail;
    BOOST_TEST((v.kind == (denied ? VerdictKind::kDenied : VerdictKind::kAllowed)), c.name);
  }
}

// R-SCH-CERTIFICATION also covers a certification required by the shift itself.
BOOST_AUTO_TEST_CASE(shift_level_certification_is_required) {
  TestSite s("America/Los_Angeles", "us");
  s.person("gus");
  site::Shift& sh = s.shift("prep", at(2026, 10, 10, 8), at(2026, 10, 10, 12));
  sh.requiredCertification = "alcohol";
  sh.stationId = "grill";
  const Verdict v = s.evaluate("gus", "prep");
  BOOST_TEST((finding(v, "R-SCH-CERTIFICATION").result == EvalResult::kFail));
  BOOST_TEST((v.kind == VerdictKind::kDenied));
}

// R-SCH-OVERLAP and R-SCH-TIME-OFF.
BOOST_AUTO_TEST_CASE(overlap_and_time_off_deny) {
  TestSite s("America/Chicago", "us");
  site::Person& p = s.person("hal");
  p.timeOff.push_back({s.stamp(at(2026, 10, 12, 0)), s.stamp(at(2026, 10, 13, 0))});
  s.shift("a", at(2026, 10, 10, 9), at(2026, 10, 10, 13), "hal");
  s.shift("overlapping", at(2026, 10, 10, 12), at(2026, 10, 10, 16));
  s.shift("adjacent", at(2026, 10, 10, 13), at(2026, 10, 10, 17));
  s.shift("on-leave", at(2026, 10, 12, 9), at(2026, 10, 12, 12));

  const Verdict overlap = s.evaluate("hal", "overlapping");
  BOOST_TEST((finding(overlap, "R-SCH-OVERLAP").result == EvalResult::kFail));
  BOOST_TEST((overlap.kind == VerdictKind::kDenied));
  const Verdict adjacent = s.evaluate("hal", "adjacent");
  BOOST_TEST((finding(adjacent, "R-SCH-OVERLAP").result == EvalResult::kPass));
  BOOST_TEST((adjacent.kind == VerdictKind::kAllowed));
  // Re-evaluating the person's own shift does not clash with itself.
  BOOST_TEST((finding(s.evaluate("hal", "a"), "R-SCH-OVERLAP").result == EvalResult::kPass));
  const Verdict leave = s.evaluate("hal", "on-leave");
  BOOST_TEST((finding(leave, "R-SCH-TIME-OFF").result == EvalResult::kFail));
  BOOST_TEST((leave.kind == VerdictKind::kDenied));
}

// Verdict::combine: alternatives of one premium group count once (the costliest); the parts of
// one alternative add up; ungrouped premiums add; the kind is the strictest effect.
BOOST_AUTO_TEST_CASE(premiums_combine_by_group_and_alternative) {
  const auto make = [](std::string id, std::string group, std::string alternative,
                       std::int64_t cents, VerdictKind effect) {
    RuleEvaluation e;
    e.ruleId = std::move(id);
    e.premiumGroup = std::move(group);
    e.premiumAlternative = std::move(alternative);
    e.premiumCents = cents;
    e.premiumMinutes = cents / 100;
    e.effect = effect;
    return e;
  };
  const auto premium = VerdictKind::kAllowedWithPremium;
  std::vector<RuleEvaluation> findings{
      make("US-WEEKLY", "overtime", "us", 3000, premium),
      make("CA-DAILY", "overtime", "us-ca", 2000, premium),
      make("CA-WEEKLY", "overtime", "us-ca", 1500, premium),  // CA: 3500, costlier than 3000
      make("MEAL-1", "meal_break", "MEAL-1", 2000, premium),
      make("MEAL-2", "meal_break", "MEAL-2", 2000, premium),  // one meal premium a day
      make("FLAT", "", "", 4000, VerdictKind::kNeedsConsent),
      make("NONE", "", "", 0, VerdictKind::kAllowed),
  };
  const Verdict v = Verdict::combine(std::move(findings), std::string("manager-1"));
  BOOST_TEST(v.premiumCents == 3500 + 2000 + 4000);
  BOOST_TEST(v.premiumMinutes == 35 + 20 + 40);
  BOOST_TEST((v.kind == VerdictKind::kNeedsConsent));
  BOOST_TEST((v.approver == std::optional<std::string>("manager-1")));
  BOOST_TEST(v.evaluations.size() == 7u);
  const Verdict none =
      Verdict::combine({make("NONE", "", "", 0, VerdictKind::kAllowed)}, std::string("manager-1"));
  BOOST_TEST(!none.approver.has_value());
}

BOOST_AUTO_TEST_CASE(unknown_person_or_shift_is_an_error) {
  TestSite s("America/Chicago", "us");
  s.person("ida");
  s.shift("x", at(2026, 10, 10, 9), at(2026, 10, 10, 13));
  auto ctx = LaborContext::build(s.model, *s.rules);
  BOOST_TEST_REQUIRE(ctx.ok(), ctx.message());
  BOOST_TEST(ctx->evaluate("nobody", "x").message() == "unknown person 'nobody'");
  BOOST_TEST(ctx->evaluate("ida", "nope").message() == "unknown shift 'nope'");
}

// Property: adding hours (an earlier shift in the week, or a longer proposed shift) never lowers
// the overtime the proposed shift causes, under US-FLSA-OT-WEEKLY and CA-OT-DAILY-8.
BOOST_AUTO_TEST_CASE(adding_hours_never_lowers_overtime) {
  std::mt19937 rng(20260308);
  std::uniform_int_distribution<int> hours(2, 11);
  std::uniform_int_distribution<int> startHour(5, 12);
  for (int round = 0; round < 40; ++round) {
    TestSite s("America/Los_Angeles", "us-ca");
    s.person("jo");
    // Mon..Thu of the week of 2026-10-04 (Sunday), random lengths; proposal on Friday.
    for (unsigned d = 5; d <= 8; ++d) {
      const int h0 = startHour(rng);
      s.shift("w" + std::to_string(d), at(2026, 10, d, h0), at(2026, 10, d, h0 + hours(rng)), "jo");
    }
    const int h0 = startHour(rng);
    const int len = hours(rng);
    s.shift("p", at(2026, 10, 9, h0), at(2026, 10, 9, h0 + len));
    const auto overtime = [&](const Verdict& v) {
      return std::pair(finding(v, "US-FLSA-OT-WEEKLY").premiumMinutes,
                       finding(v, "CA-OT-DAILY-8").premiumMinutes);
    };
    const auto base = overtime(s.evaluate("jo", "p"));
    // A longer proposal.
    s.model.shifts.back().end = s.stamp(at(2026, 10, 9, h0 + len, 45));
    const auto longer = overtime(s.evaluate("jo", "p"));
    BOOST_TEST(longer.first >= base.first);
    BOOST_TEST(longer.second >= base.second);
    // More existing hours in the week (Saturday before is a different week; use Sunday 4th).
    s.shift("extra", at(2026, 10, 4, 8), at(2026, 10, 4, 8 + hours(rng)), "jo");
    const auto more = overtime(s.evaluate("jo", "p"));
    BOOST_TEST(more.first >= longer.first);
    BOOST_TEST(more.second >= longer.second);
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::labor::testing
