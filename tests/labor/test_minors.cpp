#include <boost/test/unit_test.hpp>
#include <string>
#include <vector>

#include "tests/labor/engine_test_site.h"
#include "tests/support/temp_dir.h"

// Minors' hours (minor_hours): the federal rule for ages 14-15 (US-FLSA-MINOR-14-15-HOURS,
// 29 CFR 570.35(a)) and California's for 14-15 and 16-17 (CA-MINOR-14-15-HOURS,
// CA-MINOR-16-17-HOURS, Labor Code 1391(a)), in America/Los_Angeles. School days come from the
// site's school calendar; a week runs from its weekStart (Sunday).

namespace atoms::labor::testing {

namespace {

// The week of Sunday 2026-10-04 has school Monday to Friday; the weekend is not school.
void schoolWeekOfOctober5(TestSite& s) {
  for (unsigned d = 5; d <= 9; ++d) s.model.schoolCalendar.schoolDays.push_back(date(2026, 10, d));
}

bool exceeded(const RuleEvaluation& e, const std::string& code) {
  const auto it = e.input.find("exceeded");
  if (it == e.input.end()) return false;
  for (const json::Value& v : it->second.asArray()) {
    if (v.asString() == code) return true;
  }
  return false;
}

struct WindowCase {
  const char* name;
  LocalTime start, end;
  bool pass;
  const char* limit;  // the code in input.exceeded when it fails
};

// Evaluates one shift of `personBirth` under `jurisdiction` and checks rule `ruleId`.
void checkCases(const std::string& jurisdiction, const std::string& ruleId, site::Date birth,
                const std::vector<WindowCase>& cases) {
  for (const WindowCase& c : cases) {
    TestSite s("America/Los_Angeles", jurisdiction);
    schoolWeekOfOctober5(s);
    s.person("kid", 1600, birth);
    s.shift("s", c.start, c.end);
    const Verdict v = s.evaluate("kid", "s");
    const RuleEvaluation& e = finding(v, ruleId);
    BOOST_TEST((e.result == (c.pass ? EvalResult::kPass : EvalResult::kFail)),
               c.name << ": " << e.detail);
    if (!c.pass) BOOST_TEST(exceeded(e, c.limit), c.name << ": " << e.detail);
    BOOST_TEST((v.kind == (c.pass ? VerdictKind::kAllowed : VerdictKind::kDenied)), c.name);
  }
}

// New York State (us-ny, in force from 2022-01-01, the 2022 edition of the consolidated laws), in
// America/New_York. School weeks: 2027-01-04..08 and 2027-01-19..22 (Monday 01-18 is a holiday),
// and 2027-06-14..18; the weeks of 2027-01-10 and of 2027-06-20 have no school. School hours
// 08:00-15:00; weeks start on Sunday.
void newYorkCalendar(TestSite& s) {
  for (unsigned d : {4u, 5u, 6u, 7u, 8u, 19u, 20u, 21u, 22u}) {
    s.model.schoolCalendar.schoolDays.push_back(date(2027, 1, d));
  }
  for (unsigned d = 14; d <= 18; ++d) s.model.schoolCalendar.schoolDays.push_back(date(2027, 6, d));
  s.model.schoolCalendar.schoolHours = site::SchoolHours{8 * 60, 15 * 60};
}

// One shift of a minor under New York's rule `ruleId`, born on `birth`.
void checkNewYorkCases(const std::string& ruleId, site::Date birth,
                       const std::vector<WindowCase>& cases) {
  for (const WindowCase& c : cases) {
    TestSite s("America/New_York", "us-ny");
    newYorkCalendar(s);
    s.person("kid", 1600, birth);
    s.shift("s", c.start, c.end);
    const Verdict v = s.evaluate("kid", "s");
    const RuleEvaluation& e = finding(v, ruleId);
    BOOST_TEST((e.result == (c.pass ? EvalResult::kPass : EvalResult::kFail)),
               c.name << ": " << e.detail);
    if (!c.pass) {
      BOOST_TEST(exceeded(e, c.limit), c.name << ": " << e.detail);
      BOOST_TEST((v.kind == VerdictKind::kDenied), c.name);
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(minors)

// US-FLSA-MINOR-14-15-HOURS (29 CFR 570.35(a)(6)): between 7:00 and 19:00, until 21:00 from
// June 1 through Labor Day (2026-09-07). A 15-year-old (born 2011-01-15).
BOOST_AUTO_TEST_CASE(federal_fourteen_fifteen_time_window) {
  checkCases(
      "us", "US-FLSA-MINOR-14-15-HOURS", date(2011, 1, 15),
      {
          {"ends 18:59", at(2026, 10, 10, 15), at(2026, 10, 10, 18, 59), true, ""},
          {"ends 19:00", at(2026, 10, 10, 15), at(2026, 10, 10, 19), true, ""},
          {"ends 19:01", at(2026, 10, 10, 15), at(2026, 10, 10, 19, 1), false, "window"},
          {"starts 07:00", at(2026, 10, 10, 7), at(2026, 10, 10, 11), true, ""},
          {"starts 06:59", at(2026, 10, 10, 6, 59), at(2026, 10, 10, 11), false, "window"},
          {"May 31 until 21:00", at(2026, 5, 31, 17), at(2026, 5, 31, 21), false, "window"},
          {"June 1 until 21:00", at(2026, 6, 1, 17), at(2026, 6, 1, 21), true, ""},
          {"June 1 until 21:01", at(2026, 6, 1, 17), at(2026, 6, 1, 21, 1), false, "window"},
          {"Labor Day until 21:00", at(2026, 9, 7, 17), at(2026, 9, 7, 21), true, ""},
          {"the day after Labor Day", at(2026, 9, 8, 17), at(2026, 9, 8, 21), false, "window"},
      });
}

// US-FLSA-MINOR-14-15-HOURS (570.35(a)(4)-(5)): 3 h on a school day (Monday 2026-10-05), 8 h on a
// non-school day (Saturday 10-10).
BOOST_AUTO_TEST_CASE(federal_fourteen_fifteen_day_limits) {
  checkCases("us", "US-FLSA-MINOR-14-15-HOURS", date(2011, 1, 15),
             {
                 {"3 h on a school day", at(2026, 10, 5, 15), at(2026, 10, 5, 18), true, ""},
                 {"3 h 1 min on a school day", at(2026, 10, 5, 15), at(2026, 10, 5, 18, 1), false,
                  "schoolDay"},
                 {"8 h on a Saturday", at(2026, 10, 10, 9), at(2026, 10, 10, 17), true, ""},
                 {"8 h 1 min on a Saturday", at(2026, 10, 10, 9), at(2026, 10, 10, 17, 1), false,
                  "nonSchoolDay"},
             });
}

// US-FLSA-MINOR-14-15-HOURS (570.35(a)(2)-(3)): 18 h in a school week, 40 h in a week without
// school. Monday to Friday are worked first (3 h a day in the school week, 8 h a day in the week of
// 2026-10-11, which has no school), then a Saturday shift.
BOOST_AUTO_TEST_CASE(federal_fourteen_fifteen_week_limits) {
  struct Case {
    const char* name;
    unsigned firstMonday;
    int dailyHours, saturdayMinutes;
    bool pass;
    const char* limit;
  };
  const Case cases[] = {
      {"18 h in a school week", 5, 3, 180, true, ""},
      {"18 h 1 min in a school week", 5, 3, 181, false, "schoolWeek"},
      {"40 h in a week without school", 12, 8, 0, true, ""},
      {"40 h 30 min in a week without school", 12, 8, 30, false, "nonSchoolWeek"},
  };
  for (const Case& c : cases) {
    TestSite s("America/Los_Angeles", "us");
    schoolWeekOfOctober5(s);
    s.person("kid", 1600, date(2011, 1, 15));
    const int startHour = c.dailyHours == 3 ? 15 : 9;
    for (unsigned d = c.firstMonday; d < c.firstMonday + 5; ++d) {
      s.shift("d" + std::to_string(d), at(2026, 10, d, startHour),
              at(2026, 10, d, startHour + c.dailyHours), "kid");
    }
    const unsigned saturday = c.firstMonday + 5;
    // With no Saturday hours, re-check Friday's shift, which completes the 40 h.
    std::string probe = "d" + std::to_string(c.firstMonday + 4);
    if (c.saturdayMinutes > 0) {
      s.shift("sat", at(2026, 10, saturday, 10), at(2026, 10, saturday, 10, c.saturdayMinutes));
      probe = "sat";
    }
    const Verdict verdict = s.evaluate("kid", probe);
    const RuleEvaluation& e = finding(verdict, "US-FLSA-MINOR-14-15-HOURS");
    BOOST_TEST((e.result == (c.pass ? EvalResult::kPass : EvalResult::kFail)),
               c.name << ": " << e.detail);
    if (!c.pass) BOOST_TEST(exceeded(e, c.limit), c.name << ": " << e.detail);
  }
}

// CA-MINOR-16-17-HOURS (Labor Code 1391(a)(3)-(4)): a 17-year-old (born 2009-03-01) works 5:00 to
// 22:00 on a day before a school day, until 00:30 of a non-school day on the evening before it;
// 4 h on a school day, 8 h on another day.
BOOST_AUTO_TEST_CASE(california_sixteen_seventeen_hours) {
  checkCases("us-ca", "CA-MINOR-16-17-HOURS", date(2009, 3, 1),
             {
                 // Sunday 10-04, before school on Monday.
                 {"22:00 before a school day", at(2026, 10, 4, 18), at(2026, 10, 4, 22), true, ""},
                 {"22:01 before a school day", at(2026, 10, 4, 18), at(2026, 10, 4, 22, 1), false,
                  "window"},
                 // Friday 10-09 (a school day: 4 h) before Saturday, a non-school day.
                 {"00:30 before a non-school day", at(2026, 10, 9, 20, 30), at(2026, 10, 10, 0, 30),
                  true, ""},
                 {"00:31 before a non-school day", at(2026, 10, 9, 20, 31), at(2026, 10, 10, 0, 31),
                  false, "window"},
                 // Saturday night into Sunday: neither is a school day.
                 {"Saturday until 00:30", at(2026, 10, 10, 18), at(2026, 10, 11, 0, 30), true, ""},
                 {"starts 05:00", at(2026, 10, 10, 5), at(2026, 10, 10, 9), true, ""},
                 {"starts 04:59", at(2026, 10, 10, 4, 59), at(2026, 10, 10, 9), false, "window"},
                 {"4 h on a school day", at(2026, 10, 6, 15), at(2026, 10, 6, 19), true, ""},
                 {"4 h 1 min on a school day", at(2026, 10, 6, 15), at(2026, 10, 6, 19, 1), false,
                  "schoolDay"},
                 {"8 h on a Saturday", at(2026, 10, 10, 8), at(2026, 10, 10, 16), true, ""},
                 {"8 h 1 min on a Saturday", at(2026, 10, 10, 8), at(2026, 10, 10, 16, 1), false,
                  "nonSchoolDay"},
             });
}

// California's rules are in force from 1996-01-01 (Labor Code 1391; the school-day limits as
// amended by Stats. 1995 ch. 887, decision 0016): 8 h 1 min on a non-school day (1391(a)(1),
// (a)(3)) is not checked on 1995-12-31 and fails on 1996-01-01, for a 15- and a 17-year-old.
BOOST_AUTO_TEST_CASE(california_rules_apply_from_1996) {
  struct Case {
    const char* ruleId;
    site::Date birth;
    unsigned year, month, day;
    bool inForce;
  };
  const Case cases[] = {
      {"CA-MINOR-14-15-HOURS", date(1980, 6, 1), 1995, 12, 31, false},
      {"CA-MINOR-14-15-HOURS", date(1980, 6, 1), 1996, 1, 1, true},
      {"CA-MINOR-16-17-HOURS", date(1978, 6, 1), 1995, 12, 31, false},
      {"CA-MINOR-16-17-HOURS", date(1978, 6, 1), 1996, 1, 1, true},
  };
  for (const Case& c : cases) {
    TestSite s("America/Los_Angeles", "us-ca");
    s.person("kid", 1600, c.birth);
    const int y = static_cast<int>(c.year);
    s.shift("s", at(y, c.month, c.day, 9), at(y, c.month, c.day, 17, 1));
    const Verdict v = s.evaluate("kid", "s");
    const RuleEvaluation* e = v.find(c.ruleId);
    BOOST_TEST((e != nullptr) == c.inForce, c.ruleId << " on " << c.year << "-" << c.day);
    if (e == nullptr) continue;
    BOOST_TEST((e->result == EvalResult::kFail), e->detail);
    BOOST_TEST(exceeded(*e, "nonSchoolDay"), e->detail);
  }
}

// Not during school hours on a school day: 29 CFR 570.35(a)(1) "Outside of school hours"
// (US-FLSA-MINOR-14-15-HOURS) and Labor Code 1391(a)(2) "nor during school hours"
// (CA-MINOR-14-15-HOURS), with the calendar's hours 08:00-15:00. Work may end as school starts
// and start as it ends. Monday 2026-10-05 is a school day, Saturday 10-10 is not. Neither rule
// reaches a 17-year-old (1391(a)(4) limits hours, not school hours).
BOOST_AUTO_TEST_CASE(fourteen_fifteen_not_during_school_hours) {
  struct Case {
    const char* name;
    site::Date birth;
    LocalTime start, end;
    bool pass;
  };
  const site::Date fifteen = date(2011, 1, 15);
  const Case cases[] = {
      {"07:00-08:00, ends as school starts", fifteen, at(2026, 10, 5, 7), at(2026, 10, 5, 8), true},
      {"07:00-08:01", fifteen, at(2026, 10, 5, 7), at(2026, 10, 5, 8, 1), false},
      {"15:00-18:00, starts as school ends", fifteen, at(2026, 10, 5, 15), at(2026, 10, 5, 18),
       true},
      {"14:59-17:59", fifteen, at(2026, 10, 5, 14, 59), at(2026, 10, 5, 17, 59), false},
      {"10:00-12:00 on a Saturday", fifteen, at(2026, 10, 10, 10), at(2026, 10, 10, 12), true},
  };
  for (const char* ruleId : {"US-FLSA-MINOR-14-15-HOURS", "CA-MINOR-14-15-HOURS"}) {
    for (const Case& c : cases) {
      TestSite s("America/Los_Angeles", "us-ca");
      schoolWeekOfOctober5(s);
      s.model.schoolCalendar.schoolHours = site::SchoolHours{8 * 60, 15 * 60};
      s.person("kid", 1600, c.birth);
      s.shift("s", c.start, c.end);
      const Verdict v = s.evaluate("kid", "s");
      const RuleEvaluation& e = finding(v, ruleId);
      BOOST_TEST((e.result == (c.pass ? EvalResult::kPass : EvalResult::kFail)),
                 ruleId << ", " << c.name << ": " << e.detail);
      BOOST_TEST(exceeded(e, "schoolHours") == !c.pass, ruleId << ", " << c.name);
      if (!c.pass) {
        BOOST_TEST(e.detail.find("school hours on a school day, 08:00-15:00 (2026-10-05)") !=
                       std::string::npos,
                   e.detail);
        BOOST_TEST((v.kind == VerdictKind::kDenied), c.name);
      }
    }
  }
  TestSite s("America/Los_Angeles", "us-ca");
  schoolWeekOfOctober5(s);
  s.model.schoolCalendar.schoolHours = site::SchoolHours{8 * 60, 15 * 60};
  s.person("seventeen", 1600, date(2009, 3, 1));
  s.shift("s", at(2026, 10, 5, 9), at(2026, 10, 5, 12));
  const Verdict v = s.evaluate("seventeen", "s");
  BOOST_TEST((finding(v, "CA-MINOR-16-17-HOURS").result == EvalResult::kPass));
  BOOST_TEST((v.kind == VerdictKind::kAllowed));
}

// A school day whose hours the calendar does not give: the school-hours limit is not evaluated
// and the finding says so rather than guess; the other limits still decide.
BOOST_AUTO_TEST_CASE(school_day_without_hours_is_not_evaluated_for_school_hours) {
  TestSite s("America/Los_Angeles", "us-ca");
  schoolWeekOfOctober5(s);
  s.person("kid", 1600, date(2011, 1, 15));
  s.shift("morning", at(2026, 10, 5, 10), at(2026, 10, 5, 12));
  s.shift("long", at(2026, 10, 6, 10), at(2026, 10, 6, 14));
  for (const char* ruleId : {"US-FLSA-MINOR-14-15-HOURS", "CA-MINOR-14-15-HOURS"}) {
    const Verdict morning = s.evaluate("kid", "morning");
    const RuleEvaluation& e = finding(morning, ruleId);
    BOOST_TEST((e.result == EvalResult::kPass), e.detail);
    BOOST_TEST(textInput(e, "schoolHours") == "unknown");
    BOOST_TEST(e.detail.find("not evaluated for school hours: 2026-10-05 is a school day") !=
                   std::string::npos,
               e.detail);
    // 4 h on a school day fails the 3 h limit; the note still follows.
    const Verdict long4h = s.evaluate("kid", "long");
    const RuleEvaluation& f = finding(long4h, ruleId);
    BOOST_TEST((f.result == EvalResult::kFail), f.detail);
    BOOST_TEST(exceeded(f, "schoolDay"), f.detail);
    BOOST_TEST(!exceeded(f, "schoolHours"), f.detail);
    BOOST_TEST(f.detail.find("; not evaluated for school hours") != std::string::npos, f.detail);
  }
}

// Federal and California law both limit a 15-year-old (US-FLSA-MINOR-14-15-HOURS and
// CA-MINOR-14-15-HOURS): both are checked and each failing one is reported under its own id.
// The federal rule does not reach a 17-year-old; California's 16-17 rule does.
BOOST_AUTO_TEST_CASE(federal_and_state_limits_are_each_reported) {
  TestSite s("America/Los_Angeles", "us-ca");
  s.person("fifteen", 1600, date(2011, 1, 15));
  s.person("seventeen", 1600, date(2009, 3, 1));
  s.shift("late", at(2026, 10, 10, 15), at(2026, 10, 10, 19, 1));
  const Verdict young = s.evaluate("fifteen", "late");
  BOOST_TEST((finding(young, "US-FLSA-MINOR-14-15-HOURS").result == EvalResult::kFail));
  BOOST_TEST((finding(young, "CA-MINOR-14-15-HOURS").result == EvalResult::kFail));
  BOOST_TEST((finding(young, "CA-MINOR-16-17-HOURS").result == EvalResult::kNotApplicable));
  BOOST_TEST((young.kind == VerdictKind::kDenied));
  const Verdict older = s.evaluate("seventeen", "late");
  BOOST_TEST((finding(older, "US-FLSA-MINOR-14-15-HOURS").result == EvalResult::kNotApplicable));
  BOOST_TEST((finding(older, "CA-MINOR-16-17-HOURS").result == EvalResult::kPass));
  BOOST_TEST((older.kind == VerdictKind::kAllowed));
}

// Strictest wins where the limits differ: a state window that ends at 18:00 fails a shift the
// federal 19:00 allows; the verdict is denied and only the state rule fails (tables of a test
// jurisdiction "us-xx" over a federal "us").
BOOST_AUTO_TEST_CASE(a_stricter_state_limit_denies_on_its_own) {
  const auto minorRule = [](const std::string& id, const std::string& windowEnd) {
    return R"({"id":")" + id + R"(","kind":"minor_hours","summary":"s","params":{"minAge":14,)" +
           R"("maxAge":15,"nonSchoolDayMaxMinutes":480,"windowStart":"07:00","windowEnd":")" +
           windowEnd + R"("},"effectiveFrom":"2000-01-01","source":{"title":"t",)" +
           R"("url":"https://example.org/law","section":"1"}})";
  };
  atoms::testing::TempDir dir;
  dir.write("us.json", R"({"code":"us","name":"us","parent":null,"rules":[)" +
                           minorRule("US-MINOR-TEST", "19:00") + "]}");
  dir.write("us-xx.json", R"({"code":"us-xx","name":"xx","parent":"us","rules":[)" +
                              minorRule("XX-MINOR-TEST", "18:00") + "]}");
  TestSite s("America/Los_Angeles", "us-xx", dir.path());
  s.person("kid", 1600, date(2011, 1, 15));
  s.shift("s", at(2026, 10, 10, 14), at(2026, 10, 10, 18, 30));
  const Verdict v = s.evaluate("kid", "s");
  BOOST_TEST((finding(v, "US-MINOR-TEST").result == EvalResult::kPass));
  BOOST_TEST((finding(v, "XX-MINOR-TEST").result == EvalResult::kFail));
  BOOST_TEST((v.kind == VerdictKind::kDenied));
}

// A person declared a minor with no birth date cannot be checked: denied until it is added.
BOOST_AUTO_TEST_CASE(minor_without_birth_date_is_denied) {
  TestSite s("America/Los_Angeles", "us-ca");
  site::Person& p = s.person("kid", 1600, std::nullopt);
  p.minor = true;
  s.shift("s", at(2026, 10, 10, 9), at(2026, 10, 10, 12));
  const Verdict v = s.evaluate("kid", "s");
  BOOST_TEST((finding(v, "CA-MINOR-16-17-HOURS").result == EvalResult::kFail));
  BOOST_TEST((v.kind == VerdictKind::kDenied));
}

// Without a school calendar every day counts as a non-school day, and a failing finding says so.
BOOST_AUTO_TEST_CASE(missing_school_calendar_is_called_out) {
  TestSite s("America/Los_Angeles", "us");
  s.person("kid", 1600, date(2011, 1, 15));
  s.shift("s", at(2026, 10, 6, 9), at(2026, 10, 6, 17, 30));
  const Verdict verdict = s.evaluate("kid", "s");
  const RuleEvaluation& e = finding(verdict, "US-FLSA-MINOR-14-15-HOURS");
  BOOST_TEST((e.result == EvalResult::kFail));
  BOOST_TEST(e.detail.find("no school calendar") != std::string::npos, e.detail);
}

// NY-MINOR-14-15-HOURS, Labor Law 142: (1)(a) 3 h on a school day, (1)(b) 8 h on another day of a
// school week, (1)(e) and (2)(d) 7:00-19:00, until 21:00 "between the twenty-first day of June
// and Labor day" only "when school is not in session" (a week without school). A 14-year-old in
// January, 15 in June and September (born 2012-03-01). The federal rule allows 21:00 from June 1
// whatever the week (570.35(a)(6)): on Thursday 2027-06-17, a school day, New York alone denies.
BOOST_AUTO_TEST_CASE(new_york_fourteen_fifteen_days_and_hours) {
  checkNewYorkCases(
      "NY-MINOR-14-15-HOURS", date(2012, 3, 1),
      {
          {"3 h on a school day", at(2027, 1, 4, 15), at(2027, 1, 4, 18), true, ""},
          {"3 h 1 min on a school day", at(2027, 1, 4, 15), at(2027, 1, 4, 18, 1), false,
           "schoolDay"},
          {"8 h on a Saturday", at(2027, 1, 9, 9), at(2027, 1, 9, 17), true, ""},
          {"8 h 1 min on a Saturday", at(2027, 1, 9, 9), at(2027, 1, 9, 17, 1), false,
           "nonSchoolDay"},
          {"ends 19:00", at(2027, 1, 9, 15), at(2027, 1, 9, 19), true, ""},
          {"ends 19:01", at(2027, 1, 9, 15), at(2027, 1, 9, 19, 1), false, "window"},
          {"starts 06:59", at(2027, 1, 9, 6, 59), at(2027, 1, 9, 10), false, "window"},
          {"a school day in June until 20:00", at(2027, 6, 17, 17), at(2027, 6, 17, 20), false,
           "window"},
          {"June 20, no school, until 21:00", at(2027, 6, 20, 17), at(2027, 6, 20, 21), false,
           "window"},
          {"June 21, no school, until 21:00", at(2027, 6, 21, 17), at(2027, 6, 21, 21), true, ""},
          {"June 21, no school, until 21:01", at(2027, 6, 21, 17), at(2027, 6, 21, 21, 1), false,
           "window"},
          {"Labor Day until 21:00", at(2027, 9, 6, 17), at(2027, 9, 6, 21), true, ""},
          {"the day after Labor Day until 21:00", at(2027, 9, 7, 17), at(2027, 9, 7, 21), false,
           "window"},
          {"school hours", at(2027, 1, 5, 14), at(2027, 1, 5, 16), false, "schoolHours"},
      });
  TestSite s("America/New_York", "us-ny");
  newYorkCalendar(s);
  s.person("kid", 1600, date(2012, 3, 1));
  s.shift("s", at(2027, 6, 17, 17), at(2027, 6, 17, 20));
  const Verdict v = s.evaluate("kid", "s");
  BOOST_TEST((finding(v, "US-FLSA-MINOR-14-15-HOURS").result == EvalResult::kPass));
}

// NY-MINOR-16-17-HOURS, Labor Law 143(1): (a)(i) 4 h "on any day preceding a school day, other
// than on a Sunday or holiday", (b) 8 h on a Friday, Saturday, Sunday or holiday, (e)-(g) 6:00 to
// 22:00 (midnight only with documents the site does not hold: refused); 143(2) and the
// Department's chart: 6:00 to midnight in a week without school. A 16-year-old (born
// 2010-03-01). The holiday Monday 2027-01-18 before a school day is held to 4 h: the calendar
// does not know holidays.
BOOST_AUTO_TEST_CASE(new_york_sixteen_seventeen_days_and_hours) {
  checkNewYorkCases(
      "NY-MINOR-16-17-HOURS", date(2010, 3, 1),
      {
          {"4 h on a Tuesday before a school day", at(2027, 1, 5, 15), at(2027, 1, 5, 19), true,
           ""},
          {"4 h 1 min on a Tuesday before a school day", at(2027, 1, 5, 15), at(2027, 1, 5, 19, 1),
           false, "beforeSchoolDay"},
          {"7 h on a Friday after school", at(2027, 1, 8, 15), at(2027, 1, 8, 22), true, ""},
          {"8 h on a Sunday before a school day", at(2027, 1, 3, 9), at(2027, 1, 3, 17), true, ""},
          {"8 h 1 min on a Sunday", at(2027, 1, 3, 9), at(2027, 1, 3, 17, 1), false,
           "nonSchoolDay"},
          {"5 h on a holiday Monday before a school day", at(2027, 1, 18, 9), at(2027, 1, 18, 14),
           false, "beforeSchoolDay"},
          {"ends 22:00 in a school week", at(2027, 1, 9, 18), at(2027, 1, 9, 22), true, ""},
          {"ends 22:01 in a school week", at(2027, 1, 9, 18), at(2027, 1, 9, 22, 1), false,
           "window"},
          {"starts 06:00", at(2027, 1, 9, 6), at(2027, 1, 9, 10), true, ""},
          {"starts 05:59", at(2027, 1, 9, 5, 59), at(2027, 1, 9, 10), false, "window"},
          {"until midnight without school", at(2027, 1, 16, 18), at(2027, 1, 17, 0), true, ""},
          {"until 00:01 without school", at(2027, 1, 16, 18), at(2027, 1, 17, 0, 1), false,
           "window"},
          {"school hours", at(2027, 1, 6, 14), at(2027, 1, 6, 16), false, "schoolHours"},
      });
}

// The week limits, with the shifts of the week already assigned: 142(1)(c) 18 h in a school week,
// 143(1)(c) 28 h, and "More than six days a week" (142(1)(d), 142(2)(b), 143(1)(d)): a seventh day
// of work in one week (from Sunday) is refused even when the hours are within the limits.
BOOST_AUTO_TEST_CASE(new_york_week_limits_and_seventh_day) {
  struct Worked {
    unsigned day;
    int startHour, endHour, endMinute;
  };
  struct Case {
    const char* name;
    const char* ruleId;
    site::Date birth;
    std::vector<Worked> before;  // assigned first
    Worked probe;                // evaluated
    bool pass;
    const char* limit;
  };
  const site::Date fourteen = date(2012, 3, 1);
  const site::Date sixteen = date(2010, 3, 1);
  const std::vector<Worked> fifteenHours{
      {4, 15, 18, 0}, {5, 15, 18, 0}, {6, 15, 18, 0}, {7, 15, 18, 0}, {8, 15, 18, 0}};
  const std::vector<Worked> twentyThreeHours{
      {4, 15, 19, 0}, {5, 15, 19, 0}, {6, 15, 19, 0}, {7, 15, 19, 0}, {8, 15, 22, 0}};
  const std::vector<Worked> sixDaysNoSchool{{10, 9, 13, 0}, {11, 9, 13, 0}, {12, 9, 13, 0},
                                            {13, 9, 13, 0}, {14, 9, 13, 0}, {15, 9, 13, 0}};
  const Case cases[] = {
      {"18 h in a school week",
       "NY-MINOR-14-15-HOURS",
       fourteen,
       fifteenHours,
       {9, 10, 13, 0},
       true,
       ""},
      {"18 h 1 min in a school week",
       "NY-MINOR-14-15-HOURS",
       fourteen,
       fifteenHours,
       {9, 10, 13, 1},
       false,
       "schoolWeek"},
      {"28 h in a school week",
       "NY-MINOR-16-17-HOURS",
       sixteen,
       twentyThreeHours,
       {9, 10, 15, 0},
       true,
       ""},
      {"28 h 1 min in a school week",
       "NY-MINOR-16-17-HOURS",
       sixteen,
       twentyThreeHours,
       {9, 10, 15, 1},
       false,
       "schoolWeek"},
      {"6th day, 14",
       "NY-MINOR-14-15-HOURS",
       fourteen,
       {sixDaysNoSchool.begin(), sixDaysNoSchool.end() - 1},
       {15, 9, 13, 0},
       true,
       ""},
      {"7th day, 14",
       "NY-MINOR-14-15-HOURS",
       fourteen,
       sixDaysNoSchool,
       {16, 9, 13, 0},
       false,
       "daysPerWeek"},
      {"7th day, 16",
       "NY-MINOR-16-17-HOURS",
       sixteen,
       sixDaysNoSchool,
       {16, 9, 13, 0},
       false,
       "daysPerWeek"},
      {"Sunday after Monday to Saturday: a new week",
       "NY-MINOR-16-17-HOURS",
       sixteen,
       {{11, 9, 13, 0},
        {12, 9, 13, 0},
        {13, 9, 13, 0},
        {14, 9, 13, 0},
        {15, 9, 13, 0},
        {16, 9, 13, 0}},
       {17, 9, 13, 0},
       true,
       ""},
  };
  for (const Case& c : cases) {
    TestSite s("America/New_York", "us-ny");
    newYorkCalendar(s);
    s.person("kid", 1600, c.birth);
    int n = 0;
    for (const Worked& w : c.before) {
      s.shift("w" + std::to_string(n++), at(2027, 1, w.day, w.startHour),
              at(2027, 1, w.day, w.endHour, w.endMinute), "kid");
    }
    s.shift("probe", at(2027, 1, c.probe.day, c.probe.startHour),
            at(2027, 1, c.probe.day, c.probe.endHour, c.probe.endMinute));
    const Verdict v = s.evaluate("kid", "probe");
    const RuleEvaluation& e = finding(v, c.ruleId);
    BOOST_TEST((e.result == (c.pass ? EvalResult::kPass : EvalResult::kFail)),
               c.name << ": " << e.detail);
    if (!c.pass) BOOST_TEST(exceeded(e, c.limit), c.name << ": " << e.detail);
    if (std::string(c.limit) == "daysPerWeek") {
      BOOST_TEST(e.detail.find("7 days of work in the week of 2027-01-10, over the 6 allowed") !=
                     std::string::npos,
                 e.detail);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::labor::testing
