// `atoms-edge panel invite PERSON` (daemon/cli/cmd_panel.cpp), run in-process while the fixture
// holds the store open for writing, as `serve` would: it only reads, and its invite is honoured.
#include <boost/test/unit_test.hpp>
#include <fstream>
#include <sstream>

#include "daemon/cli/cli.h"
#include "daemon/cli/commands.h"
#include "tests/panel/panel_fixture.h"

namespace atoms::panel {

using testing::PanelFixture;

namespace {

struct CliRun {
  int code = 0;
  std::string out;
  std::string err;
};

CliRun runCli(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  cli::Io io{out, err};
  CliRun r;
  r.code = cli::runCli(args, cli::allCommands(), io);
  r.out = out.str();
  r.err = err.str();
  return r;
}

// The token: the indented line of the output.
std::string tokenIn(const std::string& out) {
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("  ", 0) == 0) return line.substr(2);
  }
  return {};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(panel_cli)

BOOST_AUTO_TEST_CASE(inviteBesideARunningWriterGivesATokenTheBoxHonours) {
  PanelFixture f;
  const std::string config = f.tmp.write("atoms-edge.conf", "policy.owners = p-olga\n");
  const CliRun r =
      runCli({"panel", "invite", testing::kOwner, "--state-dir", f.stateDir, "--config", config});
  BOOST_TEST_REQUIRE(r.code == 0, r.err);
  BOOST_TEST(r.out.find("invite for p-olga (owner), valid until ") == 0u, r.out);
  const std::string token = tokenIn(r.out);
  BOOST_TEST_REQUIRE(!token.empty());
  // The command wrote nothing: no account, no audit entry.
  BOOST_TEST(f.queryInt("SELECT count(*) FROM panel_account") == 0);
  BOOST_TEST(f.allEntryTexts().find("panel.") == std::string::npos);

  auto accepted = f.auth->acceptInvite(token, testing::kPassword, f.client);
  BOOST_TEST_REQUIRE(accepted.ok(), accepted.message());
  BOOST_TEST((accepted->outcome == SignInOutcome::kSignedIn), accepted->message);
  BOOST_TEST((accepted->session.role == PanelRole::kOwner));
}

BOOST_AUTO_TEST_CASE(inviteRefusesPeopleWithoutAPanelRole) {
  PanelFixture f;
  const std::string config = f.tmp.write("atoms-edge.conf", "policy.owners = p-olga\n");
  const CliRun cook =
      runCli({"panel", "invite", testing::kCook, "--state-dir", f.stateDir, "--config", config});
  BOOST_TEST(cook.code == 1);
  BOOST_TEST(
      cook.err.find("is not an owner, a manager of record or a shift lead") != std::string::npos,
      cook.err);
  BOOST_TEST(cook.out.empty());
  const CliRun nobody =
      runCli({"panel", "invite", "p-nobody", "--state-dir", f.stateDir, "--config", config});
  BOOST_TEST(nobody.code == 1);
  const CliRun usage = runCli({"panel", "frobnicate"});
  BOOST_TEST(usage.code == 2);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::panel
