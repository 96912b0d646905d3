// The exact evaluator on the hand-written instance (schedule_test_util.h): objectives worked out
// by hand, each hard rule's violation, and the horizon's edges as the benchmark's formulation
// treats them.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <string>

#include "domain/schedule/roster_evaluator.h"
#include "tests/schedule/schedule_test_util.h"

namespace atoms::schedule {
namespace {

bool hasViolation(const RosterEvaluation& e, RosterRule rule, int person, int day,
                  std::int64_t amount) {
  return std::any_of(e.violations.begin(), e.violations.end(), [&](const RosterViolation& v) {
    return v.rule == rule && v.person == person && v.day == day && v.amount == amount;
  });
}

std::string listed(const RosterEvaluation& e) {
  std::string out;
  for (const RosterViolation& v : e.violations) out += v.text + "\n";
  return out;
}

// Feasible. Objective: A works L on day 1 against an off-request (3); day 1 has nobody on E
// (1 short x 100) and day 2 one of two on E (1 short x 100): 203.
constexpr const char* kFeasible =
    "A\tE\tL\t-\t-\tE\tE\t-\n"
    "B\t-\t-\tE\t-\t-\t-\t-\n"
    "C\t-\t-\t-\t-\t-\t-\t-\n"
    "D\t-\t-\t-\t-\t-\tE\tE\n";

}  // namespace

BOOST_AUTO_TEST_SUITE(roster_evaluator)

BOOST_AUTO_TEST_CASE(scores_a_feasible_roster_as_worked_out_by_hand) {
  const RosterInstance in = test::smallInstance();
  const RosterEvaluation e = evaluateRoster(in, test::rosterOf(in, kFeasible));
  BOOST_TEST(e.feasible, listed(e));
  BOOST_TEST(e.onRequests == 0);
  BOOST_TEST(e.offRequests == 3);
  BOOST_TEST(e.underCover == 200);
  BOOST_TEST(e.overCover == 0);
  BOOST_TEST(e.objective == 203);
}

BOOST_AUTO_TEST_CASE(lists_every_violation_and_still_scores) {
  const RosterInstance in = test::smallInstance();
  // A: 4 days in a row from day 0 (at most 3: the edge counts), one day off inside (day 4, at
  //    least 2), E on day 6 after L on day 5;
  // B: works Sunday, no weekend allowed;
  // C: E three times (at most 2); the lone working day 3 between days off is too short (at least
  //    3), the lone days 0 and 6 touch the horizon's edges and are not;
  // D: works nothing, 960 minutes short.
  // Objective: three on E on day 0 (2 over x 1), nobody on L on day 1 (1 short x 50): 52.
  const RosterEvaluation e = evaluateRoster(in, test::rosterOf(in,
                                                               "A\tE\tE\tE\tE\t-\tL\tE\n"
                                                               "B\tE\t-\tE\t-\t-\t-\tE\n"
                                                               "C\tE\t-\t-\tE\t-\t-\tE\n"
                                                               "D\t-\t-\t-\t-\t-\t-\t-\n"));
  BOOST_TEST(!e.feasible);
  BOOST_TEST(e.violations.size() == 7u, listed(e));
  BOOST_TEST(hasViolation(e, RosterRule::kMaxConsecutive, 0, 0, 1), listed(e));
  BOOST_TEST(hasViolation(e, RosterRule::kMinDaysOff, 0, 4, 1), listed(e));
  BOOST_TEST(hasViolation(e, RosterRule::kSuccession, 0, 5, 1), listed(e));
  BOOST_TEST(hasViolation(e, RosterRule::kMaxWeekends, 1, -1, 1), listed(e));
  BOOST_TEST(hasViolation(e, RosterRule::kMaxPerType, 2, -1, 1), listed(e));
  BOOST_TEST(hasViolation(e, RosterRule::kMinConsecutive, 2, 3, 2), listed(e));
  BOOST_TEST(hasViolation(e, RosterRule::kMinMinutes, 3, -1, 960), listed(e));
  BOOST_TEST(e.overCover == 2);
  BOOST_TEST(e.underCover == 50);
  BOOST_TEST(e.objective == 52);
  const std::string text = listed(e);
  BOOST_TEST(text.find("A: works 4 days in a row from day 0, at most 3") != std::string::npos,
             text);
  BOOST_TEST(text.find("A: works L on day 5 and E the next day, which may not follow it") !=
                 std::string::npos,
             text);
  BOOST_TEST(text.find("D: works 0 minutes, at least 960") != std::string::npos, text);
}

BOOST_AUTO_TEST_CASE(short_runs_touching_the_horizon_edges_are_not_violations) {
  const RosterInstance in = test::smallInstance();
  // C (runs of 3 at least) works only day 0 and day 6; A (2 days off at least) has a lone day off
  // on day 0, then on day 6.
  const RosterEvaluation e = evaluateRoster(in, test::rosterOf(in,
                                                               "A\t-\tE\tE\t-\t-\tE\tE\n"
                                                               "B\t-\t-\t-\t-\t-\t-\t-\n"
                                                               "C\tE\t-\t-\t-\t-\t-\tE\n"
                                                               "D\tE\tE\t-\t-\t-\t-\t-\n"));
  BOOST_TEST(e.feasible, listed(e));
  const RosterEvaluation offEdge = evaluateRoster(in, test::rosterOf(in,
                                                                     "A\tE\tE\t-\t-\tE\tE\t-\n"
                                                                     "B\t-\t-\t-\t-\t-\t-\t-\n"
                                                                     "C\t-\t-\t-\t-\t-\t-\t-\n"
                                                                     "D\tE\tE\t-\t-\t-\t-\t-\n"));
  BOOST_TEST(offEdge.feasible, listed(offEdge));
}

BOOST_AUTO_TEST_CASE(a_run_too_long_at_the_end_of_the_horizon_counts) {
  const RosterInstance in = test::smallInstance();
  const RosterEvaluation e = evaluateRoster(in, test::rosterOf(in,
                                                               "A\t-\t-\t-\tE\tE\tE\tE\n"
                                                               "B\t-\t-\t-\t-\t-\t-\t-\n"
                                                               "C\t-\t-\t-\t-\t-\t-\t-\n"
                                                               "D\tE\tE\t-\t-\t-\t-\t-\n"));
  BOOST_TEST(e.violations.size() == 1u, listed(e));
  BOOST_TEST(hasViolation(e, RosterRule::kMaxConsecutive, 0, 3, 1), listed(e));
}

BOOST_AUTO_TEST_CASE(work_on_a_day_off_and_a_roster_of_the_wrong_shape_are_violations) {
  const RosterInstance in = test::smallInstance();
  Roster roster = test::rosterOf(in, kFeasible);
  roster.cells[1][3] = 0;  // B on E on day 3, a day off
  const RosterEvaluation e = evaluateRoster(in, roster);
  BOOST_TEST(hasViolation(e, RosterRule::kDayOff, 1, 3, 1), listed(e));
  BOOST_TEST(lineHardExcess(in, 1, roster.cells[1].data()) == 1);
  roster.cells.pop_back();
  const RosterEvaluation shape = evaluateRoster(in, roster);
  BOOST_TEST(!shape.feasible);
  BOOST_TEST((shape.violations.at(0).rule == RosterRule::kShape));
}

BOOST_AUTO_TEST_CASE(the_solvers_measure_is_zero_exactly_on_feasible_lines) {
  const RosterInstance in = test::smallInstance();
  const Roster good = test::rosterOf(in, kFeasible);
  for (int p = 0; p < in.personCount(); ++p) {
    BOOST_TEST(lineHardExcess(in, p, good.cells[p].data()) == 0);
  }
  const Roster allOff = Roster::allOff(in);
  // A and D are 960 minutes short: two of the shortest shift (E, 480 minutes) each.
  BOOST_TEST(lineHardExcess(in, 0, allOff.cells[0].data()) == 2);
  BOOST_TEST(lineHardExcess(in, 3, allOff.cells[3].data()) == 2);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::schedule
