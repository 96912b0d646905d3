// The real atoms-edge binary, run as a child process: refusals, help, and a full serve lifecycle.
#include <signal.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "daemon/cli/command.h"
#include "daemon/cli/commands.h"
#include "store/state_dir.h"
#include "tests/daemon/helpers.h"

using namespace atoms;
using namespace std::chrono_literals;
using atoms::cli::kExitConfig;
using test::contains;

namespace {

// Generous: the sanitizer build starts slowly. A passing run never waits this long.
constexpr auto kServiceDeadline = 60s;

// The one line of the log that contains needle ("" if none).
std::string lineWith(const std::string& log, const std::string& needle) {
  std::size_t at = log.find(needle);
  if (at == std::string::npos) return "";
  std::size_t start = log.rfind('\n', at);
  start = start == std::string::npos ? 0 : start + 1;
  std::size_t end = log.find('\n', at);
  return log.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

struct Site {
  Site() {
    stateDir = tmp.file("state");
    Status s = initStateDir(stateDir, InitOptions{"site-7"});
    BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
  }
  std::string config(const std::string& extra = "") const {
    return tmp.write("atoms-edge.conf", "state.dir = " + stateDir + "\n" + extra);
  }
  test::TempDir tmp;
  std::string stateDir;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(service)

BOOST_AUTO_TEST_CASE(serveRefusesAMissingConfigFile) {
  test::TempDir tmp;
  std::string path = tmp.file("absent.conf");
  auto r = test::runEdge({"serve", "--config", path});
  BOOST_TEST(r.status == kExitConfig);
  std::string line = lineWith(r.err, "refusing to start");
  BOOST_TEST(contains(line, "level=fatal"), r.err);
  BOOST_TEST(contains(line, "config file " + path + " does not exist"), r.err);
}

BOOST_AUTO_TEST_CASE(serveRefusesAnUnknownKey) {
  test::TempDir tmp;
  auto r = test::runEdge(
      {"serve", "--config", tmp.write("a.conf", "state.dir = /x\nsms.gatway = modem\n")});
  BOOST_TEST(r.status == kExitConfig);
  BOOST_TEST(contains(lineWith(r.err, "refusing to start"), "unknown key 'sms.gatway'"), r.err);
}

BOOST_AUTO_TEST_CASE(serveRefusesABadLogLevelNamingKeyAndValue) {
  test::TempDir tmp;
  auto r = test::runEdge({"serve", "--config", tmp.write("a.conf", "log.level = loud\n")});
  BOOST_TEST(r.status == kExitConfig);
  BOOST_TEST(contains(lineWith(r.err, "refusing to start"), "bad value 'loud' for log.level"),
             r.err);
}

BOOST_AUTO_TEST_CASE(serveRefusesAMissingStateDirectory) {
  test::TempDir tmp;
  std::string absent = tmp.file("no-such-state");
  auto r =
      test::runEdge({"serve", "--config", tmp.write("a.conf", "state.dir = " + absent + "\n")});
  BOOST_TEST(r.status == kExitConfig);
  std::string line = lineWith(r.err, "refusing to start");
  BOOST_TEST(contains(line, "service=store"), r.err);
  BOOST_TEST(contains(line, absent), r.err);
  BOOST_TEST(!contains(r.err, "msg=\"ready\""));
  BOOST_TEST(!contains(r.err, "starting engine"), "nothing after the failed service starts");
}

BOOST_AUTO_TEST_CASE(serveRefusesADatabaseKeyThatIsNotItsOwn) {
  Site site;
  test::TempDir other;
  std::string otherState = other.file("state");
  BOOST_REQUIRE(initStateDir(otherState, InitOptions{"site-8"}).ok());
  std::filesystem::copy_file(otherState + "/db.key", site.stateDir + "/db.key",
                             std::filesystem::copy_options::overwrite_existing);
  auto r = test::runEdge({"serve", "--config", site.config()});
  BOOST_TEST(r.status == kExitConfig);
  std::string line = lineWith(r.err, "refusing to start");
  BOOST_TEST(contains(line, "service=store"), r.err);
  BOOST_TEST(contains(line, "wrong key"), r.err);
}

BOOST_AUTO_TEST_CASE(refusalsAreJsonWhenTheFileAsksForJson) {
  test::TempDir tmp;
  std::string absent = tmp.file("no-such-state");
  auto r = test::runEdge({"serve", "--config",
                          tmp.write("a.conf", "log.format = json\nstate.dir = " + absent + "\n")});
  BOOST_TEST(r.status == kExitConfig);
  std::string line = lineWith(r.err, "refusing to start");
  BOOST_TEST(line.rfind("{\"ts\":\"", 0) == 0, r.err);
  BOOST_TEST(contains(line, "\"level\":\"fatal\""), r.err);
}

BOOST_AUTO_TEST_CASE(everyCommandAnswersHelpWithExitZero) {
  for (const atoms::cli::Command& c : atoms::cli::allCommands()) {
    BOOST_TEST_CONTEXT(c.name) {
      auto r = test::runEdge({c.name, "--help"});
      BOOST_TEST(r.status == 0);
      BOOST_TEST(r.out.rfind("usage: atoms-edge " + c.name, 0) == 0, r.out);
    }
  }
  auto top = test::runEdge({"--help"});
  BOOST_TEST(top.status == 0);
  for (const atoms::cli::Command& c : atoms::cli::allCommands())
    BOOST_TEST(contains(top.out, "  " + c.name));
}

BOOST_AUTO_TEST_CASE(unknownCommandsAndOptionsExitTwo) {
  auto r = test::runEdge({"srve"});
  BOOST_TEST(r.status == 2);
  BOOST_TEST(contains(r.err, "unknown command 'srve'"));
  r = test::runEdge({"serve", "--confg", "/x"});
  BOOST_TEST(r.status == 2);
  BOOST_TEST(contains(r.err, "unknown option '--confg'"));
}

BOOST_AUTO_TEST_CASE(versionPrintsTheProjectAndLibraryVersions) {
  auto r = test::runEdge({"version"});
  BOOST_TEST(r.status == 0);
  BOOST_TEST(r.out.rfind("atoms-edge " ATOMS_EDGE_VERSION "\n", 0) == 0, r.out);
  BOOST_TEST(contains(r.out, "\nsqlcipher "));
  BOOST_TEST(contains(r.out, "\nlibsodium "));
  BOOST_TEST(contains(r.out, "\npoco "));
}

BOOST_AUTO_TEST_CASE(serveLogsReadyAndStopsInReverseOrderOnSigterm) {
  Site site;
  test::ChildProcess child({test::edgeBinary(), "serve", "--config", site.config()});
  BOOST_REQUIRE_MESSAGE(child.waitForStderr("msg=\"ready\"", kServiceDeadline), child.err());
  BOOST_TEST(contains(lineWith(child.err(), "msg=\"ready\""), "site=site-7"));
  child.signal(SIGTERM);
  auto status = child.wait(kServiceDeadline);
  BOOST_REQUIRE(status.has_value());
  BOOST_TEST(*status == 0, child.err());

  const std::string& log = child.err();
  BOOST_TEST_MESSAGE("serve log:\n" << log);
  std::vector<std::string> order = {"msg=\"starting store\"", "msg=\"starting engine\"",
                                    "msg=\"ready\"", "msg=\"stopped engine\"",
                                    "msg=\"stopped store\""};
  std::size_t last = 0;
  for (const std::string& step : order) {
    std::size_t at = log.find(step);
    BOOST_TEST_CONTEXT(step) {
      BOOST_REQUIRE(at != std::string::npos);
      BOOST_TEST(at >= last);
    }
    last = at;
  }
  BOOST_TEST(!contains(log, "level=error"), log);
  BOOST_TEST(!contains(log, "level=fatal"), log);
}

BOOST_AUTO_TEST_CASE(sigintStopsTheServiceCleanlyToo) {
  Site site;
  test::ChildProcess child({test::edgeBinary(), "serve", "--config", site.config()});
  BOOST_REQUIRE_MESSAGE(child.waitForStderr("msg=\"ready\"", kServiceDeadline), child.err());
  child.signal(SIGINT);
  auto status = child.wait(kServiceDeadline);
  BOOST_REQUIRE(status.has_value());
  BOOST_TEST(*status == 0, child.err());
  BOOST_TEST(contains(child.err(), "msg=\"stopped store\""));
}

BOOST_AUTO_TEST_SUITE_END()
