#include <boost/test/unit_test.hpp>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/labor/change_test_site.h"
#include "tests/support/text_checks.h"

// Proposed schedule changes (domain/labor/schedule_change.h): each kind, the per-person
// verdicts, the premium the change adds, who approves, whose consent is needed, and the errors
// for bad changes. Rule ids are those of etc/labor; the values' sources are in the tables.

namespace atoms::labor {

using namespace testing;
using std::chrono::days;
using std::chrono::hours;
using std::chrono::minutes;

namespace {

using atoms::testing::contains;

// Mon 2026-10-05 .. Thu 2026-10-08, 09:00-17:00: 32 h for `who` (Chicago, FLSA only).
void fourDays(ChangeTestSite& s, const std::string& who) {
  for (unsigned d = 5; d <= 8; ++d) {
    s.shift(who + "-" + std::to_string(d), at(2026, 10, d, 9), at(2026, 10, d, 17), who);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(schedule_change)

// SEA-SSO-PREDICTABILITY-PAY and SEA-SSO-DECLINE-ADDED (SMC 14.22): taking an open shift that
// was published is added hours: one hour of pay, and the person may decline.
BOOST_AUTO_TEST_CASE(assigning_a_published_open_shift_adds_hours_and_needs_consent) {
  ChangeTestSite s("America/Los_Angeles", {"us-wa-seattle"});
  s.person("ana");
  s.shift("open", at(2026, 10, 20, 9), at(2026, 10, 20, 15));
  s.publish("v1", s.instant(at(2026, 10, 1, 9)), {"open"});
  const ChangeVerdict v =
      s.evaluate(ScheduleChange{AssignShift{"ana", "open"}}, s.instant(at(2026, 10, 17, 9)));
  BOOST_TEST(changeKindName(v.change) == "assign");
  BOOST_TEST_REQUIRE(v.people.size() == 1u);
  const PersonVerdict& ana = personOf(v, "ana");
  BOOST_TEST(ana.shiftIds == std::vector<std::string>{"open"}, boost::test_tools::per_element());
  BOOST_TEST(findingOf(ana, "SEA-SSO-PREDICTABILITY-PAY").premiumCents == 2000);
  BOOST_TEST(name(findingOf(ana, "SEA-SSO-DECLINE-ADDED").effect) == "needs_consent");
  // The engine's assignment checks ran too (overlap, time off...).
  BOOST_TEST(name(findingOf(ana, "R-SCH-OVERLAP").result) == "pass");
  BOOST_TEST(name(v.kind) == "needs_consent");
  BOOST_TEST(v.premiumCents == 2000);
  BOOST_TEST(v.premiumMinutes == 60);
  BOOST_TEST(v.approvers == std::vector<std::string>{"manager-1"},
             boost::test_tools::per_element());
  BOOST_TEST(v.consentFrom == std::vector<std::string>{"ana"}, boost::test_tools::per_element());
}

// Taking someone else's shift: for them the shift is cancelled (SEA-SSO-PREDICTABILITY-PAY,
// half the rate for the 8 hours lost), for the taker it is added hours. Each manager approves
// their own person's premium.
BOOST_AUTO_TEST_CASE(assigning_someone_elses_shift_cancels_it_for_them) {
  ChangeTestSite s("America/Los_Angeles", {"us-wa-seattle"});
  s.person("ana", 2000, std::string("mgr-a"));
  s.person("bo", 3000, std::string("mgr-b"));
  s.shift("s", at(2026, 10, 20, 9), at(2026, 10, 20, 17), "bo");
  s.publish("v1", s.instant(at(2026, 10, 1, 9)), {"s"});
  const ChangeVerdict v =
      s.evaluate(ScheduleChange{AssignShift{"ana", "s"}}, s.instant(at(2026, 10, 17, 9)));
  BOOST_TEST_REQUIRE(v.people.size() == 2u);
  BOOST_TEST(v.people[0].personId == "ana");
  BOOST_TEST(v.people[1].personId == "bo");
  const RuleEvaluation& lost = findingOf(personOf(v, "bo"), "SEA-SSO-PREDICTABILITY-PAY");
  BOOST_TEST(lost.input.at("changeType").asString() == "cancelled_shift");
  BOOST_TEST(lost.premiumCents == 12000);  // 8 h x 0.5 x $30.00
  BOOST_TEST(personOf(v, "ana").verdict.premiumCents == 2000);
  BOOST_TEST(v.premiumCents == 14000);
  BOOST_TEST(v.approvers == (std::vector<std::string>{"mgr-a", "mgr-b"}),
             boost::test_tools::per_element());
  BOOST_TEST(v.consentFrom == std::vector<std::string>{"ana"}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(adding_an_open_shift_affects_nobody) {
  ChangeTestSite s("America/Chicago", {"us"});
  s.person("ana");
  site::Shift open{
      "new",        "grill",     s.stamp(at(2026, 10, 9, 9)), s.stamp(at(2026, 10, 9, 17)),
      std::nullopt, std::nullopt};
  const ChangeVerdict v = s.evaluate(ScheduleChange{AddShift{open}}, s.instant(at(2026, 10, 1, 9)));
  BOOST_TEST(v.people.empty());
  BOOST_TEST(name(v.kind) == "allowed");
}

// R-SCH-OVERLAP: an added shift over one the person already works is denied.
BOOST_AUTO_TEST_CASE(adding_an_overlapping_shift_is_denied) {
  ChangeTestSite s("America/Chicago", {"us"});
  s.person("ana");
  s.shift("day", at(2026, 10, 9, 9), at(2026, 10, 9, 17), "ana");
  site::Shift extra{
      "extra",      "floor",           s.stamp(at(2026, 10, 9, 16)), s.stamp(at(2026, 10, 9, 20)),
      std::nullopt, std::string("ana")};
  const ChangeVerdict v =
      s.evaluate(ScheduleChange{AddShift{extra}}, s.instant(at(2026, 10, 1, 9)));
  BOOST_TEST(name(findingOf(personOf(v, "ana"), "R-SCH-OVERLAP").result) == "fail");
  BOOST_TEST(name(v.kind) == "denied");
}

// US-FLSA-OT-WEEKLY: extending Friday costs the overtime the extension adds, not the overtime
// the shift already had: one more hour over 40 costs the same whether the week was at 40 h or
// already at 42 h.
BOOST_AUTO_TEST_CASE(extending_costs_only_the_overtime_it_adds) {
  struct Case {
    int fridayEnd, newEnd;
  };
  const Case cases[] = {{17, 18}, {19, 20}};  // 40 h -> 41 h; 42 h -> 43 h
  std::vector<std::int64_t> cents;
  for (const Case& c : cases) {
    ChangeTestSite s("America/Chicago", {"us"});
    s.person("ana");
    fourDays(s, "ana");
    s.shift("fri", at(2026, 10, 9, 9), at(2026, 10, 9, c.fridayEnd), "ana");
    const ChangeVerdict v =
        s.evaluate(ScheduleChange{ExtendShift{"fri", s.stamp(at(2026, 10, 9, 9)),
                                              s.stamp(at(2026, 10, 9, c.newEnd))}},
                   s.instant(at(2026, 10, 1, 9)));
    const PersonVerdict& ana = personOf(v, "ana");
    BOOST_TEST(ana.verdict.premiumMinutes == 60);
    BOOST_TEST(ana.verdict.premiumCents > 0);
    cents.push_back(ana.verdict.premiumCents);
    BOOST_TEST(name(v.kind) == "allowed_with_premium");
    BOOST_TEST((ana.verdict.approver == std::optional<std::string>("manager-1")));
  }
  BOOST_TEST(cents[0] == cents[1]);
}

// A move that keeps the same overtime adds no premium: allowed, the finding says why.
BOOST_AUTO_TEST_CASE(moving_a_shift_with_overtime_already_owed_adds_nothing) {
  ChangeTestSite s("America/Chicago", {"us"});
  s.person("ana");
  fourDays(s, "ana");
  s.shift("fri", at(2026, 10, 9, 9), at(2026, 10, 9, 19), "ana");  // 42 h
  const ChangeVerdict v =
      s.evaluate(ScheduleChange{MoveShift{"fri", s.stamp(at(2026, 10, 9, 10)),
                                          s.stamp(at(2026, 10, 9, 20)), std::string("floor")}},
                 s.instant(at(2026, 10, 1, 9)));
  const PersonVerdict& ana = personOf(v, "ana");
  const RuleEvaluation& ot = findingOf(ana, "US-FLSA-OT-WEEKLY");
  BOOST_TEST(ot.premiumMinutes == 120);  // what the shift owes after the move...
  BOOST_TEST(contains(ot.detail, "owed before this change"));
  BOOST_TEST(ana.verdict.premiumCents == 0);  // ...but the move adds nothing
  BOOST_TEST(name(v.kind) == "allowed");
  BOOST_TEST(v.approvers.empty());
}

// R-SCH-TIME-OFF: a move into the person's time off is denied.
BOOST_AUTO_TEST_CASE(moving_into_time_off_is_denied) {
  ChangeTestSite s("America/Chicago", {"us"});
  site::Person& ana = s.person("ana");
  ana.timeOff.push_back(site::TimeOff{s.stamp(at(2026, 10, 10, 0)), s.stamp(at(2026, 10, 11, 0))});
  s.shift("fri", at(2026, 10, 9, 9), at(2026, 10, 9, 17), "ana");
  const ChangeVerdict v =
      s.evaluate(ScheduleChange{MoveShift{"fri", s.stamp(at(2026, 10, 10, 9)),
                                          s.stamp(at(2026, 10, 10, 17)), std::nullopt}},
                 s.instant(at(2026, 10, 1, 9)));
  BOOST_TEST(name(findingOf(personOf(v, "ana"), "R-SCH-TIME-OFF").result) == "fail");
  BOOST_TEST(name(v.kind) == "denied");
}

// A swap where one side is fine and the other is not: the adult takes the afternoon, the
// 15-year-old would work until 21:30 on an October Saturday, outside 07:00-19:00
// (US-FLSA-MINOR-14-15-HOURS, 29 CFR 570.35(a)). The swap is denied; the adult's side is not.
BOOST_AUTO_TEST_CASE(swap_with_one_side_denied_is_denied) {
  ChangeTestSite s("America/Chicago", {"us"});
  s.person("ana");
  site::Person& teen = s.person("teo");
  teen.birthDate = date(2011, 3, 1);
  teen.minor = true;
  s.shift("evening", at(2026, 10, 10, 17), at(2026, 10, 10, 21, 30), "ana");
  s.shift("afternoon", at(2026, 10, 10, 13), at(2026, 10, 10, 17), "teo");
  const ChangeVerdict v =
      s.evaluate(ScheduleChange{SwapShifts{"evening", "afternoon"}}, s.instant(at(2026, 10, 1, 9)));
  BOOST_TEST(changeKindName(v.change) == "swap");
  const PersonVerdict& a = personOf(v, "ana");
  const PersonVerdict& t = personOf(v, "teo");
  BOOST_TEST(name(a.verdict.kind) == "allowed");
  // Findings name the shift the person would work, not the one they give away.
  BOOST_TEST(findingOf(a, "R-SCH-OVERLAP").input.at("shiftId").asString() == "afternoon");
  BOOST_TEST(name(findingOf(t, "US-FLSA-MINOR-14-15-HOURS").result) == "fail");
  BOOST_TEST(name(t.verdict.kind) == "denied");
  BOOST_TEST(t.shiftIds == (std::vector<std::string>{"afternoon", "evening"}),
             boost::test_tools::per_element());
  BOOST_TEST(name(v.kind) == "denied");
}

// A swap the two employees asked for (SMC 14.22 exempts mutually agreed trades): no
// predictability pay and no consent request, although the shifts differ in length.
BOOST_AUTO_TEST_CASE(swap_requested_by_the_employees_owes_no_premium) {
  ChangeTestSite s("America/Los_Angeles", {"us-wa-seattle"});
  s.person("ana");
  s.person("bo");
  s.shift("short", at(2026, 10, 20, 9), at(2026, 10, 20, 13), "ana");
  s.shift("long", at(2026, 10, 21, 9), at(2026, 10, 21, 17), "bo");
  s.publish("v1", s.instant(at(2026, 10, 1, 9)), {"short", "long"});
  ScheduleChange swap{SwapShifts{"short", "long"}};
  swap.employeeRequested = true;
  const ChangeVerdict v = s.evaluate(swap, s.instant(at(2026, 10, 18, 9)));
  BOOST_TEST(name(findingOf(personOf(v, "ana"), "SEA-SSO-PREDICTABILITY-PAY").result) == "n/a");
  BOOST_TEST(name(findingOf(personOf(v, "ana"), "SEA-SSO-DECLINE-ADDED").result) == "n/a");
  BOOST_TEST(name(v.kind) == "allowed");
  BOOST_TEST(v.premiumCents == 0);
  // Made by the employer instead, the same swap owes both of them.
  swap.employeeRequested = false;
  const ChangeVerdict employer = s.evaluate(swap, s.instant(at(2026, 10, 18, 9)));
  BOOST_TEST(findingOf(personOf(employer, "ana"), "SEA-SSO-PREDICTABILITY-PAY").premiumCents ==
             2000);  // added hours: one hour of pay
  BOOST_TEST(findingOf(personOf(employer, "bo"), "SEA-SSO-PREDICTABILITY-PAY").premiumCents ==
             4000);  // 4 h cut x 0.5 x $20.00
  BOOST_TEST(name(employer.kind) == "needs_consent");
}

// A cut after publication (CHI-FWW-PREDICTABILITY-PAY, MCC 6-110: half the rate for hours cut
// with under 24 h notice): a premium the manager of record approves; no assignment checks run.
BOOST_AUTO_TEST_CASE(cut_after_publication_owes_premium_for_the_manager_to_approve) {
  ChangeTestSite s("America/Chicago", {"us-il-chicago"});
  s.person("ana");
  s.shift("s", at(2026, 10, 20, 9), at(2026, 10, 20, 17), "ana");
  s.publish("v1", s.instant(at(2026, 10, 1, 9)), {"s"});
  const ChangeVerdict v =
      s.evaluate(ScheduleChange{CutShift{"s", false, s.stamp(at(2026, 10, 20, 9)),
                                         s.stamp(at(2026, 10, 20, 13))}},
                 s.instant(at(2026, 10, 19, 20)));
  const PersonVerdict& ana = personOf(v, "ana");
  const RuleEvaluation& e = findingOf(ana, "CHI-FWW-PREDICTABILITY-PAY");
  BOOST_TEST(e.input.at("changeType").asString() == "reduced_hours");
  BOOST_TEST(intInput(e, "noticeMinutes") == 13 * 60);
  BOOST_TEST(e.premiumCents == 4000);  // 4 h x 0.5 x $20.00
  BOOST_TEST(ana.verdict.find("R-SCH-OVERLAP") == nullptr);
  BOOST_TEST(name(v.kind) == "allowed_with_premium");
  BOOST_TEST(v.approvers == std::vector<std::string>{"manager-1"},
             boost::test_tools::per_element());
}

// A premium with nobody to approve it is reported, not dropped.
BOOST_AUTO_TEST_CASE(premium_without_a_manager_of_record_is_a_gap) {
  ChangeTestSite s("America/Chicago", {"us-il-chicago"});
  s.person("ana", 2000, std::nullopt);
  s.shift("s", at(2026, 10, 20, 9), at(2026, 10, 20, 17), "ana");
  s.publish("v1", s.instant(at(2026, 10, 1, 9)), {"s"});
  const ChangeVerdict v =
      s.evaluate(ScheduleChange{CutShift{"s", true, {}, {}}}, s.instant(at(2026, 10, 17, 9)));
  BOOST_TEST(v.approvers.empty());
  BOOST_TEST_REQUIRE(v.gaps.size() == 1u);
  BOOST_TEST(v.gaps[0] == "ana is owed a premium and has no manager of record to approve it");
}

// Moving an overnight shift onto the fall-back night (America/Los_Angeles, 2026-11-01) makes it
// an hour longer in real time: added hours (SEA-SSO-PREDICTABILITY-PAY, one hour of pay) and an
// hour outside the posted schedule.
BOOST_AUTO_TEST_CASE(move_onto_a_dst_night_counts_real_hours) {
  ChangeTestSite s("America/Los_Angeles", {"us-wa-seattle"});
  s.person("ana");
  s.shift("night", at(2026, 10, 30, 22), at(2026, 10, 31, 6), "ana");
  s.publish("v1", s.instant(at(2026, 10, 1, 9)), {"night"});
  const ChangeVerdict v =
      s.evaluate(ScheduleChange{MoveShift{"night", s.stamp(at(2026, 10, 31, 22)),
                                          s.stamp(at(2026, 11, 1, 6)), std::nullopt}},
                 s.instant(at(2026, 10, 27, 9)));
  const PersonVerdict& ana = personOf(v, "ana");
  const RuleEvaluation& e = findingOf(ana, "SEA-SSO-PREDICTABILITY-PAY");
  BOOST_TEST(e.input.at("changeType").asString() == "added_hours");
  BOOST_TEST(intInput(e, "oldMinutes") == 480);
  BOOST_TEST(intInput(e, "newMinutes") == 540);
  BOOST_TEST(e.premiumCents == 2000);
  BOOST_TEST(intInput(findingOf(ana, "SEA-SSO-DECLINE-ADDED"), "outsidePostedMinutes") == 540);
}

// Publishing through the change API: one verdict per person with newly published shifts. A
// schedule published 10 days before its first day is late for everyone on it (NYC-FWW-NOTICE-14D,
// "14 days before the first day of the schedule"), even one whose own first shift is 20 days off;
// a person whose shifts are all in a schedule posted in time is not (decision 0015).
BOOST_AUTO_TEST_CASE(publishing_late_denies_everyone_on_that_schedule) {
  ChangeTestSite s("America/New_York", {"us-ny-nyc"}, "fast_food");
  s.person("ana");
  s.person("bo");
  s.person("cy");
  s.shift("a1", at(2026, 10, 30, 9), at(2026, 10, 30, 17), "ana");
  s.shift("b1", at(2026, 10, 20, 9), at(2026, 10, 20, 17), "bo");
  s.shift("c1", at(2026, 10, 30, 9), at(2026, 10, 30, 17), "cy");
  const Instant now = s.instant(at(2026, 10, 10, 9));  // 10 days before the schedule's first day
  const ChangeVerdict v = s.evaluate(
      ScheduleChange{PublishVersion{site::ScheduleVersion{"v1", {}, {"a1", "b1"}}}}, now);
  BOOST_TEST(changeKindName(v.change) == "publish");
  BOOST_TEST(name(personOf(v, "ana").verdict.kind) == "denied");
  BOOST_TEST(name(personOf(v, "bo").verdict.kind) == "denied");
  BOOST_TEST(personOf(v, "bo").shiftIds == std::vector<std::string>{"b1"},
             boost::test_tools::per_element());
  BOOST_TEST(name(v.kind) == "denied");
  // Cy's schedule, starting on the 30th, posted on the 10th: 20 days.
  const ChangeVerdict later =
      s.evaluate(ScheduleChange{PublishVersion{site::ScheduleVersion{"v2", {}, {"c1"}}}}, now);
  BOOST_TEST(name(personOf(later, "cy").verdict.kind) == "allowed");
}

// Bad changes are one-line errors naming the record; nothing is evaluated.
BOOST_AUTO_TEST_CASE(bad_changes_are_errors_naming_the_record) {
  ChangeTestSite s("America/Chicago", {"us"});
  s.person("ana");
  s.person("bo");
  s.shift("s1", at(2026, 10, 9, 9), at(2026, 10, 9, 17), "ana");
  s.shift("s2", at(2026, 10, 9, 9), at(2026, 10, 9, 17), "ana");
  s.shift("b1", at(2026, 10, 12, 9), at(2026, 10, 12, 17), "bo");
  s.shift("open", at(2026, 10, 12, 9), at(2026, 10, 12, 17));
  s.shift("past", at(2026, 9, 20, 9), at(2026, 9, 20, 17), "ana");
  s.shift("now", at(2026, 10, 1, 8), at(2026, 10, 1, 16), "ana");
  s.publish("v1", s.instant(at(2026, 9, 1, 9)), {"past"});
  const Instant now = s.instant(at(2026, 10, 1, 9));
  const auto st = [&](unsigned d, int h, int m = 0) { return s.stamp(at(2026, 10, d, h, m)); };
  auto shiftOf = [&](const std::string& id, site::Stamp a, site::Stamp b,
                     const std::string& station = "grill") {
    return site::Shift{id, station, a, b, std::nullopt, std::nullopt};
  };
  struct Case {
    ScheduleChange change;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{AssignShift{"zed", "open"}}, "assign: unknown person 'zed'"},
      {{AssignShift{"ana", "nope"}}, "assign: unknown shift 'nope'"},
      {{AssignShift{"ana", "s1"}}, "assign: 'ana' already works shift 's1'"},
      {{AssignShift{"bo", "past"}}, "assign: shift 'past' already ended at 2026-09-20T17:00:00"},
      {{AddShift{shiftOf("s1", st(9, 9), st(9, 17))}}, "add: shift 's1' already exists"},
      {{AddShift{shiftOf("x", st(9, 9), st(9, 17), "moon")}},
       "add: shift 'x': unknown station 'moon'"},
      {{AddShift{shiftOf("x", st(9, 17), st(9, 9))}},
       "add: shift 'x': end 2026-10-09T09:00:00 is not after start 2026-10-09T17:00:00"},
      {{MoveShift{"s1", st(9, 17), st(9, 16), std::nullopt}},
       "move: shift 's1': end 2026-10-09T16:00:00 is not after start 2026-10-09T17:00:00"},
      {{MoveShift{"s1", st(9, 9), st(9, 17), std::nullopt}}, "move: shift 's1' is unchanged"},
      {{MoveShift{"s1", st(9, 9), st(9, 17), std::string("moon")}},
       "move: shift 's1': unknown station 'moon'"},
      {{MoveShift{"now", st(2, 8), st(2, 16), std::nullopt}},
       "move: shift 'now' has started at 2026-10-01T08:00:00; extend or cut it instead"},
      {{ExtendShift{"s1", st(9, 10), st(9, 18)}},
       "extend: shift 's1': 2026-10-09T10:00:00..2026-10-09T18:00:00 must contain "
       "2026-10-09T09:00:00..2026-10-09T17:00:00 and be longer"},
      {{SwapShifts{"s1", "s1"}}, "swap: shift 's1' with itself"},
      {{SwapShifts{"s1", "s2"}}, "swap: shifts 's1' and 's2' are both 'ana''s"},
      {{SwapShifts{"s1", "open"}}, "swap: shift 'open' is open"},
      {{CutShift{"s1", false, st(9, 12), st(9, 10)}},
       "cut: shift 's1': new end 2026-10-09T10:00:00 is before new start 2026-10-09T12:00:00"},
      {{CutShift{"s1", false, st(9, 12), st(9, 12)}},
       "cut: shift 's1' would have no time left; cancel it instead"},
      {{CutShift{"s1", false, st(9, 8), st(9, 12)}},
       "cut: shift 's1': 2026-10-09T08:00:00..2026-10-09T12:00:00 must lie inside "
       "2026-10-09T09:00:00..2026-10-09T17:00:00 and be shorter"},
      {{CutShift{"now", true, {}, {}}},
       "cut: shift 'now' has started; cut it to end at or after now instead of cancelling it"},
      {{CutShift{"past", true, {}, {}}}, "cut: shift 'past' already ended at 2026-09-20T17:00:00"},
      {{PublishVersion{site::ScheduleVersion{"v1", {}, {"s1"}}}},
       "publish: schedule version 'v1' was already published at 2026-09-01T09:00:00"},
      {{PublishVersion{site::ScheduleVersion{"v2", {}, {}}}},
       "publish: schedule version 'v2' lists no shifts"},
      {{PublishVersion{site::ScheduleVersion{"v2", {}, {"ghost"}}}},
       "publish: schedule version 'v2': unknown shift 'ghost'"},
  };
  for (const Case& c : cases) {
    BOOST_TEST(s.refusal(c.change, now) == c.message);
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::labor
