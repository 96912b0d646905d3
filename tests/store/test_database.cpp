#include <sodium.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "base/unix_time.h"
#include "store/database.h"
#include "store/migrations.h"
#include "store/row_reader.h"
#include "tests/support/file_contents.h"
#include "tests/support/temp_dir.h"
#include "tests/support/text_checks.h"

using namespace atoms;
namespace fs = std::filesystem;

namespace {

using atoms::testing::TempDir;

SecretBytes randomKey() {
  BOOST_REQUIRE(initSodium());
  SecretBytes k(32);
  randombytes_buf(k.data(), k.size());
  return k;
}

// A SQLCipher connection made without Database (SQLCipher 3's defaults: 1024-byte pages), as
// another program or an older atoms-edge would make it; the caller closes it.
sqlite3* openRawKeyed(const std::string& path, const SecretBytes& key) {
  sqlite3* raw = nullptr;
  BOOST_REQUIRE(sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                                nullptr) == SQLITE_OK);
  char hex[65];
  sodium_bin2hex(hex, sizeof hex, key.data(), key.size());
  const std::string k = "x'" + std::string(hex) + "'";
  BOOST_REQUIRE(sqlite3_key_v2(raw, "main", k.data(), static_cast<int>(k.size())) == SQLITE_OK);
  return raw;
}

using atoms::testing::contains;
using atoms::testing::readAll;
using atoms::testing::writeAll;

Database openOk(const std::string& path, const SecretBytes& key, OpenMode mode) {
  auto db = Database::open(path, key, mode);
  BOOST_REQUIRE_MESSAGE(db.ok(), db.message());
  return std::move(db).value();
}

void execOk(Database& db, std::string_view sql) {
  auto s = db.exec(sql);
  BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
}

std::int64_t countRows(Database& db, std::string_view table) {
  auto stmt = db.prepare("SELECT count(*) FROM " + std::string(table));
  BOOST_REQUIRE_MESSAGE(stmt.ok(), stmt.message());
  auto row = stmt->step();
  BOOST_REQUIRE(row.ok() && *row);
  return stmt->columnInt64(0);
}

std::string pragma(Database& db, std::string_view name) {
  auto stmt = db.prepare("PRAGMA " + std::string(name));
  BOOST_REQUIRE(stmt.ok());
  auto row = stmt->step();
  BOOST_REQUIRE(row.ok() && *row);
  return stmt->columnText(0);
}

// A database with enough rows to span several pages.
void makePopulated(const std::string& path, const SecretBytes& key) {
  Database db = openOk(path, key, OpenMode::Create);
  execOk(db, "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT NOT NULL)");
  auto tx = Transaction::begin(db);
  BOOST_REQUIRE(tx.ok());
  auto ins = db.prepare("INSERT INTO t(v) VALUES(?)");
  BOOST_REQUIRE(ins.ok());
  for (int i = 0; i < 200; ++i) {
    ins->bind(1, std::string(100, static_cast<char>('a' + i % 26)));
    auto r = ins->step();
    BOOST_REQUIRE(r.ok());
    BOOST_REQUIRE(ins->reset().ok());
  }
  BOOST_REQUIRE(tx->commit().ok());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(database)

BOOST_AUTO_TEST_CASE(rowsRoundTripAndSurviveReopenWithTheRightKey) {
  TempDir dir;
  const auto path = dir.file("atoms.db");
  const SecretBytes key = randomKey();
  const Bytes blob{0x00, 0x01, 0xfe, 0xff};
  {
    Database db = openOk(path, key, OpenMode::Create);
    execOk(db, "CREATE TABLE t(i INTEGER, s TEXT, b BLOB, n TEXT)");
    auto ins = db.prepare("INSERT INTO t VALUES(?, ?, ?, ?)");
    BOOST_REQUIRE(ins.ok());
    ins->bind(1, std::int64_t{-9007199254740993}).bind(2, "héllo").bindBlob(3, blob).bindNull(4);
    auto r = ins->step();
    BOOST_REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.message()));
    BOOST_TEST(*r == false);
    BOOST_TEST(db.changes() == 1);
    BOOST_TEST(db.lastInsertRowid() == 1);
  }
  Database db = openOk(path, key, OpenMode::ReadWrite);
  auto sel = db.prepare("SELECT i, s, b, n FROM t");
  BOOST_REQUIRE(sel.ok());
  BOOST_TEST(sel->columnCount() == 4);
  auto row = sel->step();
  BOOST_REQUIRE(row.ok() && *row);
  BOOST_TEST(sel->columnInt64(0) == std::int64_t{-9007199254740993});
  BOOST_TEST(sel->columnText(1) == "héllo");
  BOOST_TEST(sel->columnBlob(2) == blob);
  BOOST_TEST(sel->columnIsNull(3));
  BOOST_TEST(!sel->columnIsNull(0));
  auto end = sel->step();
  BOOST_REQUIRE(end.ok());
  BOOST_TEST(*end == false);
}

BOOST_AUTO_TEST_CASE(emptyTextAndBlobAreNotNull) {
  TempDir dir;
  Database db = openOk(dir.file("atoms.db"), randomKey(), OpenMode::Create);
  execOk(db, "CREATE TABLE t(s TEXT NOT NULL, b BLOB NOT NULL)");
  auto ins = db.prepare("INSERT INTO t VALUES(?, ?)");
  BOOST_REQUIRE(ins.ok());
  ins->bind(1, std::string_view()).bindBlob(2, std::span<const std::uint8_t>());
  auto r = ins->step();
  BOOST_TEST_REQUIRE(r.ok(), (r.ok() ? "" : r.message()));
  auto sel = db.prepare("SELECT length(s), length(b) FROM t");
  BOOST_REQUIRE(sel.ok() && sel->step().ok());
  BOOST_TEST(sel->columnInt64(0) == 0);
  BOOST_TEST(sel->columnInt64(1) == 0);
}

