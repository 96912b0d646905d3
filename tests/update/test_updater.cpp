// The slots, the switch and the rollbacks, with shell scripts for binaries: the "service" is
// restarted by running R/current/atoms-edge to its end, so a healthy one has written its mark by
// the time the check looks, and a crashing one never does (no clock to wait on).
#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <filesystem>

#include "base/clock.h"
#include "daemon/update/health_mark.h"
#include "daemon/update/pinned_key.h"
#include "daemon/update/updater.h"
#include "store/migrations.h"
#include "store/state_dir.h"
#include "tests/update/update_fixture.h"

using namespace atoms;
using namespace atoms::update;
namespace fs = std::filesystem;

namespace {

const int kSchemaNow = storeMigrations().back().version;

struct Box {
  explicit Box(int runningSchema = kSchemaNow) {
    stateDir = tmp.file("state");
    Status s = initStateDir(stateDir, InitOptions{"site-update"});
    BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
    env.root = tmp.file("opt");
    env.stateDir = stateDir;
    env.trustedKey = pinnedUpdateKey();
    env.runningBinary = test::writeExecutable(tmp, "packaged", test::healthyScript("packaged"));
    env.runningVersion = "1.0.0";
    env.runningSchema = runningSchema;
    env.clock = &clock;
    env.restartService = [this] {
      ++restarts;
      const std::string command =
          "ATOMS_TEST_STATE='" + stateDir + "' '" + env.root + "/current/atoms-edge' 2>/dev/null";
      (void)std::system(command.c_str());  // a crash is the health check's to notice
      return Status::success();
    };
    env.waitHealthy = [](const std::function<bool()>& healthy, std::chrono::milliseconds) {
      return healthy();
    };
  }

  std::string bundle(const std::string& version, const std::string& script,
                     int schema = kSchemaNow) {
    return bundleSignedBy(version, script, test::testVendorKey(), schema);
  }
  std::string bundleSignedBy(const std::string& version, const std::string& script,
                             const SecretBytes& key, int schema = kSchemaNow) {
    const std::string name = "v" + version + "-" + std::to_string(++made);
    const std::string binary = test::writeExecutable(tmp, name + ".bin", script);
    const std::string out = tmp.file(name + ".bundle");
    Status s = makeBundle(binary, version, schema, key, out);
    BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
    return out;
  }

  std::string current() const {
    std::error_code ec;
    return fs::read_symlink(env.root + "/current", ec).string();
  }
  // The binary that last reported healthy, relative to the root ("slots/a/atoms-edge").
  std::string markedBy() const {
    auto mark = readHealthMark(stateDir);
    if (!mark) return "";
    return fs::relative(mark->exe, fs::canonical(env.root)).string();
  }
  UpdateStatus status() const {
    auto s = updateStatus(env);
    BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
    return *s;
  }

