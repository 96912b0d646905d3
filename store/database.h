// Database: a thin RAII wrapper over the SQLCipher C API (one sqlite3 connection).
//
// Contract:
// - Ownership: Database owns its connection, Statement owns its sqlite3_stmt (or, for one from
//   Database::cached, borrows it from the connection's statement cache until it is destroyed);
//   all are move-only. Every Statement and Transaction must be destroyed before the Database it
//   came from (a cached Statement that outlives it by mistake is finalized, not given back).
// - Threading: none of these classes is thread-safe. Use one Database per thread; the engine
//   thread owns the single ReadWrite connection, panel threads each open their own ReadOnly one
//   (WAL lets them read while the writer writes).
// - Errors: every SQLite error code becomes an Error whose message names the database path or the
//   SQL and carries SQLite's own text. No exceptions are thrown (except std::bad_alloc).
// - Format: the file is always written in the SQLCipher 3 format (1024-byte pages, HMAC-SHA1), also
//   when linked against SQLCipher 4, so a box can move between the two (docs/decisions/0001).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "base/bytes.h"
#include "base/result.h"
#include "base/secret.h"
#include "base/time_point.h"

struct sqlite3;
struct sqlite3_stmt;

namespace atoms {

class StatementCache;
struct StatementSlot;

enum class OpenMode {
  Create,     // the file must not exist; it is created with mode 0600
  ReadWrite,  // the file must exist; never creates a new empty database
  ReadOnly,   // the file must exist; a reader beside the single writer: every statement that would
              // write fails (query_only), and when it is the last connection its close removes
              // the -wal and -shm files as the writer's does
};

// Written into the database header at Create ("ATMS"); checked at every open, so a SQLCipher file
// of another program that happens to share the key is refused too.
inline constexpr std::int32_t kAtomsApplicationId = 0x41544D53;
// The page size of a database created now (SQLCipher's own default in its 3.x format is 1024):
// four times fewer page encryptions, HMACs and system calls per byte written (decision 0037).
inline constexpr int kCipherPageSize = 4096;
// The page size of databases created before; they open as they are. A healthy database's file
// size is a multiple of its page size, so always of this one.
inline constexpr int kLegacyCipherPageSize = 1024;
// How long a statement waits for another connection's lock before failing with "database is
// locked" (writers only contend when someone runs a second writer by mistake).
inline constexpr int kBusyTimeoutMs = 5000;
// Distinct SQL texts a connection keeps compiled for Database::cached (about 150 in the code; the
// least recently used is finalized when a new one would exceed this).
inline constexpr std::size_t kStatementCacheCapacity = 256;

class Statement {
 public:
  Statement() = default;
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Binding is chainable: bind(1, x).bind(2, y). Indexes are 1-based as in SQLite. The first bind
  // error (bad index, out of memory) is remembered and returned by the next step(), so a query is
  // never run with a missing parameter. Text and blobs are copied (SQLITE_TRANSIENT).
  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, std::string_view text);
  Statement& bindBlob(int index, std::span<const std::uint8_t> blob);
  Statement& bindNull(int index);
  // NULL for nullopt, else as bind().
  Statement& bindOptional(int index, const std::optional<std::int64_t>& value);
  Statement& bindOptional(int index, const std::optional<std::string>& text);
  // An instant as the store keeps it: Unix milliseconds (base/unix_time.h); NULL for nullopt.
  Statement& bindTime(int index, TimePoint t);
  Statement& bindTime(int index, const std::optional<TimePoint>& t);

  // true: a row is available through the column accessors; false: the statement is done.
  // Errors carry SQLite's message and the SQL text.
  Result<bool> step();
  // Steps a statement run for its effect (INSERT, UPDATE, DELETE, ...) once; a row it may return
  // is ignored. The errors of step().
  Status run();
  // Resets the statement for another run and clears the bindings and any pending bind error.
  Status reset();

  // Column accessors, 0-based; valid after step() returned true. NULL reads as 0 / "" / empty.
  std::int64_t columnInt64(int column) const;
  std::string columnText(int column) const;
  Bytes columnBlob(int column) const;
  bool columnIsNull(int column) const;
  int columnCount() const;

  sqlite3_stmt* handle() { return stmt_; }

 private:
  friend class Database;
  friend class StatementCache;
  Statement(sqlite3_stmt* stmt, sqlite3* db) : stmt_(stmt), db_(db) {}
  void noteBindError(int rc, int index);
  // Finalizes the statement, or gives it back to the cache it came from.
  void release() noexcept;

  sqlite3_stmt* stmt_ = nullptr;
  sqlite3* db_ = nullptr;
  std::string bindError_;
  // Set while stmt_ is borrowed from a cache: where it goes back to.
  std::shared_ptr<StatementCache> cache_;
  StatementSlot* slot_ = nullptr;
};

