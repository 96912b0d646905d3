// `atoms-edge schedule fill` as an operator runs it: the real binary on a state directory holding
// the demo site (etc/sites/demo-site.json) and the real labor tables. The planning itself is
// pinned in tests/week/test_week_builder.cpp; here the command line, its output and its exit codes.
#include <boost/test/unit_test.hpp>
#include <string>

#include "daemon/cli/command.h"
#include "store/state_dir.h"
#include "tests/daemon/helpers.h"
#include "tests/support/build_paths.h"

using namespace atoms;
using test::contains;

namespace {

// A week far ahead of any run of this test, so nothing in it has started.
constexpr const char* kFarWeek = "2030-W02";

struct DemoState {
  DemoState() {
    stateDir = tmp.file("state");
    Status s = initStateDir(stateDir, InitOptions{"bistro-sf"});
    BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
    test::RunResult imported =
        test::runEdge({"site", "import", atoms::testing::sourceDir() + "/etc/sites/demo-site.json",
                       "--state-dir", stateDir});
    BOOST_REQUIRE_MESSAGE(imported.status == 0, imported.err);
  }
  test::RunResult fill(std::vector<std::string> extra) {
    std::vector<std::string> args = {"schedule",    "fill",
                                     "--state-dir", stateDir,
                                     "--labor-dir", atoms::testing::sourceDir() + "/etc/labor"};
    args.insert(args.end(), extra.begin(), extra.end());
    return test::runEdge(args);
  }
  test::TempDir tmp;
  std::string stateDir;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(schedule_command)

BOOST_AUTO_TEST_CASE(buildsAWeekFromRequirementsThenChangesNothingTheSecondTime) {
  DemoState demo;
  const std::string needs =
      demo.tmp.write("needs.json",
                     R"([{"station":"line","day":1,"start":"10:00","end":"18:00","heads":1},
          {"station":"dish","day":1,"start":"09:00","end":"17:00"},
          {"station":"dish","day":6,"start":"09:00","end":"17:00"}])");
  test::RunResult built = demo.fill({"--week", kFarWeek, "--build", "--requirements", needs});
  BOOST_TEST_REQUIRE(built.status == 0, built.err);
  // By 2030 every line cook's food handler card in the demo site has expired: the line shift
  // stays open, with the rule that keeps each of them off it.
  BOOST_TEST(
      contains(built.out, "built the week: 3 shifts added, 2 changes to the draft; 1 left open"),
      built.out);
  BOOST_TEST(contains(built.out, "open - left open: nobody who works line"), built.out);
  BOOST_TEST(contains(built.out, "draft version 2"), built.out);
  BOOST_TEST(contains(built.out, "no premium"), built.out);
  BOOST_TEST(contains(built.out, "not p-ana: denied (CA-HSC-FOOD-HANDLER-CARD)"), built.out);

  test::RunResult again = demo.fill({"--week", kFarWeek, "--build", "--requirements", needs});
  BOOST_TEST_REQUIRE(again.status == 0, again.err);
  BOOST_TEST(contains(again.out, "Nothing changed"), again.out);
  BOOST_TEST(contains(again.out, "draft version 2"), again.out);

  test::RunResult filled = demo.fill({"--week", kFarWeek});
  BOOST_TEST_REQUIRE(filled.status == 0, filled.err);
  BOOST_TEST(contains(filled.out, "Nothing changed"), filled.out);
}

BOOST_AUTO_TEST_CASE(aBadWeekOrRequirementIsAUsageErrorNamingIt) {
  DemoState demo;
  test::RunResult week = demo.fill({"--week", "2030-W60"});
  BOOST_TEST(week.status == atoms::cli::kExitUsage);
  BOOST_TEST(contains(week.err, "--week"), week.err);
  // 2029 has no ISO week 53 (its last Thursday is in week 52); the next year's week 1 is not
  // taken in its place.
  test::RunResult noWeek53 = demo.fill({"--week", "2029-W53"});
  BOOST_TEST(noWeek53.status == atoms::cli::kExitUsage);
  const std::string bad =
      demo.tmp.write("bad.json", R"([{"station":"line","day":1,"start":"9am","end":"17:00"}])");
  test::RunResult requirement = demo.fill({"--week", kFarWeek, "--build", "--requirements", bad});
  BOOST_TEST(requirement.status == atoms::cli::kExitUsage);
  BOOST_TEST(contains(requirement.err, "requirements[0].start: not a time HH:MM"), requirement.err);
  test::RunResult notBuild = demo.fill({"--week", kFarWeek, "--requirements", bad});
  BOOST_TEST(notBuild.status == atoms::cli::kExitUsage);
}

BOOST_AUTO_TEST_SUITE_END()
