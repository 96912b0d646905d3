#include <boost/test/unit_test.hpp>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/labor/change_test_site.h"
#include "tests/support/text_checks.h"

// Predictive-scheduling rules (domain/labor/fair_workweek.h): advance notice of a published
// schedule, change premiums, the right to decline added hours. Every case names the rule id of
// etc/labor and the source its value comes from (the rule's "source" in the table).

namespace atoms::labor {

using namespace testing;
using atoms::testing::contains;
using std::chrono::days;
using std::chrono::hours;
using std::chrono::minutes;

namespace {

// The advance_notice evaluation of `ruleId` for `personId` among publish findings.
const RuleEvaluation* noticeFor(const std::vector<RuleEvaluation>& findings,
                                std::string_view ruleId, std::string_view personId) {
  for (const RuleEvaluation& e : findings) {
    if (e.ruleId == ruleId && e.input.at("personId").asString() == personId) return &e;
  }
  return nullptr;
}

// Publishing `shiftIds` as one version at `publishedAt`: the notice finding of `ruleId` for
// `personId`.
RuleEvaluation noticeOnPublish(ChangeTestSite& s, const std::vector<std::string>& shiftIds,
                               Instant publishedAt, std::string_view ruleId,
                               std::string_view personId) {
  auto findings =
      s.fairWorkweek().publishFindings(site::ScheduleVersion{"v", {}, shiftIds}, publishedAt);
  BOOST_TEST_REQUIRE(findings.ok(), findings.message());
  const RuleEvaluation* e = noticeFor(*findings, ruleId, personId);
  BOOST_TEST_REQUIRE(e != nullptr, "no " << ruleId << " finding for " << personId);
  return *e;
}

enum class Kind { kExtend, kMove, kCut, kCancel };

// A change to the site's shift "s" (start..end): extended or cut at its end by `by`, moved an
// hour later, or cancelled.
ScheduleChange changeOf(const ChangeTestSite& s, Kind kind, LocalTime start, LocalTime end,
                        minutes by) {
  switch (kind) {
    case Kind::kExtend:
      return ScheduleChange{ExtendShift{"s", s.stamp(start), s.stamp(end + by)}};
    case Kind::kMove: {  // later by `by`, or by an hour
      const minutes shift = by > minutes{0} ? by : minutes{60};
      return ScheduleChange{
          MoveShift{"s", s.stamp(start + shift), s.stamp(end + shift), std::nullopt}};
    }
    case Kind::kCut:
      return ScheduleChange{CutShift{"s", false, s.stamp(start), s.stamp(end - by)}};
    case Kind::kCancel:
      break;
  }
  return ScheduleChange{CutShift{"s", true, {}, {}}};
}

std::vector<std::string> idsIn(const RuleEvaluation& e, const std::string& key) {
  std::vector<std::string> out;
  for (const json::Value& v : e.input.at(key).asArray()) out.push_back(v.asString());
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(fair_workweek)

// Advance notice counted as the ordinances count it: calendar days from the day a schedule is
// published to the first day of that schedule, whatever the hour (OAR 839-026-0030(2): "at least
// 14 calendar days before the first day of the work schedule"; MCC 6-110-050(a): "days before the
// first day of any new schedule"; the other cities' "14 days in advance" of the schedule). A
// schedule that starts on the 20th may be posted until the 6th at 23:59; from the 7th at 00:00 it
// is late, for every shift on it (denied: the box does not publish it on its own).
BOOST_AUTO_TEST_CASE(advance_notice_is_calendar_days_before_the_first_day_of_the_schedule) {
  struct Case {
    const char* jurisdiction;
    const char* zone;
    const char* industry;
    const char* ruleId;
    int days;
    const char* source;
  };
  const Case cases[] = {
      {"us-ny-nyc", "America/New_York", "fast_food", "NYC-FWW-NOTICE-14D", 14,
       "NYC Admin. Code 20-1221 (DCWP: 14 days in advance of the start of the schedule)"},
      {"us-wa-seattle", "America/Los_Angeles", "retail", "SEA-SSO-NOTICE-14D", 14,
       "SMC 14.22 (14 calendar days before the first day of the work schedule)"},
      {"us-or", "America/Los_Angeles", "retail", "OR-PS-NOTICE", 14, "OAR 839-026-0030(2)"},
      {"us-il-chicago", "America/Chicago", "retail", "CHI-FWW-NOTICE", 14, "MCC 6-110-050(a)"},
      {"us-il-evanston", "America/Chicago", "retail", "EVN-FWW-NOTICE-14D", 14,
       "Evanston City Code 3-34"},
      {"us-pa-philadelphia", "America/New_York", "retail", "PHL-FWW-NOTICE", 14,
       "Phila. Code 9-4602(3), from 2021"},
      {"us-ca-los-angeles", "America/Los_Angeles", "retail", "LA-FWW-NOTICE-14D", 14,
       "LAMC Ch. XVIII Art. 5"},
      {"us-ca-san-francisco", "America/Los_Angeles", "retail", "SF-FRERO-NOTICE-14D", 14,
       "SF L&E Code 42.4(b)"},
      {"us-ca-berkeley", "America/Los_Angeles", "retail", "BRK-FWW-NOTICE-14D", 14, "BMC 13.102"},
      {"us-ca-emeryville", "America/Los_Angeles", "retail", "EMV-FWW-NOTICE-14D", 14,
       "EMC 5-39.03"},
  };
  for (const Case& c : cases) {
    BOOST_TEST_CONTEXT(c.ruleId << " (" << c.source << ")") {
      ChangeTestSite s(c.zone, {c.jurisdiction}, c.industry);
      s.person("ana");
      s.shift("first", at(2026, 10, 20, 9), at(2026, 10, 20, 17), "ana");
      s.shift("later", at(2026, 10, 24, 9), at(2026, 10, 24, 17), "ana");
      const std::vector<std::string> shifts{"first", "later"};
      const unsigned lastDay = 20 - static_cast<unsigned>(c.days);

      const RuleEvaluation pass =
          noticeOnPublish(s, shifts, s.instant(at(2026, 10, lastDay, 23, 59)), c.ruleId, "ana");
      BOOST_TEST(name(pass.result) == "pass");
      BOOST_TEST(intInput(pass, "noticeDays") == c.days);
      BOOST_TEST(intInput(pass, "requiredDays") == c.days);
      BOOST_TEST(textInput(pass, "measuredTo") == "first_day_of_schedule");
      BOOST_TEST(textInput(pass, "scheduleFirstDay") == "2026-10-20");

      const RuleEvaluation fail =
          noticeOnPublish(s, shifts, s.instant(at(2026, 10, lastDay + 1, 0, 0)), c.ruleId, "ana");
      BOOST_TEST(name(fail.result) == "fail");
      BOOST_TEST(name(fail.effect) == "denied");
      BOOST_TEST(intInput(fail, "noticeDays") == c.days - 1);
      BOOST_TEST(idsIn(fail, "lateShiftIds") == (std::vector<std::string>{"first", "later"}),
                 boost::test_tools::per_element());
      BOOST_TEST(contains(fail.detail, std::to_string(c.days - 1) +
                                           " days before its first day (2026-10-20); " +
                                           std::to_string(c.days) + " calendar days"),
                 fail.detail);
    }
  }
}

// NYC retail (Admin. Code 20-1251: "72 hours before the first shift on the schedule") counts
// hours to the shifts themselves: 72 h before the first passes, a minute less fails, and only the
// shift that is short of notice is late.
BOOST_AUTO_TEST_CASE(nyc_retail_notice_is_72_hours_before_the_shift) {
  ChangeTestSite s("America/New_York", {"us-ny-nyc"}, "retail");
  s.person("ana");
  s.shift("first", at(2026, 10, 20, 9), at(2026, 10, 20, 17), "ana");
  s.shift("later", at(2026, 10, 24, 9), at(2026, 10, 24, 17), "ana");
  const std::vector<std::string> shifts{"first", "later"};
  const Instant start = s.instant(at(2026, 10, 20, 9));
  const char* id = "NYC-FWW-RETAIL-NOTICE-72H";
  const RuleEvaluation pass = noticeOnPublish(s, shifts, start - hours{72}, id, "ana");
  BOOST_TEST(name(pass.result) == "pass");
  BOOST_TEST(intInput(pass, "noticeMinutes") == 72 * 60);
  BOOST_TEST(textInput(pass, "measuredTo") == "each_shift");
  const RuleEvaluation fail = noticeOnPublish(s, shifts, start - hours{72} + minutes{1}, id, "ana");
  BOOST_TEST(name(fail.result) == "fail");
  BOOST_TEST(intInput(fail, "noticeMinutes") == 72 * 60 - 1);
  BOOST_TEST(idsIn(fail, "lateShiftIds") == std::vector<std::string>{"first"},
             boost::test_tools::per_element());
}

// PHL-FWW-NOTICE (Phila. Code 9-4602(3), as phased in): 10 days for schedules in 2020, 14 days
// from 2021-01-01.
BOOST_AUTO_TEST_CASE(philadelphia_notice_is_ten_days_in_2020_then_fourteen) {
  struct Case {
    int year;
    int requiredDays;
    const char* result;
  };
  const Case cases[] = {{2020, 10, "pass"}, {2021, 14, "fail"}};
  for (const Case& c : cases) {
    ChangeTestSite s("America/New_York", {"us-pa-philadelphia"});
    s.person("bo");
    s.shift("s", at(c.year, 6, 20, 10), at(c.year, 6, 20, 18), "bo");
    const RuleEvaluation e =
        noticeOnPublish(s, {"s"}, s.instant(at(c.year, 6, 9, 12)), "PHL-FWW-NOTICE", "bo");
    BOOST_TEST(intInput(e, "requiredDays") == c.requiredDays);
    BOOST_TEST(intInput(e, "noticeDays") == 11);
    BOOST_TEST(name(e.result) == c.result);
  }
}

// CHI-FWW-NOTICE (MCC 6-110; chicago.gov BACP): 10 days for shifts until 2022-06-30, 14 days
// from 2022-07-01. The version in force on each shift's own date decides.
BOOST_AUTO_TEST_CASE(chicago_notice_is_ten_then_fourteen_days_by_shift_date) {
  struct Case {
    unsigned month, day;
    int requiredDays;
    const char* result;
  };
  const Case cases[] = {{6, 30, 10, "pass"}, {7, 1, 14, "fail"}};
  for (const Case& c : cases) {
    ChangeTestSite s("America/Chicago", {"us-il-chicago"});
    s.person("bo");
    s.shift("s", at(2022, c.month, c.day, 10), at(2022, c.month, c.day, 18), "bo");
    const Instant published = s.instant(at(2022, c.month, c.day, 10)) - days{11};
    const RuleEvaluation e = noticeOnPublish(s, {"s"}, published, "CHI-FWW-NOTICE", "bo");
    BOOST_TEST(intInput(e, "requiredDays") == c.requiredDays);
    BOOST_TEST(name(e.result) == c.result);
  }
}

// OR-PS-NOTICE (ORS 653.436, BOLI): 7 days until 2020-06-30, 14 days from 2020-07-01.
BOOST_AUTO_TEST_CASE(oregon_notice_was_seven_days_before_july_2020) {
  ChangeTestSite s("America/Los_Angeles", {"us-or"});
  s.person("cy");
  s.shift("june", at(2020, 6, 30, 9), at(2020, 6, 30, 17), "cy");
  const Instant published = s.instant(at(2020, 6, 22, 9));  // 8 days ahead
  const RuleEvaluation e = noticeOnPublish(s, {"june"}, published, "OR-PS-NOTICE", "cy");
  BOOST_TEST(intInput(e, "requiredDays") == 7);
  BOOST_TEST(name(e.result) == "pass");
}

// NYC-FWW-RETAIL-NOTICE-72H across DST nights (America/New_York): notice counted in hours is the
// shorter of real elapsed time and wall-clock time, so a DST night never shaves an hour off it.
BOOST_AUTO_TEST_CASE(advance_notice_in_hours_over_dst_nights) {
  struct Case {
    LocalTime published, shiftStart;
    std::int64_t noticeMinutes;
    const char* result;
  };
  const Case cases[] = {
      // Spring forward 2026-03-08: 3 wall-clock days are 71 h of real time.
      {at(2026, 3, 6, 9), at(2026, 3, 9, 9), 72 * 60 - 60, "fail"},
      {at(2026, 3, 6, 8), at(2026, 3, 9, 9), 72 * 60, "pass"},
      // Fall back 2026-11-01: 09:30 -> 09:00 three days later is 72 h 30 min of real time but
      // 71 h 30 min on the wall clock.
      {at(2026, 10, 29, 9, 30), at(2026, 11, 1, 9), 72 * 60 - 30, "fail"},
      {at(2026, 10, 29, 9), at(2026, 11, 1, 9), 72 * 60, "pass"},
  };
  for (const Case& c : cases) {
    ChangeTestSite s("America/New_York", {"us-ny-nyc"}, "retail");
    s.person("di");
    s.shift("s", c.shiftStart, c.shiftStart + hours{6}, "di");
    const RuleEvaluation e =
        noticeOnPublish(s, {"s"}, s.instant(c.published), "NYC-FWW-RETAIL-NOTICE-72H", "di");
    BOOST_TEST(intInput(e, "noticeMinutes") == c.noticeMinutes);
    BOOST_TEST(name(e.result) == c.result);
  }
}

// A re-published version: shifts already published keep their notice; a new shift inside days
// already published is a change after publication (listed, not failed); open shifts notify
// nobody. SEA-SSO-NOTICE-14D (SMC 14.22).
BOOST_AUTO_TEST_CASE(republishing_judges_only_newly_published_periods) {
  ChangeTestSite s("America/Los_Angeles", {"us-wa-seattle"});
  s.person("ed");
  s.person("flo");
  s.shift("a", at(2026, 10, 19, 9), at(2026, 10, 19, 17), "ed");
  s.shift("b", at(2026, 10, 23, 9), at(2026, 10, 23, 17), "ed");
  s.shift("added", at(2026, 10, 21, 9), at(2026, 10, 21, 17), "flo");
  s.shift("open", at(2026, 10, 20, 9), at(2026, 10, 20, 17));
  s.shift("next-week", at(2026, 11, 2, 9), at(2026, 11, 2, 17), "ed");
  s.publish("v1", s.instant(at(2026, 10, 1, 12)), {"a", "b"});
  const site::ScheduleVersion v2{"v2", {}, {"a", "b", "added", "open", "next-week"}};
  // Published 2026-10-18: "next-week" has 15 days, "added" falls inside v1's days.
  auto findings = s.fairWorkweek().publishFindings(v2, s.instant(at(2026, 10, 18, 9)));
  BOOST_TEST_REQUIRE(findings.ok(), findings.message());
  const RuleEvaluation* ed = noticeFor(*findings, "SEA-SSO-NOTICE-14D", "ed");
  BOOST_TEST_REQUIRE(ed != nullptr);
  BOOST_TEST(name(ed->result) == "pass");
  BOOST_TEST(ed->input.at("shiftId").asString() == "next-week");
  const RuleEvaluation* flo = noticeFor(*findings, "SEA-SSO-NOTICE-14D", "flo");
  BOOST_TEST_REQUIRE(flo != nullptr);
  BOOST_TEST(name(flo->result) == "n/a");
  BOOST_TEST(idsIn(*flo, "addedShiftIds") == std::vector<std::string>{"added"},
             boost::test_tools::per_element());
  BOOST_TEST(findings->size() == 2u);  // nothing for the open shift
}

// A version that only adds a shift to days already published has no new schedule to count notice
// to: the addition is n/a here (a change after publication), and nothing is late.
BOOST_AUTO_TEST_CASE(a_version_that_only_adds_to_published_days_has_no_notice_to_judge) {
  ChangeTestSite s("America/Los_Angeles", {"us-wa-seattle"});
  s.person("ed");
  s.shift("a", at(2026, 10, 19, 9), at(2026, 10, 19, 17), "ed");
  s.shift("b", at(2026, 10, 23, 9), at(2026, 10, 23, 17), "ed");
  s.shift("added", at(2026, 10, 21, 9), at(2026, 10, 21, 17), "ed");
  s.publish("v1", s.instant(at(2026, 10, 1, 12)), {"a", "b"});
  const site::ScheduleVersion v2{"v2", {}, {"a", "b", "added"}};
  auto findings = s.fairWorkweek().publishFindings(v2, s.instant(at(2026, 10, 18, 9)));
  BOOST_TEST_REQUIRE(findings.ok(), findings.message());
  BOOST_TEST_REQUIRE(findings->size() == 1u);
  BOOST_TEST(name(findings->front().result) == "n/a");
  BOOST_TEST(idsIn(findings->front(), "addedShiftIds") == std::vector<std::string>{"added"},
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(version_naming_an_unknown_shift_is_an_error) {
  ChangeTestSite s("America/Los_Angeles", {"us-wa-seattle"});
  s.person("ed");
  auto findings = s.fairWorkweek().publishFindings(site::ScheduleVersion{"v9", {}, {"ghost"}},
                                                   s.instant(at(2026, 10, 1, 9)));
  BOOST_TEST_REQUIRE(!findings.ok());
  BOOST_TEST(findings.message() == "schedule version 'v9': unknown shift 'ghost'");
}

// NYC-FWW-CHANGE-PREMIUM (NYC Admin. Code 20-1222(a)(1)-(5)): $10 / $20 with 7 to 13 days
// notice, $15 / $45 with 24 h to 7 days, $75 for cuts with under 24 h; nothing with 14 days.
// Notice counts to the start of the shift; exactly 24 h is "24 h or more".
BOOST_AUTO_TEST_CASE(nyc_change_premiums_by_notice) {
  struct Case {
    Kind kind;
    hours notice;
    minutes extra;
    std::int64_t cents;
  };
  const Case cases[] = {
      {Kind::kExtend, hours{10 * 24}, minutes{0}, 1000},
      {Kind::kMove, hours{10 * 24}, minutes{0}, 1000},
      {Kind::kCut, hours{10 * 24}, minutes{0}, 2000},
      {Kind::kCancel, hours{10 * 24}, minutes{0}, 2000},
      {Kind::kExtend, hours{3 * 24}, minutes{0}, 1500},
      {Kind::kMove, hours{3 * 24}, minutes{0}, 1500},
      {Kind::kCut, hours{3 * 24}, minutes{0}, 4500},
      {Kind::kCancel, hours{24}, minutes{0}, 4500},   // exactly 24 h
      {Kind::kCancel, hours{23}, minutes{59}, 7500},  // 23 h 59 min
      {Kind::kCut, hours{12}, minutes{0}, 7500},
      {Kind::kCancel, hours{14 * 24}, minutes{0}, 0},  // 14 days: no premium
      {Kind::kCancel, hours{13 * 24 + 23}, minutes{59}, 2000},
  };
  for (const Case& c : cases) {
    ChangeTestSite s("America/New_York", {"us-ny-nyc"}, "fast_food");
    s.person("gus");
    s.shift("s", at(2026, 10, 20, 10), at(2026, 10, 20, 18), "gus");
    s.publish("v1", s.instant(at(2026, 9, 20, 9)), {"s"});
    const Instant now = s.instant(at(2026, 10, 20, 10)) - c.notice - c.extra;
    // Extended by 1 h, moved 1 h later, cut to 4 h, or cancelled.
    const ScheduleChange change = changeOf(s, c.kind, at(2026, 10, 20, 10), at(2026, 10, 20, 18),
                                           c.kind == Kind::kCut ? minutes{240} : minutes{60});
    BOOST_TEST_CONTEXT("case " << static_cast<int>(c.kind) << " notice " << c.notice.count()
                               << " h " << c.extra.count() << " min") {
      const ChangeVerdict v = s.evaluate(change, now);
      const RuleEvaluation& e = findingOf(personOf(v, "gus"), "NYC-FWW-CHANGE-PREMIUM");
      BOOST_TEST(e.premiumCents == c.cents);
      BOOST_TEST(name(e.result) == (c.cents > 0 ? "threshold_exceeded" : "pass"));
      BOOST_TEST(v.premiumCents >= c.cents);
      if (c.cents > 0) {
        BOOST_TEST(v.approvers == std::vector<std::string>{"manager-1"},
                   boost::test_tools::per_element());
      }
    }
  }
}

// Per-city premiums for the same kinds of change, at $20.00/h, each from its table's source.
BOOST_AUTO_TEST_CASE(change_premiums_per_city) {
  struct Case {
    const char* jurisdiction;
    const char* zone;
    const char* ruleId;
    Kind kind;
    int extendOrCutMinutes;  // extension, or minutes cut from the end of an 8 h shift
    hours notice;
    std::int64_t cents;
    std::int64_t premiumMinutes;
    const char* source;
  };
  const Case cases[] = {
      // Seattle: one hour of pay for added hours; half the rate for hours cut or cancelled.
      {"us-wa-seattle", "America/Los_Angeles", "SEA-SSO-PREDICTABILITY-PAY", Kind::kExtend, 120,
       hours{72}, 2000, 60, "SMC 14.22 predictability pay"},
      {"us-wa-seattle", "America/Los_Angeles", "SEA-SSO-PREDICTABILITY-PAY", Kind::kCut, 240,
       hours{72}, 4000, 240, "SMC 14.22: 4 h cut x 0.5 x $20"},
      {"us-wa-seattle", "America/Los_Angeles", "SEA-SSO-PREDICTABILITY-PAY", Kind::kCancel, 0,
       hours{72}, 8000, 480, "SMC 14.22: 8 h cancelled x 0.5 x $20"},
      {"us-wa-seattle", "America/Los_Angeles", "SEA-SSO-PREDICTABILITY-PAY", Kind::kMove, 0,
       hours{72}, 2000, 60, "SMC 14.22 (OLS): a shift's time changed with no loss of hours"},
      // Oregon: added work counts only over 30 minutes.
      {"us-or", "America/Los_Angeles", "OR-PS-PREDICTABILITY-PAY", Kind::kExtend, 30, hours{72}, 0,
       0, "ORS 653.455: exactly 30 min added"},
      {"us-or", "America/Los_Angeles", "OR-PS-PREDICTABILITY-PAY", Kind::kExtend, 31, hours{72},
       2000, 60, "ORS 653.455: 31 min added"},
      {"us-or", "America/Los_Angeles", "OR-PS-PREDICTABILITY-PAY", Kind::kCut, 240, hours{72}, 4000,
       240, "ORS 653.455: half the rate for hours not worked"},
      // ORS 653.455(3)(a): no compensation when the start or end time changes by 30 min or less.
      {"us-or", "America/Los_Angeles", "OR-PS-PREDICTABILITY-PAY", Kind::kCut, 30, hours{72}, 0, 0,
       "ORS 653.455(3)(a): ended 30 min early"},
      {"us-or", "America/Los_Angeles", "OR-PS-PREDICTABILITY-PAY", Kind::kCut, 31, hours{72}, 517,
       31, "ORS 653.455: ended 31 min early, 31 min x 0.5 x $20"},
      {"us-or", "America/Los_Angeles", "OR-PS-PREDICTABILITY-PAY", Kind::kMove, 30, hours{72}, 0, 0,
       "ORS 653.455(3)(a): moved 30 min later"},
      {"us-or", "America/Los_Angeles", "OR-PS-PREDICTABILITY-PAY", Kind::kMove, 31, hours{72}, 2000,
       60, "ORS 653.455(2)(a): moved 31 min later"},
      // Chicago (from 2022-07-01): under 24 h, half the rate for hours cut.
      {"us-il-chicago", "America/Chicago", "CHI-FWW-PREDICTABILITY-PAY", Kind::kCancel, 0,
       hours{20}, 8000, 480, "MCC 6-110: cancelled under 24 h"},
      {"us-il-chicago", "America/Chicago", "CHI-FWW-PREDICTABILITY-PAY", Kind::kCancel, 0,
       hours{48}, 2000, 60, "MCC 6-110: cancelled with 24 h to 14 days"},
      // Los Angeles: one hour for moves, half the rate for reductions of at least 15 minutes.
      {"us-ca-los-angeles", "America/Los_Angeles", "LA-FWW-PREDICTABILITY-PAY", Kind::kCut, 15,
       hours{72}, 250, 15, "LAMC predictability pay A.2: 15 min x 0.5 x $20"},
      {"us-ca-los-angeles", "America/Los_Angeles", "LA-FWW-PREDICTABILITY-PAY", Kind::kCut, 14,
       hours{72}, 0, 0, "LAMC predictability pay A.2: under 15 min"},
      {"us-ca-los-angeles", "America/Los_Angeles", "LA-FWW-PREDICTABILITY-PAY", Kind::kMove, 0,
       hours{72}, 2000, 60, "LAMC predictability pay A.1(a)"},
      // Philadelphia: half the rate for hours not worked; one hour for a move.
      {"us-pa-philadelphia", "America/New_York", "PHL-FWW-PREDICTABILITY-PAY", Kind::kCancel, 0,
       hours{72}, 8000, 480, "Phila. Code 9-4603(1)(b)"},
      {"us-pa-philadelphia", "America/New_York", "PHL-FWW-PREDICTABILITY-PAY", Kind::kMove, 0,
       hours{72}, 2000, 60, "Phila. Code 9-4603(1)(a)"},
      // San Francisco: 1 h with 24 h to 7 days; a cancelled shift over 4 h under 24 h: 4 h.
      {"us-ca-san-francisco", "America/Los_Angeles", "SF-FRERO-PREDICTABILITY-PAY", Kind::kCancel,
       0, hours{72}, 2000, 60, "SF Art. 42.4(c): under 7 days"},
      {"us-ca-san-francisco", "America/Los_Angeles", "SF-FRERO-PREDICTABILITY-PAY", Kind::kCancel,
       0, hours{12}, 8000, 240, "SF Art. 42.4(c): 8 h shift cancelled under 24 h"},
      {"us-ca-san-francisco", "America/Los_Angeles", "SF-FRERO-PREDICTABILITY-PAY", Kind::kCancel,
       0, hours{8 * 24}, 0, 0, "SF Art. 42.4(c): 7 days or more"},
      // Berkeley: one hour with 24 h to 14 days, and for additions under 24 h.
      {"us-ca-berkeley", "America/Los_Angeles", "BRK-FWW-PREDICTABILITY-PAY", Kind::kCut, 120,
       hours{72}, 2000, 60, "BMC 13.102.060(c)(1)"},
      {"us-ca-berkeley", "America/Los_Angeles", "BRK-FWW-PREDICTABILITY-PAY", Kind::kExtend, 60,
       hours{12}, 2000, 60, "BMC 13.102.060(c)(2)(ii)"},
      // Evanston: one hour with 24 h to 14 days.
      {"us-il-evanston", "America/Chicago", "EVN-FWW-PREDICTABILITY-PAY", Kind::kCancel, 0,
       hours{72}, 2000, 60, "Evanston 3-34 predictability pay"},
  };
  for (const Case& c : cases) {
    BOOST_TEST_CONTEXT(c.ruleId << " (" << c.source << ")") {
      // Chicago's 14-day table starts 2022-07-01; the other cases use 2026.
      const int year = std::string(c.ruleId).rfind("CHI", 0) == 0 ? 2022 : 2026;
      ChangeTestSite s(c.zone, {c.jurisdiction});
      s.person("hal");
      s.shift("s", at(year, 10, 20, 9), at(year, 10, 20, 17), "hal");
      s.publish("v1", s.instant(at(year, 9, 20, 9)), {"s"});
      const Instant now = s.instant(at(year, 10, 20, 9)) - c.notice;
      const ScheduleChange change = changeOf(s, c.kind, at(year, 10, 20, 9), at(year, 10, 20, 17),
                                             minutes{c.extendOrCutMinutes});
      const ChangeVerdict v = s.evaluate(change, now);
      const RuleEvaluation& e = findingOf(personOf(v, "hal"), c.ruleId);
      BOOST_TEST(e.premiumCents == c.cents);
      BOOST_TEST(e.premiumMinutes == c.premiumMinutes);
      BOOST_TEST(v.premiumCents >= c.cents);  // plus any overtime the change adds
    }
  }
}

// Strictest wins across jurisdictions: with two cities composed (not a real site, but the rule
// book allows it), a cancelled 8 h shift with 3 days notice owes NYC's $45 or Seattle's
// 0.5 x 8 h x $20 = $80; only the costlier is owed.
BOOST_AUTO_TEST_CASE(costliest_change_premium_wins_and_is_counted_once) {
  ChangeTestSite s("America/New_York", {"us-ny-nyc", "us-wa-seattle"}, "fast_food");
  s.person("ida");
  s.shift("s", at(2026, 10, 20, 9), at(2026, 10, 20, 17), "ida");
  s.publish("v1", s.instant(at(2026, 9, 20, 9)), {"s"});
  const ChangeVerdict v =
      s.evaluate(ScheduleChange{CutShift{"s", true, {}, {}}}, s.instant(at(2026, 10, 17, 9)));
  const PersonVerdict& p = personOf(v, "ida");
  BOOST_TEST(findingOf(p, "SEA-SSO-PREDICTABILITY-PAY").premiumCents == 8000);
  BOOST_TEST(findingOf(p, "NYC-FWW-CHANGE-PREMIUM").premiumCents == 0);
  BOOST_TEST(findingOf(p, "NYC-FWW-CHANGE-PREMIUM").detail.find("costlier") != std::string::npos);
  BOOST_TEST(v.premiumCents == 8000);
}

// SEA-SSO-DECLINE-ADDED / LA-FWW-DECLINE-ADDED / PHL-FWW-DECLINE-ADDED: hours added after
// publication need the person's consent, in writing where the rule says so.
BOOST_AUTO_TEST_CASE(added_hours_need_consent_written_where_required) {
  struct Case {
    const char* jurisdiction;
    const char* zone;
    const char* ruleId;
    bool written;
  };
  const Case cases[] = {
      {"us-wa-seattle", "America/Los_Angeles", "SEA-SSO-DECLINE-ADDED", false},
      {"us-ca-los-angeles", "America/Los_Angeles", "LA-FWW-DECLINE-ADDED", true},
      {"us-pa-philadelphia", "America/New_York", "PHL-FWW-DECLINE-ADDED", true},
      {"us-ca-berkeley", "America/Los_Angeles", "BRK-FWW-DECLINE-ADDED", false},
  };
  for (const Case& c : cases) {
    BOOST_TEST_CONTEXT(c.ruleId) {
      ChangeTestSite s(c.zone, {c.jurisdiction});
      s.person("jo");
      s.shift("s", at(2026, 10, 20, 9), at(2026, 10, 20, 15), "jo");
      s.publish("v1", s.instant(at(2026, 9, 20, 9)), {"s"});
      const ChangeVerdict v =
          s.evaluate(ScheduleChange{ExtendShift{"s", s.stamp(at(2026, 10, 20, 9)),
                                                s.stamp(at(2026, 10, 20, 17))}},
                     s.instant(at(2026, 10, 15, 9)));
      const PersonVerdict& p = personOf(v, "jo");
      const RuleEvaluation& e = findingOf(p, c.ruleId);
      BOOST_TEST(name(e.effect) == "needs_consent");
      BOOST_TEST(intInput(e, "outsidePostedMinutes") == 120);
      BOOST_TEST(p.writtenConsent == c.written);
      BOOST_TEST(name(v.kind) == "needs_consent");
      BOOST_TEST(v.consentFrom == std::vector<std::string>{"jo"}, boost::test_tools::per_element());
    }
  }
}

// Changes to a schedule nobody has published yet owe no premium and need no consent (n/a), and
// neither do changes the employee asked for in writing (SMC 14.22 exempts them).
BOOST_AUTO_TEST_CASE(unpublished_or_employee_requested_changes_owe_nothing) {
  for (const bool published : {false, true}) {
    ChangeTestSite s("America/Los_Angeles", {"us-wa-seattle"});
    s.person("kim");
    s.shift("s", at(2026, 10, 20, 9), at(2026, 10, 20, 17), "kim");
    if (published) s.publish("v1", s.instant(at(2026, 9, 20, 9)), {"s"});
    ScheduleChange change{CutShift{"s", true, {}, {}}};
    change.employeeRequested = published;  // unpublished: employer change; published: requested
    const ChangeVerdict v = s.evaluate(change, s.instant(at(2026, 10, 19, 9)));
    const RuleEvaluation& e = findingOf(personOf(v, "kim"), "SEA-SSO-PREDICTABILITY-PAY");
    BOOST_TEST(name(e.result) == "n/a");
    BOOST_TEST(e.premiumCents == 0);
    BOOST_TEST(name(v.kind) == "allowed");
    BOOST_TEST(v.approvers.empty());
  }
}

// A shift over the fall-back night (America/Los_Angeles, 2026-11-01) lasts 9 real hours from
// 22:00 to 06:00: cancelling it owes Seattle's half rate on 9 hours, not 8.
BOOST_AUTO_TEST_CASE(cancelled_dst_night_shift_pays_real_hours) {
  ChangeTestSite s("America/Los_Angeles", {"us-wa-seattle"});
  s.person("lu");
  s.shift("night", at(2026, 10, 31, 22), at(2026, 11, 1, 6), "lu");
  s.publish("v1", s.instant(at(2026, 10, 1, 9)), {"night"});
  const ChangeVerdict v =
      s.evaluate(ScheduleChange{CutShift{"night", true, {}, {}}}, s.instant(at(2026, 10, 28, 22)));
  const RuleEvaluation& e = findingOf(personOf(v, "lu"), "SEA-SSO-PREDICTABILITY-PAY");
  BOOST_TEST(e.premiumMinutes == 540);
  BOOST_TEST(e.premiumCents == 9000);  // 9 h x 0.5 x $20.00
}

// The rest between shifts is the assignment engine's (NYC-FWW-CLOPENING-11H, $100 and consent):
// a shift added after publication gets it once, next to the change premium.
BOOST_AUTO_TEST_CASE(rest_premium_comes_from_the_engine_once) {
  ChangeTestSite s("America/New_York", {"us-ny-nyc"}, "fast_food");
  s.person("max");
  s.shift("close", at(2026, 10, 19, 15), at(2026, 10, 19, 23), "max");
  s.shift("later", at(2026, 10, 22, 9), at(2026, 10, 22, 15), "max");
  s.publish("v1", s.instant(at(2026, 9, 20, 9)), {"close", "later"});
  site::Shift open{
      "open",       "grill",           s.stamp(at(2026, 10, 20, 6)), s.stamp(at(2026, 10, 20, 12)),
      std::nullopt, std::string("max")};
  const ChangeVerdict v =
      s.evaluate(ScheduleChange{AddShift{open}}, s.instant(at(2026, 10, 16, 9)));
  const PersonVerdict& p = personOf(v, "max");
  std::size_t rest = 0;
  for (const RuleEvaluation& e : p.verdict.evaluations) {
    if (e.ruleId == "NYC-FWW-CLOPENING-11H") ++rest;
  }
  BOOST_TEST(rest == 1u);
  BOOST_TEST(findingOf(p, "NYC-FWW-CLOPENING-11H").premiumCents == 10000);
  BOOST_TEST(findingOf(p, "NYC-FWW-CHANGE-PREMIUM").premiumCents == 1500);  // added, < 7 days
  BOOST_TEST(p.verdict.premiumCents == 11500);
  BOOST_TEST(name(v.kind) == "needs_consent");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::labor