class Database {
 public:
  // Opens (or, with Create, creates) the database at path with a 32-byte raw key (no KDF).
  // Errors, one line each: Create on an existing file; ReadWrite/ReadOnly on a missing file (no
  // file is created); an empty or truncated file; a wrong key or a file that is not an atoms-edge
  // database ("cannot open database P: wrong key or not an atoms-edge database"); journal mode not
  // WAL. A failed open leaves an existing file byte-for-byte unchanged.
  // After open: WAL, synchronous=FULL, foreign_keys=ON, busy timeout kBusyTimeoutMs.
  // Create makes pages of `createPageSize` bytes (a copy keeps its source's: pageSize()); an
  // existing database opens with whichever of kCipherPageSize and kLegacyCipherPageSize it has.
  static Result<Database> open(const std::string& path, const SecretBytes& key, OpenMode mode,
                               int createPageSize = kCipherPageSize);

  Database() = default;  // an empty, closed handle (only useful as a move target)
  ~Database();
  Database(Database&& other) noexcept;
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Runs one or more SQL statements that return no rows of interest (DDL, PRAGMA, BEGIN...).
  Status exec(std::string_view sql);
  // Compiles exactly one statement (trailing whitespace/semicolons allowed; a second statement is
  // an error so it is never silently ignored). The Statement is the caller's alone and is finalized
  // when destroyed: for SQL built at run time, or run once.
  Result<Statement> prepare(std::string_view sql);
  // The same statement as prepare(sql), compiled once per connection and kept: for the fixed SQL
  // of a repository, run again and again (compiling is a large part of a short query's cost).
  // - The first call for a SQL text compiles it (with prepare()'s errors, reported every time, as
  //   nothing is cached for SQL that fails); later calls hand out the same compiled statement.
  // - The Statement is used like one from prepare(). Destroying it gives it back to the cache:
  //   reset (so it holds no read lock) with its bindings cleared, so the next user never sees
  //   this one's parameters or half-read rows.
  // - Nested use works: while the cached statement for a SQL text is out, a call with the same
  //   text gets a freshly compiled one, finalized when destroyed.
  // - Bounded: kStatementCacheCapacity texts, least recently used finalized first.
  // - Invalidation: clearStatementCache(), which migrate() calls after applying migrations, and
  //   closing the connection finalize every kept statement (one out at the time is finalized when
  //   it comes back). A statement kept across other schema changes stays correct, as SQLite
  //   recompiles it on its next step; clearing only frees what refers to the old schema.
  Result<Statement> cached(std::string_view sql);
  // Finalizes the kept statements (see cached()).
  void clearStatementCache();
  // How many SQL texts the cache holds compiled now (those out included); for tests.
  std::size_t cachedStatementCount() const;

  std::int64_t lastInsertRowid() const;
  int changes() const;  // rows changed by the last INSERT/UPDATE/DELETE
  // PRAGMA quick_check over the whole file (O(size): for `verify` and after a restore, not for
  // every start). open() only proves the key and the first page; a damaged later page shows up
  // here, or as a "malformed" error from the statement that reads it.
  Status quickCheck();
  const std::string& path() const { return path_; }
  // The page size the file was created with (kCipherPageSize, or kLegacyCipherPageSize).
  Result<int> pageSize();
  OpenMode mode() const { return mode_; }
  bool isOpen() const { return db_ != nullptr; }
  sqlite3* handle() { return db_; }

 private:
  Database(sqlite3* db, std::string path, OpenMode mode);
  void close();

  sqlite3* db_ = nullptr;
  std::string path_;
  OpenMode mode_ = OpenMode::ReadOnly;
  // Shared with the Statements borrowed from it, so one that outlives the Database by mistake
  // still finds where to go back to (and is finalized there).
  std::shared_ptr<StatementCache> cache_;
};

// Transaction: BEGIN IMMEDIATE on begin (takes the write lock up front, so a transaction never
// fails half-way with SQLITE_BUSY on its first write); the destructor rolls back unless commit()
// succeeded. Move-only; must not outlive its Database. Not nestable.
class Transaction {
 public:
  static Result<Transaction> begin(Database& db);

  ~Transaction();
  Transaction(Transaction&& other) noexcept;
  Transaction& operator=(Transaction&& other) noexcept;
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  // After a failed commit the transaction is rolled back (by the destructor at the latest).
  Status commit();
  // Explicit rollback; also done by the destructor.
  Status rollback();

 private:
  explicit Transaction(Database* db) : db_(db) {}
  Database* db_ = nullptr;  // null once committed or rolled back
};

}  // namespace atoms