  atoms::testing::TempDir tmp;
  SimulatedClock clock{TimePoint{} + std::chrono::hours(24 * 365 * 56)};
  std::string stateDir;
  UpdateEnv env;
  int restarts = 0;
  int made = 0;
};

UpdateReport applied(const Box& box, const std::string& bundle, bool allowDowngrade = false) {
  auto report = applyUpdate(box.env, bundle, allowDowngrade);
  BOOST_REQUIRE_MESSAGE(report.ok(), report.message());
  return *report;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(updater)

BOOST_AUTO_TEST_CASE(aGoodBundleGoesIntoTheOtherSlotAndStaysWhenHealthy) {
  Box box;
  UpdateReport r = applied(box, box.bundle("1.1.0", test::healthyScript("1.1.0")));
  BOOST_TEST(r.outcome == Outcome::kApplied, r.detail);
  BOOST_TEST(r.slot == "b");
  BOOST_TEST(box.current() == "slots/b");
  BOOST_TEST(box.markedBy() == "slots/b/atoms-edge");
  BOOST_TEST(box.restarts == 1);
  UpdateStatus s = box.status();
  BOOST_REQUIRE(s.slots.size() == 2U);
  BOOST_TEST(s.slots[0].manifest->version == "1.0.0");  // the packaged binary, kept to go back to
  BOOST_TEST(!s.slots[0].active);
  BOOST_TEST(s.slots[1].manifest->version == "1.1.0");
  BOOST_TEST(s.slots[1].active);
  BOOST_TEST(!s.pending.has_value());
  BOOST_REQUIRE(s.last.has_value());
  BOOST_TEST(s.last->result == "applied");
  BOOST_TEST(s.stateSchema.value_or(0) == kSchemaNow);

  // The next update goes into slot a, replacing the packaged binary.
  BOOST_TEST(applied(box, box.bundle("1.2.0", test::healthyScript("1.2.0"))).slot == "a");
  BOOST_TEST(box.current() == "slots/a");
  BOOST_TEST(box.status().slots[0].manifest->version == "1.2.0");
}

BOOST_AUTO_TEST_CASE(initSeedsSlotAWithTheRunningBinaryOnce) {
  Box box;
  auto r = initSlots(box.env);
  BOOST_REQUIRE_MESSAGE(r.ok(), r.message());
  BOOST_TEST(r->outcome == Outcome::kInitialised);
  BOOST_TEST(box.current() == "slots/a");
  BOOST_TEST(box.status().slots[0].manifest->version == "1.0.0");
  BOOST_TEST(box.restarts == 0);
  BOOST_TEST(initSlots(box.env)->outcome == Outcome::kNothingPending);
  // The first update after it goes into slot b, as without init.
  BOOST_TEST(applied(box, box.bundle("1.1.0", test::healthyScript("1.1.0"))).slot == "b");
}

BOOST_AUTO_TEST_CASE(aTamperedBundleIsRefusedAndNothingSwitches) {
  Box box;
  applied(box, box.bundle("1.1.0", test::healthyScript("1.1.0")));
  const std::string bundle = box.bundle("1.2.0", test::healthyScript("1.2.0"));
  const auto size = fs::file_size(bundle);
  for (std::size_t offset : {std::size_t{30}, static_cast<std::size_t>(size - 5)}) {
    const std::string copy = box.tmp.file("tampered-" + std::to_string(offset));
    fs::copy_file(bundle, copy);
    test::flipByte(copy, offset);
    auto report = applyUpdate(box.env, copy, false);
    BOOST_REQUIRE(!report.ok());
    BOOST_TEST(report.kind() == ErrorKind::kCorrupt, report.message());
    BOOST_TEST(box.current() == "slots/b");
    BOOST_TEST(box.status().slots[0].manifest->version == "1.0.0");
    BOOST_TEST(box.status().last->result == "refused");
    BOOST_TEST(!fs::exists(box.env.root + "/slots/a.new"));
  }
  BOOST_TEST(box.restarts == 1);
}

BOOST_AUTO_TEST_CASE(aBundleSignedByAnotherKeyIsRefusedBeforeTheFirstSlotExists) {
  Box box;
  auto report = applyUpdate(
      box.env, box.bundleSignedBy("1.1.0", test::healthyScript("x"), test::otherVendorKey()),
      false);
  BOOST_REQUIRE(!report.ok());
  BOOST_TEST(report.kind() == ErrorKind::kRefused);
  BOOST_TEST(
      report.message().find("not by the update key this atoms-edge trusts") != std::string::npos,
      report.message());
  BOOST_TEST(box.current().empty());
  BOOST_TEST(!fs::exists(box.env.root + "/slots"));
  BOOST_TEST(box.restarts == 0);
}

BOOST_AUTO_TEST_CASE(aDowngradeIsRefusedUnlessAllowedAndNeverPastTheSchema) {
  Box box;
  applied(box, box.bundle("1.1.0", test::healthyScript("1.1.0")));
  const std::string older = box.bundle("1.0.5", test::healthyScript("1.0.5"));
  auto refused = applyUpdate(box.env, older, false);
  BOOST_REQUIRE(!refused.ok());
  BOOST_TEST(refused.kind() == ErrorKind::kRefused);
  BOOST_TEST(refused.message().find("older than the installed 1.1.0") != std::string::npos,
             refused.message());
  BOOST_TEST(box.current() == "slots/b");
  // The same version again is not an update either.
  BOOST_TEST(
      applyUpdate(box.env, box.bundle("1.1.0", test::healthyScript("again")), false).kind() ==
      ErrorKind::kRefused);

  // Allowed, and the schema fits: installed like any update.
  BOOST_TEST(applied(box, older, true).outcome == Outcome::kApplied);
  BOOST_TEST(box.current() == "slots/a");

  // Allowed, but the binary expects an older schema than the database has: refused anyway.
  auto pastSchema =
      applyUpdate(box.env, box.bundle("0.9.0", test::healthyScript("0.9.0"), kSchemaNow - 1), true);
  BOOST_REQUIRE(!pastSchema.ok());
  BOOST_TEST(pastSchema.kind() == ErrorKind::kRefused);
  BOOST_TEST(pastSchema.message().find("migrations only go forward") != std::string::npos,
             pastSchema.message());
  BOOST_TEST(box.current() == "slots/a");
}

BOOST_AUTO_TEST_CASE(aVersionThatCrashesOnStartIsRolledBackAndThePreviousOneRuns) {
  Box box;
  applied(box, box.bundle("1.1.0", test::healthyScript("1.1.0")));
  UpdateReport r = applied(box, box.bundle("1.2.0", test::kCrashScript));
  BOOST_TEST(r.outcome == Outcome::kRolledBack, r.detail);
  BOOST_TEST(r.version == "1.1.0");
  BOOST_TEST(r.healthy);
  BOOST_TEST(r.detail.find("1.2.0 did not report healthy") != std::string::npos, r.detail);
  BOOST_TEST(box.current() == "slots/b");
  // Restarted twice: into 1.2.0, which crashed, then back into 1.1.0, which reported healthy.
  BOOST_TEST(box.restarts == 3);
  BOOST_TEST(box.markedBy() == "slots/b/atoms-edge");
  UpdateStatus s = box.status();
  BOOST_TEST(!s.pending.has_value());
  BOOST_TEST(s.last->result == "rolled back");
  BOOST_TEST(s.last->version == "1.1.0");
  // The failed version stays in its slot until the next update replaces it.
  BOOST_TEST(s.slots[0].manifest->version == "1.2.0");
}

BOOST_AUTO_TEST_CASE(aRollbackAcrossAMigrationIsRefusedBeforeSwitching) {
  // The packaged 1.0.0 expects the schema before the current one: the update migrated the store.
  Box box(kSchemaNow - 1);
  applied(box, box.bundle("1.1.0", test::healthyScript("1.1.0")));
  auto refused = rollbackUpdate(box.env);
  BOOST_REQUIRE(!refused.ok());
  BOOST_TEST(refused.kind() == ErrorKind::kRefused);
  BOOST_TEST(refused.message().find("rolling back to 1.0.0 is refused") != std::string::npos,
             refused.message());
  BOOST_TEST(box.current() == "slots/b");
  BOOST_TEST(box.restarts == 1);
  BOOST_TEST(box.markedBy() == "slots/b/atoms-edge");  // never stopped
  BOOST_TEST(box.status().last->result == "refused");
}

BOOST_AUTO_TEST_CASE(aFailedUpdateThatMigratedTheStoreStaysAndSaysSo) {
  Box box(kSchemaNow - 1);
  UpdateReport r = applied(box, box.bundle("1.1.0", test::kCrashScript));
  BOOST_TEST(r.outcome == Outcome::kRollbackRefused, r.detail);
  BOOST_TEST(!r.healthy);
  BOOST_TEST(r.detail.find("migrations only go forward") != std::string::npos, r.detail);
  BOOST_TEST(box.current() == "slots/b");
  BOOST_TEST(box.restarts == 1);
  BOOST_TEST(box.status().last->result == "rollback refused");
}

BOOST_AUTO_TEST_CASE(withTheKeyInCredentialsTheSchemaComesFromServesHealthMark) {
  Box box;
  // db.key moved into a systemd credential: update, run by root, cannot open the database.
  fs::rename(box.stateDir + "/db.key", box.tmp.file("credential-db.key"));
  auto unknown = applyUpdate(box.env, box.bundle("1.1.0", test::healthyScript("1.1.0")), false);
  BOOST_REQUIRE(!unknown.ok());
  BOOST_TEST(unknown.kind() == ErrorKind::kRefused);
  BOOST_TEST(unknown.message().find("no health mark says the schema") != std::string::npos,
             unknown.message());
  // serve's mark says the schema it migrated to: an older binary is refused by it.
  BOOST_REQUIRE(writeHealthMark(box.stateDir, "1.0.0", kSchemaNow).ok());
  BOOST_TEST(stateSchemaVersion(box.stateDir).value().value_or(0) == kSchemaNow);
  auto older = applyUpdate(
      box.env, box.bundle("1.1.0", test::healthyScript("1.1.0"), kSchemaNow - 1), false);
  BOOST_REQUIRE(!older.ok());
  BOOST_TEST(older.message().find("migrations only go forward") != std::string::npos,
             older.message());
  BOOST_TEST(box.current().empty());
}

BOOST_AUTO_TEST_CASE(anOperatorRollbackGoesBackAndForth) {
  Box box;
  applied(box, box.bundle("1.1.0", test::healthyScript("1.1.0")));
  auto back = rollbackUpdate(box.env);
  BOOST_REQUIRE_MESSAGE(back.ok(), back.message());
  BOOST_TEST(back->outcome == Outcome::kRolledBack);
  BOOST_TEST(back->version == "1.0.0");
  BOOST_TEST(box.current() == "slots/a");
  BOOST_TEST(box.markedBy() == "slots/a/atoms-edge");
  auto forth = rollbackUpdate(box.env);
  BOOST_REQUIRE(forth.ok());
  BOOST_TEST(box.current() == "slots/b");
}

BOOST_AUTO_TEST_CASE(aSwitchWithoutRestartWaitsForCheckHealth) {
  Box box;
  auto restart = box.env.restartService;
  box.env.restartService = nullptr;
  UpdateReport r = applied(box, box.bundle("1.1.0", test::healthyScript("1.1.0")));
  BOOST_TEST(r.outcome == Outcome::kSwitched);
  BOOST_TEST(box.current() == "slots/b");
  BOOST_TEST(box.status().pending.has_value());
  // Nothing new while it waits.
  auto next = applyUpdate(box.env, box.bundle("1.2.0", test::healthyScript("1.2.0")), false);
  BOOST_TEST(next.kind() == ErrorKind::kRefused);
  BOOST_TEST(next.message().find("still waiting for its health check") != std::string::npos,
             next.message());

  // The box reboots: the service starts from slot b and reports healthy; the check keeps it.
  BOOST_REQUIRE(restart().ok());
  auto checked = checkHealth(box.env);
  BOOST_REQUIRE_MESSAGE(checked.ok(), checked.message());
  BOOST_TEST(checked->outcome == Outcome::kApplied);
  BOOST_TEST(!box.status().pending.has_value());
}

BOOST_AUTO_TEST_CASE(checkHealthRollsBackWhenNoMarkCame) {
  Box box;
  box.env.restartService = nullptr;
  applied(box, box.bundle("1.1.0", test::kCrashScript));
  auto checked = checkHealth(box.env);
  BOOST_REQUIRE_MESSAGE(checked.ok(), checked.message());
  BOOST_TEST(checked->outcome == Outcome::kRolledBack);
  BOOST_TEST(box.current() == "slots/a");
  BOOST_TEST(!box.status().pending.has_value());
}

BOOST_AUTO_TEST_CASE(confirmKeepsAPendingUpdate) {
  Box box;
  box.env.restartService = nullptr;
  applied(box, box.bundle("1.1.0", test::healthyScript("1.1.0")));
  auto confirmed = confirmUpdate(box.env);
  BOOST_REQUIRE(confirmed.ok());
  BOOST_TEST(confirmed->outcome == Outcome::kConfirmed);
  BOOST_TEST(box.status().last->result == "confirmed");
  auto again = confirmUpdate(box.env);
  BOOST_REQUIRE(again.ok());
  BOOST_TEST(again->outcome == Outcome::kNothingPending);
}

BOOST_AUTO_TEST_SUITE_END()