BOOST_AUTO_TEST_CASE(connectionUsesWalFullSyncAndForeignKeys) {
  TempDir dir;
  const auto path = dir.file("atoms.db");
  const SecretBytes key = randomKey();
  { openOk(path, key, OpenMode::Create); }
  for (OpenMode mode : {OpenMode::ReadWrite, OpenMode::ReadOnly}) {
    Database db = openOk(path, key, mode);
    BOOST_TEST(pragma(db, "journal_mode") == "wal");
    BOOST_TEST(pragma(db, "synchronous") == "2");  // FULL
    BOOST_TEST(pragma(db, "foreign_keys") == "1");
    BOOST_TEST(pragma(db, "application_id") == std::to_string(kAtomsApplicationId));
  }
}

BOOST_AUTO_TEST_CASE(createdFileHasMode0600) {
  TempDir dir;
  const auto path = dir.file("atoms.db");
  const mode_t old = ::umask(0);  // a permissive umask must not widen the file's mode
  { openOk(path, randomKey(), OpenMode::Create); }
  ::umask(old);
  struct stat st {};
  BOOST_REQUIRE(::stat(path.c_str(), &st) == 0);
  BOOST_TEST((st.st_mode & 07777) == 0600u);
  BOOST_TEST(st.st_size > 0);  // page 1 is in the main file, not only in a -wal
}

BOOST_AUTO_TEST_CASE(wrongKeyIsAClearErrorAndLeavesTheFileUnchanged) {
  TempDir dir;
  const auto path = dir.file("atoms.db");
  makePopulated(path, randomKey());
  const std::string before = readAll(path);
  const SecretBytes wrong = randomKey();
  for (OpenMode mode : {OpenMode::ReadWrite, OpenMode::ReadOnly}) {
    auto db = Database::open(path, wrong, mode);
    BOOST_REQUIRE(!db.ok());
    BOOST_TEST(db.message() ==
               "cannot open database " + path + ": wrong key or not an atoms-edge database");
  }
  BOOST_TEST((readAll(path) == before));
  BOOST_TEST(!fs::exists(path + "-wal"));
  BOOST_TEST(!fs::exists(path + "-shm"));
}

BOOST_AUTO_TEST_CASE(missingFileIsAnErrorAndNothingIsCreated) {
  TempDir dir;
  const auto path = dir.file("atoms.db");
  for (OpenMode mode : {OpenMode::ReadWrite, OpenMode::ReadOnly}) {
    auto db = Database::open(path, randomKey(), mode);
    BOOST_REQUIRE(!db.ok());
    BOOST_TEST(contains(db.message(), "does not exist"));
    BOOST_TEST(!fs::exists(path));
    BOOST_TEST(!fs::exists(path + "-wal"));
    BOOST_TEST(!fs::exists(path + "-journal"));
  }
}

BOOST_AUTO_TEST_CASE(createRefusesAnExistingFile) {
  TempDir dir;
  const auto path = dir.file("atoms.db");
  writeAll(path, "precious");
  auto db = Database::open(path, randomKey(), OpenMode::Create);
  BOOST_REQUIRE(!db.ok());
  BOOST_TEST(contains(db.message(), "already exists"));
  BOOST_TEST(readAll(path) == "precious");
}

BOOST_AUTO_TEST_CASE(createRefusesALeftoverWal) {
  TempDir dir;
  const auto path = dir.file("atoms.db");
  writeAll(path + "-wal", "stale");
  auto db = Database::open(path, randomKey(), OpenMode::Create);
  BOOST_REQUIRE(!db.ok());
  BOOST_TEST(contains(db.message(), "leftover"));
  BOOST_TEST(!fs::exists(path));
}

BOOST_AUTO_TEST_CASE(emptyFileIsReportedAsEmptyNotOpenedAsNewDatabase) {
  TempDir dir;
  const auto path = dir.file("atoms.db");
  writeAll(path, "");
  auto db = Database::open(path, randomKey(), OpenMode::ReadWrite);
  BOOST_REQUIRE(!db.ok());
  BOOST_TEST(contains(db.message(), "empty"));
  BOOST_TEST(fs::file_size(path) == 0u);
}

BOOST_AUTO_TEST_CASE(truncatedDatabaseIsAClearError) {
  TempDir dir;
  const auto path = dir.file("atoms.db");
  const SecretBytes key = randomKey();
  makePopulated(path, key);
  const auto size = fs::file_size(path);
  BOOST_REQUIRE(size > 4u * kCipherPageSize);

  fs::resize_file(path, size - 100);  // mid-page
  auto midPage = Database::open(path, key, OpenMode::ReadWrite);
  BOOST_REQUIRE(!midPage.ok());
  BOOST_TEST(contains(midPage.message(), "truncated"));

  fs::resize_file(path, kCipherPageSize);  // on a page boundary: only page 1 left
  auto onBoundary = Database::open(path, key, OpenMode::ReadWrite);
  BOOST_REQUIRE(!onBoundary.ok());
  BOOST_TEST(contains(onBoundary.message(), "truncated or corrupted"));
}

BOOST_AUTO_TEST_CASE(damagedLaterPageIsFoundByQuickCheck) {
  TempDir dir;
  const auto path = dir.file("atoms.db");
  const SecretBytes key = randomKey();
  makePopulated(path, key);
  {
    std::fstream f(path, std::ios::binary | std::ios::in | std::ios::out);
    f.seekp(3 * kCipherPageSize + 500);
    f.write("XXXXXXXX", 8);
  }
  Database db = openOk(path, key, OpenMode::ReadWrite);  // page 1 is intact
  auto check = db.quickCheck();
  BOOST_TEST(!check.ok());
}

