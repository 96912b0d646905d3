// Online backups (store/backup.h): taken while another process keeps appending to the audit log,
// every backup opens with the site's keys, verifies end to end and holds a prefix of the live log
// that ends at a signed checkpoint (its Merkle root is the live log's root at that size).

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "store/backup.h"
#include "store/site_store.h"
#include "tests/support/build_paths.h"
#include "tests/support/durable_child.h"
#include "tests/support/temp_dir.h"

namespace atoms {
namespace {

struct TakenBackup {
  std::string path;
  std::uint64_t durableBefore = 0;  // the child had committed at least this much when it began
  BackupSummary summary;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(backup)

BOOST_AUTO_TEST_CASE(backupsTakenWhileAppendingHoldAVerifiedPrefixOfTheLog) {
  testing::TempDir tmp;
  const std::string dir = tmp.sub("state");
  BOOST_REQUIRE(initStateDir(dir, {"backup-site"}).ok());
  const StateDirPaths paths = StateDirPaths::under(dir);

  std::vector<TakenBackup> taken;
  {
    testing::DurableChild child({atoms::testing::appendChild(), dir, "7"});
    for (int i = 0; i < 8; ++i) {
      const std::vector<std::string> ids = child.readDurable(3);
      TakenBackup b{tmp.file("b" + std::to_string(i) + ".db"), std::stoull(ids.back()), {}};
      auto summary = backupDatabase(paths, b.path, {});
      BOOST_REQUIRE_MESSAGE(summary.ok(), "backup " << i << ": " << summary.message());
      b.summary = *summary;
      taken.push_back(b);
    }
  }  // the child is killed here

  auto live = SiteStore::open(dir);
  BOOST_REQUIRE_MESSAGE(live.ok(), live.message());
  const AuditLog& log = (*live)->log();
  std::uint64_t previous = 0;
  for (const TakenBackup& b : taken) {
    BOOST_TEST_CONTEXT(b.path) {
      // Opened again from disk (not the summary the backup returned): keys, quick_check, chain.
      auto again = checkDatabaseCopy(paths, b.path);
      BOOST_REQUIRE_MESSAGE(again.ok(), again.message());
      BOOST_TEST(again->entries == b.summary.entries);
      BOOST_TEST(again->signedSize == again->entries);
      BOOST_TEST(again->entries >= b.durableBefore);
      BOOST_TEST(again->entries >= previous);
      BOOST_TEST_REQUIRE(again->entries <= log.size());
      auto rootThere = log.tree().rootAt(again->entries);
      BOOST_REQUIRE(rootThere.ok());
      BOOST_TEST((*rootThere == again->root), "the backup is not a prefix of the live log");
      previous = again->entries;
    }
  }
  BOOST_TEST(!std::filesystem::exists(taken.back().path + ".tmp"));
}

BOOST_AUTO_TEST_CASE(backupRefusesToOverwriteAndLeavesTheKeysOutUnlessAsked) {
  testing::TempDir tmp;
  const std::string dir = tmp.sub("state");
  BOOST_REQUIRE(initStateDir(dir, {"backup-site"}).ok());
  const StateDirPaths paths = StateDirPaths::under(dir);
  const std::string to = tmp.file("site.db");

  BOOST_REQUIRE(backupDatabase(paths, to, {}).ok());
  BOOST_TEST(!std::filesystem::exists(to + ".db.key"));
  BOOST_TEST(!std::filesystem::exists(to + ".site.key"));
  const auto size = std::filesystem::file_size(to);
  auto again = backupDatabase(paths, to, {});
  BOOST_TEST((again.kind() == ErrorKind::kRefused));
  BOOST_TEST(std::filesystem::file_size(to) == size);

  const std::string withKeys = tmp.file("moving.db");
  BOOST_REQUIRE(backupDatabase(paths, withKeys, {.withKeys = true}).ok());
  const StateDirPaths keys = backupKeyPaths(withKeys);
  const auto mode = std::filesystem::status(keys.dbKey).permissions();
  BOOST_TEST((mode == (std::filesystem::perms::owner_read | std::filesystem::perms::owner_write)));
  // The keys beside it open it: what a new box with nothing else needs.
  BOOST_TEST(checkDatabaseCopy(keys, withKeys).ok());
}

BOOST_AUTO_TEST_CASE(aBackupIsUnreadableWithAnotherSitesKey) {
  testing::TempDir tmp;
  BOOST_REQUIRE(initStateDir(tmp.sub("a"), {"site-a"}).ok());
  BOOST_REQUIRE(initStateDir(tmp.sub("b"), {"site-b"}).ok());
  const std::string to = tmp.file("a.db");
  BOOST_REQUIRE(backupDatabase(StateDirPaths::under(tmp.sub("a")), to, {}).ok());
  auto opened = checkDatabaseCopy(StateDirPaths::under(tmp.sub("b")), to);
  BOOST_TEST(!opened.ok());
  BOOST_TEST(opened.message().find("wrong key") != std::string::npos, opened.message());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms
