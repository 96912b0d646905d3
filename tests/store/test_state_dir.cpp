#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "base/bytes.h"
#include "store/state_dir.h"
#include "tests/support/file_contents.h"
#include "tests/support/temp_dir.h"
#include "tests/support/text_checks.h"

using namespace atoms;
namespace fs = std::filesystem;

namespace {

using atoms::testing::TempDir;

using atoms::testing::readAll;
// Every file under dir with its bytes: "changes nothing" is checked against this.
std::map<std::string, std::string> snapshot(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    out[e.path().string()] = e.is_regular_file() ? readAll(e.path().string()) : "<dir>";
  }
  return out;
}

using atoms::testing::contains;

mode_t modeOf(const std::string& path) {
  struct stat st {};
  BOOST_REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

void initOk(const std::string& dir, const std::string& siteId) {
  auto s = initStateDir(dir, InitOptions{siteId});
  BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
}

OpenState openOk(const std::string& dir, OpenMode mode) {
  auto st = openStateDir(dir, mode);
  BOOST_REQUIRE_MESSAGE(st.ok(), st.message());
  return std::move(st).value();
}

std::string openError(const std::string& dir, OpenMode mode) {
  auto st = openStateDir(dir, mode);
  BOOST_REQUIRE(!st.ok());
  return st.message();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(state_dir)

BOOST_AUTO_TEST_CASE(initThenOpenGivesTheSiteIdentity) {
  TempDir tmp;
  const std::string dir = tmp.file("state");
  initOk(dir, "store-0042");
  const auto paths = StateDirPaths::under(dir);
  BOOST_TEST(modeOf(dir) == 0700u);
  BOOST_TEST(modeOf(paths.dbKey) == 0600u);
  BOOST_TEST(modeOf(paths.siteKey) == 0600u);
  BOOST_TEST(modeOf(paths.database) == 0600u);
  BOOST_TEST(!fs::exists(paths.database + "-wal"));  // closed cleanly

  OpenState st = openOk(dir, OpenMode::ReadWrite);
  BOOST_TEST(st.identity.siteId == "store-0042");
  BOOST_TEST(st.identity.signingSecret.size() == 64u);

  // The identity signs, and the published public key verifies.
  const std::string msg = "checkpoint body";
  std::uint8_t sig[crypto_sign_BYTES];
  BOOST_REQUIRE(crypto_sign_detached(sig, nullptr, asBytes(msg).data(), msg.size(),
                                     st.identity.signingSecret.data()) == 0);
  BOOST_TEST(crypto_sign_verify_detached(sig, asBytes(msg).data(), msg.size(),
                                         st.identity.publicKey.data()) == 0);

  auto meta = st.db.prepare("SELECT value FROM meta WHERE key = 'site.public_key'");
  BOOST_REQUIRE(meta.ok() && meta->step().ok());
  BOOST_TEST(meta->columnText(0) == toHex(st.identity.publicKey));
}

BOOST_AUTO_TEST_CASE(readOnlyOpenSeesTheSameIdentity) {
  TempDir tmp;
  initOk(tmp.path(), "a");
  OpenState writer = openOk(tmp.path(), OpenMode::ReadWrite);
  OpenState reader = openOk(tmp.path(), OpenMode::ReadOnly);
  BOOST_TEST(reader.identity.siteId == "a");
  BOOST_TEST(reader.identity.publicKey == writer.identity.publicKey);
  BOOST_TEST(!reader.db.exec("DELETE FROM meta").ok());
}

BOOST_AUTO_TEST_CASE(initCreatesMissingParents) {
  TempDir tmp;
  const std::string dir = tmp.file("a/b/c");
  initOk(dir, "site-1");
  BOOST_TEST(modeOf(tmp.file("a")) == 0700u);
  BOOST_TEST(modeOf(dir) == 0700u);
  BOOST_TEST(openStateDir(dir, OpenMode::ReadWrite).ok());
}

BOOST_AUTO_TEST_CASE(initIntoAnExistingEmptyDirectoryWorks) {
  TempDir tmp;  // e.g. created by systemd's StateDirectory=
  initOk(tmp.path() + "/", "site-1");
  BOOST_TEST(fs::exists(tmp.file("atoms.db")));
}

BOOST_AUTO_TEST_CASE(initTwiceRefusesAndChangesNothing) {
  TempDir tmp;
  initOk(tmp.path(), "site-1");
  const auto before = snapshot(tmp.path());
  auto s = initStateDir(tmp.path(), InitOptions{"site-2"});
  BOOST_REQUIRE(!s.ok());
  BOOST_TEST(contains(s.message(), "already holds a database; refusing to overwrite"));
  BOOST_TEST((snapshot(tmp.path()) == before));
}

BOOST_AUTO_TEST_CASE(initRefusesWhenAnyOneFileExists) {
  for (const char* name : {"db.key", "site.key", "atoms.db", "atoms.db-wal"}) {
    TempDir tmp;
    { std::ofstream(tmp.file(name)) << "x"; }
    const auto before = snapshot(tmp.path());
    BOOST_TEST(!initStateDir(tmp.path(), InitOptions{"site-1"}).ok(), name);
    BOOST_TEST((snapshot(tmp.path()) == before), name);
  }
}

BOOST_AUTO_TEST_CASE(siteIdsAreValidated) {
  for (const char* good : {"a", "0", "site-1", "berlin-mitte-03"}) {
    BOOST_TEST(validateSiteId(good).ok(), good);
  }
  BOOST_TEST(validateSiteId(std::string(64, 'x')).ok());
  for (const char* bad : {"", "-a", "A", "a_b", "a.b", "a b", "a/b", "ü", "a+", "#"}) {
    BOOST_TEST(!validateSiteId(bad).ok(), bad);
  }
  BOOST_TEST(!validateSiteId(std::string(65, 'x')).ok());

  TempDir tmp;
  const std::string dir = tmp.file("state");
  auto s = initStateDir(dir, InitOptions{"Bad_Id"});
  BOOST_REQUIRE(!s.ok());
  BOOST_TEST(contains(s.message(), "Bad_Id"));
  BOOST_TEST(!fs::exists(dir));
}

BOOST_AUTO_TEST_CASE(failedInitRemovesWhatItCreatedAndCanBeRetried) {
  TempDir tmp;
  // A leftover journal makes the database step fail after both key files were written.
  const std::string leftover = tmp.file("atoms.db-journal");
  { std::ofstream(leftover) << "old"; }
  auto s = initStateDir(tmp.path(), InitOptions{"site-1"});
  BOOST_REQUIRE(!s.ok());
  BOOST_TEST(!fs::exists(tmp.file("db.key")));
  BOOST_TEST(!fs::exists(tmp.file("site.key")));
  BOOST_TEST(!fs::exists(tmp.file("atoms.db")));
  BOOST_TEST(readAll(leftover) == "old");  // not ours: kept

  fs::remove(leftover);
  initOk(tmp.path(), "site-1");
  BOOST_TEST(openStateDir(tmp.path(), OpenMode::ReadWrite).ok());
}

BOOST_AUTO_TEST_CASE(initBelowARegularFileFailsAndCreatesNothing) {
  TempDir tmp;
  { std::ofstream(tmp.file("file")) << "x"; }
  const auto before = snapshot(tmp.path());
  auto s = initStateDir(tmp.file("file/state"), InitOptions{"site-1"});
  BOOST_REQUIRE(!s.ok());
  BOOST_TEST(contains(s.message(), "Not a directory"));
  BOOST_TEST((snapshot(tmp.path()) == before));
}

BOOST_AUTO_TEST_CASE(openingAMissingDirectorySuggestsInit) {
  TempDir tmp;
  const std::string dir = tmp.file("nowhere");
  BOOST_TEST(openError(dir, OpenMode::ReadWrite) ==
             "state directory " + dir + " does not exist; run `atoms-edge init --state-dir " + dir +
                 "` first");
  BOOST_TEST(!fs::exists(dir));
}

BOOST_AUTO_TEST_CASE(openingAnEmptyDirectorySaysNotInitialised) {
  TempDir tmp;
  BOOST_TEST(contains(openError(tmp.path(), OpenMode::ReadWrite), "is not initialised"));
  BOOST_TEST(fs::is_empty(tmp.path()));
}

BOOST_AUTO_TEST_CASE(openingWithCreateModeIsRefused) {
  TempDir tmp;
  initOk(tmp.path(), "site-1");
  BOOST_TEST(!openStateDir(tmp.path(), OpenMode::Create).ok());
}

BOOST_AUTO_TEST_CASE(missingDatabaseIsAnErrorAndNotRecreated) {
  TempDir tmp;
  initOk(tmp.path(), "site-1");
  fs::remove(tmp.file("atoms.db"));
  BOOST_TEST(contains(openError(tmp.path(), OpenMode::ReadWrite), "does not exist"));
  BOOST_TEST(!fs::exists(tmp.file("atoms.db")));
}

BOOST_AUTO_TEST_CASE(databaseKeyOfAnotherSiteIsAWrongKey) {
  TempDir a, b;
  initOk(a.path(), "site-a");
  initOk(b.path(), "site-b");
  fs::remove(a.file("db.key"));
  fs::copy_file(b.file("db.key"), a.file("db.key"));
  const auto before = readAll(a.file("atoms.db"));
  BOOST_TEST(contains(openError(a.path(), OpenMode::ReadWrite), "wrong key"));
  BOOST_TEST((readAll(a.file("atoms.db")) == before));
}

BOOST_AUTO_TEST_CASE(siteKeyOfAnotherSiteIsRefused) {
  TempDir a, b;
  initOk(a.path(), "site-a");
  initOk(b.path(), "site-b");
  fs::remove(a.file("site.key"));
  fs::copy_file(b.file("site.key"), a.file("site.key"));
  BOOST_TEST(contains(openError(a.path(), OpenMode::ReadWrite),
                      "site.key (" + a.file("site.key") + ") does not belong to this database"));
}

BOOST_AUTO_TEST_CASE(badKeyFilesAreReportedByOpen) {
  TempDir tmp;
  initOk(tmp.path(), "site-1");
  ::chmod(tmp.file("db.key").c_str(), 0644);
  BOOST_TEST(contains(openError(tmp.path(), OpenMode::ReadWrite), "run chmod 600"));
  ::chmod(tmp.file("db.key").c_str(), 0600);

  const std::string site = readAll(tmp.file("site.key"));
  fs::resize_file(tmp.file("site.key"), site.size() / 2);
  BOOST_TEST(contains(openError(tmp.path(), OpenMode::ReadWrite), "truncated"));
}

BOOST_AUTO_TEST_CASE(truncatedDatabaseIsReportedByOpen) {
  TempDir tmp;
  initOk(tmp.path(), "site-1");
  fs::resize_file(tmp.file("atoms.db"), 0);
  BOOST_TEST(contains(openError(tmp.path(), OpenMode::ReadWrite), "empty"));
}

BOOST_AUTO_TEST_CASE(readOnlyOpenRefusesPendingMigrations) {
  TempDir tmp;
  initOk(tmp.path(), "site-1");
  {
    OpenState st = openOk(tmp.path(), OpenMode::ReadWrite);
    // Pretend the database predates migration 2.
    BOOST_REQUIRE(st.db.exec("DELETE FROM schema_migrations WHERE version >= 2").ok());
  }
  BOOST_TEST(contains(openError(tmp.path(), OpenMode::ReadOnly), "needs schema migration 2"));
}

BOOST_AUTO_TEST_CASE(newerSchemaIsRefused) {
  TempDir tmp;
  initOk(tmp.path(), "site-1");
  {
    OpenState st = openOk(tmp.path(), OpenMode::ReadWrite);
    BOOST_REQUIRE(st.db.exec("INSERT INTO schema_migrations VALUES(99, 'future', 'x')").ok());
  }
  BOOST_TEST(contains(openError(tmp.path(), OpenMode::ReadWrite),
                      "database schema version 99 is newer than this atoms-edge"));
}

BOOST_AUTO_TEST_CASE(keysCanComeFromElsewhere) {
  TempDir tmp, creds;
  initOk(tmp.path(), "site-1");
  auto paths = StateDirPaths::under(tmp.path());
  fs::rename(paths.dbKey, creds.file("db.key"));
  fs::rename(paths.siteKey, creds.file("site.key"));
  paths.dbKey = creds.file("db.key");
  paths.siteKey = creds.file("site.key");
  auto st = openStateDir(paths, OpenMode::ReadWrite);
  BOOST_REQUIRE_MESSAGE(st.ok(), (st.ok() ? "" : st.message()));
  BOOST_TEST(st->identity.siteId == "site-1");
}

BOOST_AUTO_TEST_SUITE_END()
