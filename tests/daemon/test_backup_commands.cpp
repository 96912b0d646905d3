// `atoms-edge backup` and `restore` as an operator runs them: the real binary beside a real
// `serve`. The library behaviour (consistency under load, every refusal) is in
// tests/store/test_backup.cpp and test_restore.cpp.
#include <signal.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <filesystem>
#include <string>

#include "daemon/cli/command.h"
#include "store/state_dir.h"
#include "tests/daemon/helpers.h"

using namespace atoms;
using namespace std::chrono_literals;
using test::contains;

namespace {

constexpr auto kBackupServeDeadline = 60s;  // the sanitizer build starts slowly

struct BackupSite {
  BackupSite() {
    stateDir = tmp.file("state");
    Status s = initStateDir(stateDir, InitOptions{"site-backup"});
    BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
  }
  std::string config() const {
    return tmp.write("atoms-edge.conf", "state.dir = " + stateDir + "\n");
  }
  test::TempDir tmp;
  std::string stateDir;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(backup_commands)

BOOST_AUTO_TEST_CASE(backupRunsBesideServeAndRestoreWaitsUntilServeStops) {
  BackupSite site;
  const std::string config = site.config();
  test::ChildProcess serve({test::edgeBinary(), "serve", "--config", config});
  BOOST_REQUIRE_MESSAGE(serve.waitForStderr("msg=\"ready\"", kBackupServeDeadline), serve.err());
  // A second service on the same state directory is refused by the directory's lock.
  test::RunResult second = test::runEdge({"serve", "--config", config});
  BOOST_TEST(second.status == atoms::cli::kExitConfig, second.err);
  BOOST_TEST(contains(second.err, "is in use"), second.err);

  const std::string during = site.tmp.file("during.db");
  test::RunResult backup = test::runEdge({"backup", "--state-dir", site.stateDir, "--to", during});
  BOOST_TEST(backup.status == 0, backup.err);
  BOOST_TEST(contains(backup.out, "checkpoints verified"), backup.out);
  BOOST_TEST(contains(backup.out, "cannot be read without that key"), backup.out);
  BOOST_TEST(!contains(backup.out, "WARNING"), backup.out);
  BOOST_TEST(!std::filesystem::exists(during + ".db.key"));

  test::RunResult refused =
      test::runEdge({"restore", "--state-dir", site.stateDir, "--from", during});
  BOOST_TEST(refused.status == atoms::cli::kExitConfig, refused.err);
  BOOST_TEST(contains(refused.err, "is in use"), refused.err);

  serve.signal(SIGTERM);
  auto status = serve.wait(kBackupServeDeadline);
  BOOST_REQUIRE(status.has_value());
  BOOST_TEST(*status == 0, serve.err());

  const std::string after = site.tmp.file("after.db");
  BOOST_REQUIRE(test::runEdge({"backup", "--state-dir", site.stateDir, "--to", after}).status == 0);
  test::RunResult restored =
      test::runEdge({"restore", "--state-dir", site.stateDir, "--from", after});
  BOOST_TEST(restored.status == 0, restored.err);
  BOOST_TEST(contains(restored.out, "atoms.db.before-restore"), restored.out);
  test::RunResult verify = test::runEdge({"verify", "--state-dir", site.stateDir});
  BOOST_TEST(verify.status == 0, verify.err);
}

BOOST_AUTO_TEST_CASE(backupWithKeysSaysPlainlyWhatTheKeyFilesAllow) {
  BackupSite site;
  const std::string to = site.tmp.file("moving.db");
  test::RunResult run =
      test::runEdge({"backup", "--state-dir", site.stateDir, "--to", to, "--with-keys"});
  BOOST_TEST(run.status == 0, run.err);
  BOOST_TEST(contains(run.out, "WARNING: " + to + ".db.key and " + to + ".site.key"), run.out);
  BOOST_TEST(contains(run.out, "read every record in it and sign as this site"), run.out);
  BOOST_TEST(test::fileMode(to + ".db.key") == 0600U);
  BOOST_TEST(test::fileMode(to + ".site.key") == 0600U);
  // A second backup to the same file is refused and changes nothing.
  test::RunResult again = test::runEdge({"backup", "--state-dir", site.stateDir, "--to", to});
  BOOST_TEST(again.status == atoms::cli::kExitConfig, again.err);
  BOOST_TEST(contains(again.err, "never overwrites"), again.err);
}

BOOST_AUTO_TEST_SUITE_END()
