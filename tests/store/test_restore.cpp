// Restoring a backup (store/restore.h): success, and the refusals that leave the state directory
// untouched: behind the published audit log (unless the operator says so), a wrong key, a damaged
// or truncated file, a state directory in use.

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "base/timestamp.h"
#include "store/restore.h"
#include "store/site_store.h"
#include "store/state_dir_lock.h"
#include "tests/support/temp_dir.h"

namespace atoms {
namespace {

// Appends `count` entries to DIR's log and returns its size afterwards (the open and the commits
// advance DIR's high-water mark to it).
std::uint64_t appendToSite(const std::string& dir, int count) {
  auto store = SiteStore::open(dir);
  BOOST_REQUIRE_MESSAGE(store.ok(), store.message());
  const std::string ts = formatTimestamp(std::chrono::system_clock::time_point{});
  for (int i = 0; i < count; ++i) {
    BOOST_REQUIRE((*store)->log().append(ts, "test.restore", "test", json::Object{}).ok());
  }
  BOOST_REQUIRE((*store)->log().publishCheckpoint((*store)->log().signedSize()).ok());
  return (*store)->log().size();
}

std::uint64_t sizeOfSite(const std::string& dir) {
  auto store = SiteStore::open(dir);
  BOOST_REQUIRE_MESSAGE(store.ok(), store.message());
  return (*store)->log().size();
}

std::string fileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A site with a few entries and a backup of it; `dir` and `backup` inside tmp.
struct RestoreFixture {
  testing::TempDir tmp;
  std::string dir = tmp.sub("state");
  std::string backup = tmp.file("site.db");
  std::uint64_t backedUp = 0;

  RestoreFixture() {
    BOOST_REQUIRE(initStateDir(dir, {"restore-site"}).ok());
    backedUp = appendToSite(dir, 5);
    BOOST_REQUIRE(backupDatabase(StateDirPaths::under(dir), backup, {}).ok());
  }