BOOST_AUTO_TEST_CASE(foreignFilesAreRefused) {
  TempDir dir;
  const auto path = dir.file("atoms.db");
  std::string noise(4096, '\0');
  randombytes_buf(noise.data(), noise.size());
  writeAll(path, noise);
  auto db = Database::open(path, randomKey(), OpenMode::ReadWrite);
  BOOST_REQUIRE(!db.ok());
  BOOST_TEST(contains(db.message(), "wrong key or not an atoms-edge database"));
  BOOST_TEST((readAll(path) == noise));
}

BOOST_AUTO_TEST_CASE(sqlcipherDatabaseOfAnotherProgramIsRefused) {
  TempDir dir;
  const auto path = dir.file("other.db");
  const SecretBytes key = randomKey();
  {
    // Same key and format, but created without our application id.
    sqlite3* raw = openRawKeyed(path, key);
    BOOST_REQUIRE(sqlite3_exec(raw, "CREATE TABLE x(y)", nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(raw);
  }
  auto db = Database::open(path, key, OpenMode::ReadWrite);
  BOOST_REQUIRE(!db.ok());
  BOOST_TEST(contains(db.message(), "not an atoms-edge database"));
}

BOOST_AUTO_TEST_CASE(aNewDatabaseHasTheCurrentPageSize) {
  TempDir dir;
  const auto path = dir.file("atoms.db");
  const SecretBytes key = randomKey();
  makePopulated(path, key);
  BOOST_TEST(fs::file_size(path) % kCipherPageSize == 0u);
  Database db = openOk(path, key, OpenMode::ReadOnly);
  BOOST_TEST(*db.pageSize() == kCipherPageSize);
}

BOOST_AUTO_TEST_CASE(aDatabaseWithTheLegacyPageSizeOpensWithItsWalAndKeepsItsPages) {
  TempDir dir;
  const auto path = dir.file("atoms.db");
  const SecretBytes key = randomKey();
  // As an older atoms-edge made it: 1024-byte pages, our application id, WAL; the writer is still
  // open, so its last rows are only in the -wal file.
  sqlite3* writer = openRawKeyed(path, key);
  const std::string setup = "PRAGMA application_id = " + std::to_string(kAtomsApplicationId) +
                            "; PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;"
                            " CREATE TABLE t(v TEXT); INSERT INTO t VALUES('before');";
  BOOST_REQUIRE(sqlite3_exec(writer, setup.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
  BOOST_REQUIRE(fs::exists(path + "-wal"));
  {
    Database db = openOk(path, key, OpenMode::ReadWrite);
    BOOST_TEST(*db.pageSize() == kLegacyCipherPageSize);
    BOOST_TEST(countRows(db, "t WHERE v = 'before'") == 1);
    execOk(db, "INSERT INTO t VALUES('after')");
  }
  sqlite3_close(writer);
  BOOST_TEST(fs::file_size(path) % kLegacyCipherPageSize == 0u);
  Database again = openOk(path, key, OpenMode::ReadOnly);
  BOOST_TEST(*again.pageSize() == kLegacyCipherPageSize);
  BOOST_TEST(countRows(again, "t") == 2);
  // The wrong key is still a wrong key at either page size.
  auto wrong = Database::open(path, randomKey(), OpenMode::ReadOnly);
  BOOST_REQUIRE(!wrong.ok());
  BOOST_TEST(contains(wrong.message(), "wrong key"));
}

BOOST_AUTO_TEST_CASE(keyOfWrongSizeIsRefused) {
  TempDir dir;
  auto db = Database::open(dir.file("atoms.db"), SecretBytes(16), OpenMode::Create);
  BOOST_REQUIRE(!db.ok());
  BOOST_TEST(contains(db.message(), "32 bytes"));
  BOOST_TEST(!fs::exists(dir.file("atoms.db")));
}

BOOST_AUTO_TEST_CASE(neitherDatabaseNorWalHoldsPlaintext) {
  TempDir dir;
  const auto path = dir.file("atoms.db");
  const std::string marker = "Distinctive-Row-Text-7f3a9c";
  Database db = openOk(path, randomKey(), OpenMode::Create);
  execOk(db, "CREATE TABLE t(v TEXT)");
  auto ins = db.prepare("INSERT INTO t VALUES(?)");
  BOOST_REQUIRE(ins.ok());
  ins->bind(1, marker);
  BOOST_REQUIRE(ins->step().ok());

  // While the connection is open the row lives in the -wal.
  const std::string wal = readAll(path + "-wal");
  BOOST_REQUIRE(wal.size() > 0u);
  BOOST_TEST(!contains(wal, marker));
  BOOST_TEST(!contains(wal, "SQLite format 3"));
  BOOST_TEST(!contains(wal, "CREATE TABLE"));

  db = Database();  // closing checkpoints the row into the main file
  const std::string main = readAll(path);
  BOOST_REQUIRE(main.size() > 0u);
  BOOST_TEST(!contains(main, marker));
  BOOST_TEST(!contains(main, "SQLite format 3"));
  BOOST_TEST(!contains(main, "CREATE TABLE"));
}

BOOST_AUTO_TEST_CASE(readOnlyConnectionReadsWhileTheWriterHoldsTheWriteLock) {
  TempDir dir;
  const auto path = dir.file("atoms.db");
  const SecretBytes key = randomKey();
  Database writer = openOk(path, key, OpenMode::Create);
  execOk(writer, "CREATE TABLE t(v TEXT)");
  execOk(writer, "INSERT INTO t VALUES('committed')");

  auto tx = Transaction::begin(writer);
  BOOST_REQUIRE(tx.ok());
  execOk(writer, "INSERT INTO t VALUES('pending')");

  Database reader = openOk(path, key, OpenMode::ReadOnly);
  BOOST_TEST(countRows(reader, "t") == 1);  // sees the committed row, not the pending one
  auto write = reader.exec("INSERT INTO t VALUES('from reader')");
  BOOST_TEST(!write.ok());

  BOOST_REQUIRE(tx->commit().ok());
  BOOST_TEST(countRows(reader, "t") == 2);
}

// A reader on a stopped box (`identity`, `verify`) leaves the state directory as it found it: no
// atoms.db-wal or -shm behind (the issue "Sync", item 4). Beside a running writer they stay: they
// are the writer's.
BOOST_AUTO_TEST_CASE(aReaderAloneLeavesNoWalFilesAndOneBesideTheWriterLeavesTheWritersBe) {
  TempDir dir;
  const auto path = dir.file("atoms.db");
  const SecretBytes key = randomKey();
  {
    Database writer = openOk(path, key, OpenMode::Create);
    execOk(writer, "CREATE TABLE t(v TEXT)");
    execOk(writer, "INSERT INTO t VALUES('x')");
  }
  BOOST_REQUIRE(!std::filesystem::exists(path + "-wal"));
  {
    Database reader = openOk(path, key, OpenMode::ReadOnly);
    BOOST_TEST(countRows(reader, "t") == 1);
    BOOST_TEST(!reader.exec("INSERT INTO t VALUES('no')").ok());
  }
  BOOST_TEST(!std::filesystem::exists(path + "-wal"));
  BOOST_TEST(!std::filesystem::exists(path + "-shm"));

  Database writer = openOk(path, key, OpenMode::ReadWrite);
  execOk(writer, "INSERT INTO t VALUES('y')");
  {
    Database reader = openOk(path, key, OpenMode::ReadOnly);
    BOOST_TEST(countRows(reader, "t") == 2);
  }
  BOOST_TEST(std::filesystem::exists(path + "-wal"));  // still the writer's
  BOOST_TEST(std::filesystem::exists(path + "-shm"));
  BOOST_TEST(countRows(writer, "t") == 2);
}

BOOST_AUTO_TEST_CASE(transactionRollsBackWhenDestroyedUncommitted) {
  TempDir dir;
  Database db = openOk(dir.file("atoms.db"), randomKey(), OpenMode::Create);
  execOk(db, "CREATE TABLE t(v INTEGER)");
  {
    auto tx = Transaction::begin(db);
    BOOST_REQUIRE(tx.ok());
    execOk(db, "INSERT INTO t VALUES(1)");
    BOOST_TEST(countRows(db, "t") == 1);
  }
  BOOST_TEST(countRows(db, "t") == 0);
  {
    auto tx = Transaction::begin(db);
    BOOST_REQUIRE(tx.ok());
    execOk(db, "INSERT INTO t VALUES(2)");
    BOOST_REQUIRE(tx->commit().ok());
    BOOST_TEST(!tx->commit().ok());  // already finished
  }
  BOOST_TEST(countRows(db, "t") == 1);
}

BOOST_AUTO_TEST_CASE(secondWriterTransactionFailsWhileTheFirstHoldsTheLock) {
  TempDir dir;
  const auto path = dir.file("atoms.db");
  const SecretBytes key = randomKey();
  Database a = openOk(path, key, OpenMode::Create);
  execOk(a, "PRAGMA busy_timeout = 0");
  Database b = openOk(path, key, OpenMode::ReadWrite);
  execOk(b, "PRAGMA busy_timeout = 0");  // fail at once instead of waiting kBusyTimeoutMs
  auto ta = Transaction::begin(a);
  BOOST_REQUIRE(ta.ok());
  auto tb = Transaction::begin(b);
  BOOST_REQUIRE(!tb.ok());
  BOOST_TEST(contains(tb.message(), "locked"));
}

BOOST_AUTO_TEST_CASE(stepErrorsCarrySqliteMessageAndSql) {
  TempDir dir;
  Database db = openOk(dir.file("atoms.db"), randomKey(), OpenMode::Create);
  execOk(db, "CREATE TABLE t(v INTEGER NOT NULL)");
  auto ins = db.prepare("INSERT INTO t(v) VALUES(?)");
  BOOST_REQUIRE(ins.ok());
  ins->bindNull(1);
  auto r = ins->step();
  BOOST_REQUIRE(!r.ok());
  BOOST_TEST(contains(r.message(), "NOT NULL"));
  BOOST_TEST(contains(r.message(), "INSERT INTO t(v) VALUES(?)"));
  // After reset the statement is usable again.
  BOOST_REQUIRE(ins->reset().ok());
  ins->bind(1, std::int64_t{5});
  BOOST_TEST(ins->step().ok());
}

BOOST_AUTO_TEST_CASE(bindErrorSurfacesAtStepAndNothingRuns) {
  TempDir dir;
  Database db = openOk(dir.file("atoms.db"), randomKey(), OpenMode::Create);
  execOk(db, "CREATE TABLE t(v INTEGER)");
  auto ins = db.prepare("INSERT INTO t(v) VALUES(?)");
  BOOST_REQUIRE(ins.ok());
  ins->bind(2, std::int64_t{1}).bind(1, std::int64_t{1});
  auto r = ins->step();
  BOOST_REQUIRE(!r.ok());
  BOOST_TEST(contains(r.message(), "parameter 2"));
  BOOST_TEST(countRows(db, "t") == 0);
}

BOOST_AUTO_TEST_CASE(prepareRefusesSyntaxErrorsAndSecondStatements) {
  TempDir dir;
  Database db = openOk(dir.file("atoms.db"), randomKey(), OpenMode::Create);
  auto bad = db.prepare("SELEC 1");
  BOOST_REQUIRE(!bad.ok());
  BOOST_TEST(contains(bad.message(), "SELEC 1"));
  auto two = db.prepare("SELECT 1; SELECT 2");
  BOOST_REQUIRE(!two.ok());
  BOOST_TEST(contains(two.message(), "one statement"));
  BOOST_TEST(db.prepare("SELECT 1;  \n").ok());
  BOOST_TEST(!db.prepare("   ").ok());
  auto exec = db.exec("CREATE TABLE");
  BOOST_REQUIRE(!exec.ok());
  BOOST_TEST(contains(exec.message(), "CREATE TABLE"));
}

BOOST_AUTO_TEST_SUITE_END()

// ---- the statement cache ----

namespace {

// A database with t(id, v) holding rows 1..3.
Database withThreeRows(const TempDir& dir) {
  Database db = openOk(dir.file("atoms.db"), randomKey(), OpenMode::Create);
  execOk(db,
         "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT NOT NULL);"
         "INSERT INTO t(v) VALUES('a'), ('b'), ('c')");
  return db;
}

constexpr std::string_view kSelectAll = "SELECT id, v FROM t ORDER BY id";

Statement cachedOk(Database& db, std::string_view sql) {
  auto stmt = db.cached(sql);
  BOOST_REQUIRE_MESSAGE(stmt.ok(), stmt.message());
  return std::move(stmt).value();
}

std::int64_t firstId(Statement& stmt) {
  auto row = stmt.step();
  BOOST_REQUIRE(row.ok() && *row);
  return stmt.columnInt64(0);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(statement_cache)

BOOST_AUTO_TEST_CASE(theSameSqlReusesOneCompiledStatement) {
  TempDir dir;
  Database db = withThreeRows(dir);
  sqlite3_stmt* first = nullptr;
  {
    Statement stmt = cachedOk(db, kSelectAll);
    first = stmt.handle();
    BOOST_TEST(firstId(stmt) == 1);
  }
  Statement again = cachedOk(db, kSelectAll);
  BOOST_TEST(again.handle() == first);
  BOOST_TEST(firstId(again) == 1);
  BOOST_TEST(db.cachedStatementCount() == 1U);
}

BOOST_AUTO_TEST_CASE(aStatementComesBackResetWithItsBindingsCleared) {
  TempDir dir;
  Database db = withThreeRows(dir);
  {
    Statement half = cachedOk(db, kSelectAll);
    BOOST_TEST(firstId(half) == 1);  // left on its first row, holding a read
    BOOST_TEST(sqlite3_stmt_busy(half.handle()) != 0);
  }
  {
    Statement again = cachedOk(db, kSelectAll);
    BOOST_TEST(sqlite3_stmt_busy(again.handle()) == 0);
    BOOST_TEST(firstId(again) == 1);  // from the start, not the second row
  }
  {
    Statement bound = cachedOk(db, "SELECT ?");
    bound.bind(1, std::int64_t{7});
    BOOST_TEST(firstId(bound) == 7);
  }
  Statement unbound = cachedOk(db, "SELECT ?");
  auto row = unbound.step();
  BOOST_REQUIRE(row.ok() && *row);
  BOOST_TEST(unbound.columnIsNull(0));  // the last user's 7 is gone
}

BOOST_AUTO_TEST_CASE(nestedUseOfTheSameSqlGetsAFreshStatement) {
  TempDir dir;
  Database db = withThreeRows(dir);
  sqlite3_stmt* kept = nullptr;
  {
    Statement outer = cachedOk(db, kSelectAll);
    kept = outer.handle();
    BOOST_TEST(firstId(outer) == 1);
    {
      Statement inner = cachedOk(db, kSelectAll);
      BOOST_TEST(inner.handle() != kept);
      auto all = readRows(inner, [](RowReader& r) { return r.int64(); });
      BOOST_REQUIRE(all.ok());
      BOOST_TEST(*all == (std::vector<std::int64_t>{1, 2, 3}), boost::test_tools::per_element());
    }
    auto row = outer.step();  // the outer walk goes on where it was
    BOOST_REQUIRE(row.ok() && *row);
    BOOST_TEST(outer.columnInt64(0) == 2);
  }
  BOOST_TEST(db.cachedStatementCount() == 1U);
  Statement next = cachedOk(db, kSelectAll);
  BOOST_TEST(next.handle() == kept);
}

BOOST_AUTO_TEST_CASE(errorsAreStillReportedAndTheStatementStaysUsable) {
  TempDir dir;
  Database db = withThreeRows(dir);
  constexpr std::string_view kInsert = "INSERT INTO t(v) VALUES(?)";
  {
    Statement ins = cachedOk(db, kInsert);
    ins.bindNull(1);
    auto r = ins.step();
    BOOST_REQUIRE(!r.ok());
    BOOST_TEST(contains(r.message(), "NOT NULL"));
    BOOST_TEST(contains(r.message(), std::string(kInsert)));
  }
  {
    Statement ins = cachedOk(db, kInsert);
    ins.bind(2, std::int64_t{1});
    auto r = ins.step();
    BOOST_REQUIRE(!r.ok());
    BOOST_TEST(contains(r.message(), "parameter 2"));
  }
  {
    Statement ins = cachedOk(db, kInsert);
    ins.bind(1, "d");
    BOOST_TEST(ins.run().ok());
  }
  BOOST_TEST(countRows(db, "t") == 4);
  for (int i = 0; i < 2; ++i) {  // nothing is kept for SQL that does not compile
    auto bad = db.cached("SELEC 1");
    BOOST_REQUIRE(!bad.ok());
    BOOST_TEST(contains(bad.message(), "SELEC 1"));
  }
  BOOST_TEST(!db.cached("SELECT 1; SELECT 2").ok());
  BOOST_TEST(db.cachedStatementCount() == 1U);
}

BOOST_AUTO_TEST_CASE(aMigrationClearsTheCache) {
  TempDir dir;
  Database db = withThreeRows(dir);
  {
    Statement stmt = cachedOk(db, kSelectAll);
    BOOST_TEST(firstId(stmt) == 1);
  }
  Statement out = cachedOk(db, "SELECT count(*) FROM t");
  constexpr Migration kAddColumn[] = {{1, "w", "ALTER TABLE t ADD COLUMN w TEXT"}};
  BOOST_REQUIRE(migrate(db, kAddColumn).ok());
  BOOST_TEST(db.cachedStatementCount() == 0U);
  BOOST_TEST(firstId(out) == 3);  // one out during the migration still runs...
  out = Statement();              // ...and is finalized when it comes back
  BOOST_TEST(db.cachedStatementCount() == 0U);
  Statement after = cachedOk(db, "SELECT id, v, w FROM t ORDER BY id");
  BOOST_TEST(firstId(after) == 1);
  // The statement kept before the migration is gone (finalized), not handed out again; its
  // address may be reused by the allocator, so it is the cache's count that says so.
  BOOST_TEST(db.cachedStatementCount() == 1U);
  BOOST_TEST(db.cached(kSelectAll).ok());
  BOOST_TEST(db.cachedStatementCount() == 2U);
}

BOOST_AUTO_TEST_CASE(aKeptStatementFollowsASchemaChangeOutsideAMigration) {
  TempDir dir;
  Database db = withThreeRows(dir);
  { Statement stmt = cachedOk(db, "SELECT * FROM t ORDER BY id"); }
  execOk(db, "ALTER TABLE t ADD COLUMN w TEXT NOT NULL DEFAULT 'x'");
  Statement stmt = cachedOk(db, "SELECT * FROM t ORDER BY id");
  auto row = stmt.step();
  BOOST_REQUIRE_MESSAGE(row.ok() && *row, row.message());
  BOOST_TEST(stmt.columnCount() == 3);
  BOOST_TEST(stmt.columnText(2) == "x");
}

BOOST_AUTO_TEST_CASE(theCacheIsBoundedAndDropsTheLeastRecentlyUsed) {
  TempDir dir;
  Database db = withThreeRows(dir);
  sqlite3_stmt* favourite = nullptr;
  {
    Statement stmt = cachedOk(db, kSelectAll);
    favourite = stmt.handle();
  }
  for (std::size_t i = 0; i < kStatementCacheCapacity + 10; ++i) {
    Statement stmt = cachedOk(db, "SELECT " + std::to_string(i));
    BOOST_TEST(firstId(stmt) == static_cast<std::int64_t>(i));
    if (i % 8 == 0) {
      Statement used = cachedOk(db, kSelectAll);  // kept warm
      BOOST_TEST(used.handle() == favourite);
    }
  }
  BOOST_TEST(db.cachedStatementCount() == kStatementCacheCapacity);
  Statement last = cachedOk(db, "SELECT " + std::to_string(kStatementCacheCapacity + 9));
  BOOST_TEST(db.cachedStatementCount() == kStatementCacheCapacity);  // a hit: nothing added
  Statement first = cachedOk(db, "SELECT 1");                        // long gone: compiled anew
  BOOST_TEST(firstId(first) == 1);
  BOOST_TEST(db.cachedStatementCount() == kStatementCacheCapacity);
}

BOOST_AUTO_TEST_CASE(closingTheDatabaseFinalizesKeptAndLateStatements) {
  TempDir dir;
  const SecretBytes key = randomKey();
  const std::string path = dir.file("atoms.db");
  {
    Database db = openOk(path, key, OpenMode::Create);
    execOk(db, "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT NOT NULL)");
    { Statement kept = cachedOk(db, "SELECT count(*) FROM t"); }
    Statement late = cachedOk(db, "INSERT INTO t(v) VALUES('late')");
    db = Database();  // closed while `late` is out (a contract breach the cache survives)
    BOOST_TEST(db.cachedStatementCount() == 0U);
    BOOST_TEST(!db.cached("SELECT 1").ok());
  }
  Database again = openOk(path, key, OpenMode::ReadWrite);
  BOOST_TEST(countRows(again, "t") == 0);
}

BOOST_AUTO_TEST_CASE(aMovedDatabaseKeepsItsCache) {
  TempDir dir;
  Database db = withThreeRows(dir);
  sqlite3_stmt* kept = nullptr;
  {
    Statement stmt = cachedOk(db, kSelectAll);
    kept = stmt.handle();
  }
  Database moved = std::move(db);
  Statement stmt = cachedOk(moved, kSelectAll);
  BOOST_TEST(stmt.handle() == kept);
  BOOST_TEST(firstId(stmt) == 1);
}

BOOST_AUTO_TEST_SUITE_END()

// ---- reading rows ----

namespace {

enum class Colour { kRed, kGreen };
constexpr NameTable<Colour, 2> kColours{{{Colour::kRed, "red"}, {Colour::kGreen, "green"}}};

struct Thing {
  std::int64_t id = 0;
  std::string name;
  std::optional<std::string> note;
  TimePoint at;
  std::optional<TimePoint> done;
  Colour colour = Colour::kRed;
  bool big = false;
  Bytes blob;
};

Result<Thing> readThing(RowReader& r) {
  Thing t;
  t.id = r.int64();
  t.name = r.text();
  t.note = r.optionalText();
  t.at = r.time();
  t.done = r.optionalTime();
  auto colour = r.named(kColours);
  if (!colour) return makeError("thing " + std::to_string(t.id) + " has an unknown colour");
  t.colour = *colour;
  t.big = r.flag();
  t.blob = r.blob();
  return t;
}

Database withThings(const TempDir& dir) {
  Database db = openOk(dir.file("atoms.db"), randomKey(), OpenMode::Create);
  execOk(db,
         "CREATE TABLE thing(id INTEGER PRIMARY KEY, name TEXT, note TEXT, at INTEGER,"
         " done INTEGER, colour TEXT, big INTEGER, blob BLOB);"
         "INSERT INTO thing VALUES(1, 'one', NULL, 1700000000123, NULL, 'red', 0, NULL),"
         " (2, 'two', 'hi', 5, 6, 'green', 3, x'0102')");
  return db;
}

constexpr std::string_view kSelectThings =
    "SELECT id, name, note, at, done, colour, big, blob FROM thing ORDER BY id";

}  // namespace

BOOST_AUTO_TEST_SUITE(row_reader)

BOOST_AUTO_TEST_CASE(readsColumnsInOrderWithNullsAsOptionals) {
  TempDir dir;
  Database db = withThings(dir);
  Statement stmt = cachedOk(db, kSelectThings);
  auto things = readRows(stmt, readThing);
  BOOST_REQUIRE_MESSAGE(things.ok(), things.message());
  BOOST_REQUIRE(things->size() == 2U);
  const Thing& one = (*things)[0];
  BOOST_TEST(one.id == 1);
  BOOST_TEST(one.name == "one");
  BOOST_TEST(!one.note.has_value());
  BOOST_TEST(toUnixMillis(one.at) == 1700000000123);
  BOOST_TEST(!one.done.has_value());
  BOOST_TEST((one.colour == Colour::kRed));
  BOOST_TEST(!one.big);
  BOOST_TEST(one.blob.empty());
  const Thing& two = (*things)[1];
  BOOST_TEST(two.note.value_or("") == "hi");
  BOOST_REQUIRE(two.done.has_value());
  BOOST_TEST(toUnixMillis(*two.done) == 6);
  BOOST_TEST((two.colour == Colour::kGreen));
  BOOST_TEST(two.big);
  BOOST_TEST(two.blob == (Bytes{1, 2}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(theMappersErrorStopsTheRead) {
  TempDir dir;
  Database db = withThings(dir);
  execOk(db, "UPDATE thing SET colour = 'blue' WHERE id = 2");
  Statement stmt = cachedOk(db, kSelectThings);
  auto things = readRows(stmt, readThing);
  BOOST_REQUIRE(!things.ok());
  BOOST_TEST(things.message() == "thing 2 has an unknown colour");
}

BOOST_AUTO_TEST_CASE(readFirstTakesOneRowOrNone) {
  TempDir dir;
  Database db = withThings(dir);
  Statement stmt = cachedOk(db, "SELECT name FROM thing WHERE id >= ? ORDER BY id");
  stmt.bind(1, std::int64_t{1});
  auto first = readFirst(stmt, [](RowReader& r) { return r.text(); });
  BOOST_REQUIRE(first.ok());
  BOOST_TEST(first->value_or("") == "one");
  BOOST_REQUIRE(stmt.reset().ok());
  stmt.bind(1, std::int64_t{9});
  auto none = readFirst(stmt, [](RowReader& r) { return r.text(); });
  BOOST_REQUIRE(none.ok());
  BOOST_TEST(!none->has_value());
}

BOOST_AUTO_TEST_CASE(skipAndNextIsNullWalkTheColumns) {
  TempDir dir;
  Database db = withThings(dir);
  Statement stmt = cachedOk(db, kSelectThings);
  auto row = stmt.step();
  BOOST_REQUIRE(row.ok() && *row);
  RowReader r(stmt);
  r.skip(2);
  BOOST_TEST(r.nextIsNull());
  BOOST_TEST(!r.optionalInt64().has_value());  // note
  BOOST_TEST(!r.nextIsNull());
  BOOST_TEST(r.int64() == 1700000000123);     // at
  BOOST_TEST(!r.optionalTime().has_value());  // done
  BOOST_TEST(r.text() == "red");
  BOOST_TEST(r.int32() == 0);
}

BOOST_AUTO_TEST_SUITE_END()

// ---- migrations ----

namespace {

constexpr Migration kTwo[] = {
    {1, "one", "CREATE TABLE a(x INTEGER);"},
    {2, "two", "CREATE TABLE b(y INTEGER); CREATE INDEX b_y ON b(y);"},
};

// YYYY-MM-DDTHH:MM:SS.mmmZ
bool isUtcMillisStamp(const std::string& s) {
  const std::string shape = "dddd-dd-ddTdd:dd:dd.dddZ";
  if (s.size() != shape.size()) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const bool ok = shape[i] == 'd' ? (s[i] >= '0' && s[i] <= '9') : s[i] == shape[i];
    if (!ok) return false;
  }
  return true;
}

std::vector<std::pair<int, std::string>> recorded(Database& db) {
  std::vector<std::pair<int, std::string>> out;
  auto stmt =
      db.prepare("SELECT version, name, applied_at FROM schema_migrations ORDER BY version");
  BOOST_REQUIRE(stmt.ok());
  for (;;) {
    auto row = stmt->step();
    BOOST_REQUIRE(row.ok());
    if (!*row) break;
    BOOST_TEST(isUtcMillisStamp(stmt->columnText(2)), stmt->columnText(2));
    out.emplace_back(static_cast<int>(stmt->columnInt64(0)), stmt->columnText(1));
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(migrations)

BOOST_AUTO_TEST_CASE(migrationsApplyOnceInOrderAndAreRecorded) {
  TempDir dir;
  Database db = openOk(dir.file("atoms.db"), randomKey(), OpenMode::Create);
  auto pending = pendingMigrations(db, kTwo);
  BOOST_REQUIRE(pending.ok());
  BOOST_TEST(*pending == (std::vector<int>{1, 2}));

  BOOST_REQUIRE(migrate(db, std::span<const Migration>(kTwo).first(1)).ok());
  BOOST_TEST((recorded(db) == std::vector<std::pair<int, std::string>>{{1, "one"}}));
  auto s = migrate(db, kTwo);
  BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
  BOOST_REQUIRE(migrate(db, kTwo).ok());  // a second run is a no-op
  BOOST_TEST((recorded(db) == std::vector<std::pair<int, std::string>>{{1, "one"}, {2, "two"}}));
  BOOST_TEST(countRows(db, "a") == 0);
  BOOST_TEST(countRows(db, "b") == 0);
  pending = pendingMigrations(db, kTwo);
  BOOST_REQUIRE(pending.ok());
  BOOST_TEST(pending->empty());
}

BOOST_AUTO_TEST_CASE(newerRecordedVersionIsRefused) {
  TempDir dir;
  Database db = openOk(dir.file("atoms.db"), randomKey(), OpenMode::Create);
  BOOST_REQUIRE(migrate(db, kTwo).ok());
  execOk(db, "INSERT INTO schema_migrations VALUES(7, 'future', '2030-01-01T00:00:00.000Z')");
  auto s = migrate(db, kTwo);
  BOOST_REQUIRE(!s.ok());
  BOOST_TEST(s.message() == "database schema version 7 is newer than this atoms-edge (2)");
}

BOOST_AUTO_TEST_CASE(recordedNameThatDiffersIsRefused) {
  TempDir dir;
  Database db = openOk(dir.file("atoms.db"), randomKey(), OpenMode::Create);
  BOOST_REQUIRE(migrate(db, kTwo).ok());
  constexpr Migration renamed[] = {{1, "one", ""}, {2, "deux", ""}};
  auto s = migrate(db, renamed);
  BOOST_REQUIRE(!s.ok());
  BOOST_TEST(contains(s.message(), "'two'"));
  BOOST_TEST(contains(s.message(), "'deux'"));
}

BOOST_AUTO_TEST_CASE(failingMigrationIsRolledBackAndEarlierOnesStay) {
  TempDir dir;
  Database db = openOk(dir.file("atoms.db"), randomKey(), OpenMode::Create);
  constexpr Migration broken[] = {
      {1, "one", "CREATE TABLE a(x INTEGER);"},
      {2, "bad", "CREATE TABLE half(z INTEGER); THIS IS NOT SQL;"},
  };
  auto s = migrate(db, broken);
  BOOST_REQUIRE(!s.ok());
  BOOST_TEST(contains(s.message(), "schema migration 2 (bad) failed"));
  BOOST_TEST((recorded(db) == std::vector<std::pair<int, std::string>>{{1, "one"}}));
  auto half = db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'half'");
  BOOST_REQUIRE(half.ok() && half->step().ok());
  BOOST_TEST(half->columnInt64(0) == 0);
}

BOOST_AUTO_TEST_CASE(malformedListIsRefused) {
  TempDir dir;
  Database db = openOk(dir.file("atoms.db"), randomKey(), OpenMode::Create);
  constexpr Migration unordered[] = {{2, "two", ""}, {1, "one", ""}};
  BOOST_TEST(!migrate(db, unordered).ok());
  constexpr Migration zero[] = {{0, "zero", ""}};
  BOOST_TEST(!migrate(db, zero).ok());
}

BOOST_AUTO_TEST_CASE(readOnlyConnectionReportsPendingAndDoesNotMigrate) {
  TempDir dir;
  const auto path = dir.file("atoms.db");
  const SecretBytes key = randomKey();
  Database writer = openOk(path, key, OpenMode::Create);
  BOOST_REQUIRE(migrate(writer, std::span<const Migration>(kTwo).first(1)).ok());
  Database reader = openOk(path, key, OpenMode::ReadOnly);
  auto pending = pendingMigrations(reader, kTwo);
  BOOST_REQUIRE(pending.ok());
  BOOST_TEST(*pending == (std::vector<int>{2}));
  auto s = migrate(reader, kTwo);
  BOOST_REQUIRE(!s.ok());
  BOOST_TEST(contains(s.message(), "read-only"));
}

BOOST_AUTO_TEST_CASE(storeSchemaCreatesTheAuditTables) {
  TempDir dir;
  Database db = openOk(dir.file("atoms.db"), randomKey(), OpenMode::Create);
  auto s = migrate(db, storeMigrations());
  BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
  for (const char* table : {"meta", "audit_entry", "audit_checkpoint", "audit_sync"}) {
    BOOST_TEST(countRows(db, table) == 0);
  }
  auto bad = db.exec("INSERT INTO audit_sync(id, acked_size) VALUES(2, 0)");
  BOOST_TEST(!bad.ok());  // CHECK(id=1): a single row
}

BOOST_AUTO_TEST_SUITE_END()
