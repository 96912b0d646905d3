#include <boost/test/unit_test.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "daemon/cli/cli.h"
#include "daemon/cli/commands.h"
#include "domain/site/site_file.h"
#include "tests/site/site_test_util.h"
#include "tests/support/temp_dir.h"

using namespace atoms;
using namespace atoms::site::testing;
using atoms::testing::TempDir;

namespace {

struct Run {
  int code;
  std::string out, err;
};

Run run(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  cli::Io io{out, err};
  const int code = cli::runCli(args, cli::allCommands(), io);
  return {code, out.str(), err.str()};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cmd_site)

BOOST_AUTO_TEST_CASE(importThenExportGivesTheSameSiteAndABadFileChangesNothing) {
  TempDir dir;
  const std::string state = dir.sub("state");
  BOOST_REQUIRE_EQUAL(run({"init", "--state-dir", state, "--site-id", "bistro-sf"}).code, 0);

  Run imported = run({"site", "import", demoSitePath(), "--state-dir", state});
  BOOST_REQUIRE_MESSAGE(imported.code == 0, imported.err);
  BOOST_TEST(imported.out.find("30 people") != std::string::npos, imported.out);

  Run exported = run({"site", "export", "--state-dir", state});
  BOOST_REQUIRE_MESSAGE(exported.code == 0, exported.err);
  auto demo = site::parseSiteFile(readText(demoSitePath()));
  BOOST_REQUIRE(demo.ok());
  BOOST_TEST(exported.out == site::writeSiteFile(*demo));

  // A bad phone: one line naming the record, exit 1, the stored site unchanged.
  std::string text = exported.out;
  const std::string phone = demo->people[4].phone;
  text.replace(text.find(phone), phone.size(), "555-1234");
  const std::string bad = dir.write("bad.json", text);
  Run refused = run({"site", "import", bad, "--state-dir", state});
  BOOST_TEST(refused.code == 1);
  BOOST_TEST(refused.err == "atoms-edge site import: " + bad + ": people[4] (id " +
                                demo->people[4].id + "): phone '555-1234' is not E.164 (like " +
                                "+14155550123)\n");
  BOOST_TEST(run({"site", "export", "--state-dir", state}).out == exported.out);

  // The import is in the audit log, which still verifies.
  BOOST_TEST(run({"verify", "--state-dir", state}).code == 0);
}

BOOST_AUTO_TEST_CASE(validateNeedsNoStateDirAndRefusesAnotherSitesFileOnImport) {
  TempDir dir;
  Run ok = run({"site", "validate", demoSitePath()});
  BOOST_TEST(ok.code == 0, ok.err);
  BOOST_TEST(ok.out.find("ok: site bistro-sf") == 0u, ok.out);

  const std::string state = dir.sub("state");
  BOOST_REQUIRE_EQUAL(run({"init", "--state-dir", state, "--site-id", "other-site"}).code, 0);
  Run refused = run({"site", "import", demoSitePath(), "--state-dir", state});
  BOOST_TEST(refused.code == 1);
  BOOST_TEST(refused.err.find("is not this box's site 'other-site'") != std::string::npos,
             refused.err);
  BOOST_TEST(run({"site", "frobnicate"}).code == 2);
}

BOOST_AUTO_TEST_SUITE_END()