  // What must not change when a restore is refused.
  std::string databaseBytes() const { return fileBytes(dir + "/atoms.db"); }
  bool leftNothingBehind() const {
    return !std::filesystem::exists(dir + "/atoms.db.restore") &&
           !std::filesystem::exists(dir + "/restore.scratch") &&
           !std::filesystem::exists(dir + "/atoms.db.before-restore");
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(restore)

BOOST_AUTO_TEST_CASE(restoresALostDatabaseAndTheSiteOpensAsBefore) {
  RestoreFixture f;
  std::filesystem::remove(f.dir + "/atoms.db");  // the disk lost it; keys and mark remain

  auto report = restoreDatabase(f.dir, f.backup, {});
  BOOST_REQUIRE_MESSAGE(report.ok(), report.message());
  BOOST_TEST(report->restored.entries == f.backedUp);
  BOOST_TEST(!report->wentBehind);
  BOOST_TEST(report->databaseSetAside.empty());
  BOOST_TEST(sizeOfSite(f.dir) == f.backedUp);
  // And the site goes on from there.
  BOOST_TEST(appendToSite(f.dir, 1) == f.backedUp + 1);
}

BOOST_AUTO_TEST_CASE(setsTheReplacedDatabaseAsideInsteadOfDeletingIt) {
  RestoreFixture f;
  const std::string before = f.databaseBytes();
  auto report = restoreDatabase(f.dir, f.backup, {});
  BOOST_REQUIRE_MESSAGE(report.ok(), report.message());
  BOOST_TEST(report->databaseSetAside == f.dir + "/atoms.db.before-restore");
  BOOST_TEST((fileBytes(report->databaseSetAside) == before));
  auto second = restoreDatabase(f.dir, f.backup, {});
  BOOST_REQUIRE_MESSAGE(second.ok(), second.message());
  BOOST_TEST(second->databaseSetAside == f.dir + "/atoms.db.before-restore.1");
}

BOOST_AUTO_TEST_CASE(refusesABackupBehindThePublishedLogUnlessTheOperatorSaysSo) {
  RestoreFixture f;
  const std::uint64_t published = appendToSite(f.dir, 3);
  const std::string before = f.databaseBytes();

  auto refused = restoreDatabase(f.dir, f.backup, {});
  BOOST_REQUIRE(!refused.ok());
  BOOST_TEST((refused.kind() == ErrorKind::kRefused));
  BOOST_TEST(refused.message().find("behind") != std::string::npos, refused.message());
  BOOST_TEST(refused.message().find("--behind-high-water") != std::string::npos);
  BOOST_TEST((f.databaseBytes() == before));
  BOOST_TEST(f.leftNothingBehind());
  BOOST_TEST(sizeOfSite(f.dir) == published);

  auto forced = restoreDatabase(f.dir, f.backup, {.behindHighWater = true});
  BOOST_REQUIRE_MESSAGE(forced.ok(), forced.message());
  BOOST_TEST(forced->wentBehind);
  BOOST_TEST(forced->highWaterSize == published);
  BOOST_TEST(std::filesystem::exists(forced->highWaterSetAside));
  BOOST_TEST(sizeOfSite(f.dir) == f.backedUp);
}

BOOST_AUTO_TEST_CASE(refusesABackupOpenedWithTheWrongKey) {
  RestoreFixture f;
  testing::TempDir other;
  const std::string otherDir = other.sub("state");
  BOOST_REQUIRE(initStateDir(otherDir, {"other-site"}).ok());
  const std::string before = fileBytes(otherDir + "/atoms.db");

  auto refused = restoreDatabase(otherDir, f.backup, {});
  BOOST_REQUIRE(!refused.ok());
  BOOST_TEST(refused.message().find("wrong key") != std::string::npos, refused.message());
  BOOST_TEST((fileBytes(otherDir + "/atoms.db") == before));
  BOOST_TEST(!std::filesystem::exists(otherDir + "/atoms.db.restore"));
}

BOOST_AUTO_TEST_CASE(refusesADamagedOrTruncatedBackup) {
  RestoreFixture f;
  const std::string before = f.databaseBytes();
  std::string bytes = fileBytes(f.backup);
  BOOST_REQUIRE(bytes.size() > 8 * 1024);

  std::string damaged = bytes;
  for (std::size_t i = 4096; i < 4096 + 64; ++i) damaged[i] = static_cast<char>(damaged[i] ^ 0x5a);
  const std::string damagedPath = f.tmp.write("damaged.db", damaged);
  auto refused = restoreDatabase(f.dir, damagedPath, {});
  BOOST_TEST(!refused.ok());
  BOOST_TEST_MESSAGE(refused.message());

  const std::string truncatedPath = f.tmp.write("truncated.db", bytes.substr(0, 3000));
  auto cut = restoreDatabase(f.dir, truncatedPath, {});
  BOOST_TEST(!cut.ok());
  BOOST_TEST(cut.message().find("truncated") != std::string::npos, cut.message());

  BOOST_TEST((f.databaseBytes() == before));
  BOOST_TEST(f.leftNothingBehind());
}

BOOST_AUTO_TEST_CASE(refusesWhileTheStateDirectoryIsInUse) {
  RestoreFixture f;
  auto held = StateDirLock::acquire(f.dir);  // what a running serve holds
  BOOST_REQUIRE(held.ok());
  const std::string before = f.databaseBytes();

  auto refused = restoreDatabase(f.dir, f.backup, {});
  BOOST_REQUIRE(!refused.ok());
  BOOST_TEST((refused.kind() == ErrorKind::kRefused));
  BOOST_TEST(refused.message().find("in use") != std::string::npos, refused.message());
  BOOST_TEST((f.databaseBytes() == before));

  held = makeError("released");
  BOOST_TEST(restoreDatabase(f.dir, f.backup, {}).ok());
}

BOOST_AUTO_TEST_CASE(aNewBoxTakesTheKeysFromBesideABackupMadeWithKeys) {
  RestoreFixture f;
  const std::string moving = f.tmp.file("moving.db");
  BOOST_REQUIRE(backupDatabase(StateDirPaths::under(f.dir), moving, {.withKeys = true}).ok());
  const std::string fresh = f.tmp.sub("new-box");
  std::filesystem::create_directory(fresh);

  auto report = restoreDatabase(fresh, moving, {});
  BOOST_REQUIRE_MESSAGE(report.ok(), report.message());
  BOOST_TEST(report->keysInstalled);
  BOOST_TEST((fileBytes(fresh + "/db.key") == fileBytes(f.dir + "/db.key")));
  BOOST_TEST(sizeOfSite(fresh) == f.backedUp);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms
