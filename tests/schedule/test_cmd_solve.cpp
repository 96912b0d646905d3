// `atoms-edge solve` end to end: the real binary as a child process (tests/daemon/helpers.h) on
// the public instance in tests/schedule/data, with an iteration budget (no timed assertion).
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/daemon/helpers.h"
#include "tests/schedule/schedule_test_util.h"

namespace atoms {
namespace {

using test::contains;
using test::runEdge;
using test::TempDir;

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

// "objective: 607 (...)" -> "objective: 607"
std::string objectiveLine(const std::string& out) {
  for (const std::string& line : linesOf(out)) {
    if (line.rfind("objective: ", 0) == 0) return line.substr(0, line.find(" ("));
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cmd_solve)

BOOST_AUTO_TEST_CASE(writes_a_feasible_roster_that_evaluate_scores_the_same) {
  TempDir dir;
  const std::string instance = schedule::test::scheduleDataPath("Instance1.txt");
  const std::string roster = dir.file("roster.txt");
  const test::RunResult r = runEdge({"solve", instance, "--threads", "1", "--iterations", "300000",
                                     "--time-limit", "120", "--out", roster, "--quiet"});
  BOOST_TEST(r.status == 0, r.out + r.err);
  BOOST_TEST(contains(r.out, "feasible: yes"), r.out);
  BOOST_TEST(contains(r.out, "8 employees, 14 days, 1 shift types"), r.out);
  const std::vector<std::string> lines = linesOf(test::readFile(roster));
  BOOST_TEST(lines.size() == 8u);
  BOOST_TEST(lines.at(0).rfind("A\t", 0) == 0);
  BOOST_TEST(std::count(lines.at(0).begin(), lines.at(0).end(), '\t') == 14);

  const test::RunResult e = runEdge({"solve", instance, "--evaluate", roster});
  BOOST_TEST(e.status == 0, e.out + e.err);
  BOOST_TEST(contains(e.out, "feasible: yes"), e.out);
  BOOST_TEST(!objectiveLine(r.out).empty());
  BOOST_TEST(objectiveLine(e.out) == objectiveLine(r.out));
}

BOOST_AUTO_TEST_CASE(evaluate_lists_violations_and_exits_one) {
  TempDir dir;
  const std::string instance = schedule::test::scheduleDataPath("Instance1.txt");
  std::string allOff;
  for (const char* id : {"A", "B", "C", "D", "E", "F", "G", "H"}) {
    allOff += id;
    for (int d = 0; d < 14; ++d) allOff += "\t-";
    allOff += "\n";
  }
  const std::string roster = dir.write("off.txt", allOff);
  const test::RunResult e = runEdge({"solve", instance, "--evaluate", roster});
  BOOST_TEST(e.status == 1, e.out + e.err);
  BOOST_TEST(contains(e.out, "feasible: no"), e.out);
  BOOST_TEST(contains(e.out, "violation: A: works 0 minutes, at least 3360"), e.out);
}

BOOST_AUTO_TEST_CASE(a_malformed_instance_is_one_line_naming_the_line_and_exit_two) {
  TempDir dir;
  const test::RunResult r = runEdge({"solve", schedule::test::scheduleDataPath("malformed.txt"),
                                     "--out", dir.file("roster.txt")});
  BOOST_TEST(r.status == 2);
  BOOST_TEST(contains(r.err,
                      "malformed.txt: line 10: SECTION_STAFF: MinTotalMinutes 'three' is "
                      "not a whole number from 0 to 1000000"),
             r.err);
  const test::RunResult missing = runEdge({"solve", dir.file("nope.txt"), "--out", "x"});
  BOOST_TEST(missing.status == 2);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms
