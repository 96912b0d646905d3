#include "store/database.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <list>
#include <string>
#include <unordered_map>

#include "base/file_io.h"
#include "base/unix_time.h"

namespace atoms {
namespace {

constexpr std::size_t kKeySize = 32;
constexpr std::size_t kMaxSqlInMessage = 160;

std::string sqlForMessage(std::string_view sql) {
  std::string s(sql.substr(0, kMaxSqlInMessage));
  for (char& c : s) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  if (sql.size() > kMaxSqlInMessage) s += "...";
  return s;
}

bool fileExists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

// Closes a connection that never became a Database.
void closeRaw(sqlite3* db) {
  if (db != nullptr) sqlite3_close_v2(db);
}

// Runs a statement that returns at most one row with one column and gives that column as text
// ("" when there is no row). Used for the PRAGMAs whose answer must be checked.
Result<std::string> queryText(sqlite3* db, const char* sql) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr);
  if (rc != SQLITE_OK) return makeError(sqlite3_errmsg(db));
  std::string out;
  rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW) {
    const auto* text = sqlite3_column_text(stmt, 0);
    if (text != nullptr) out = reinterpret_cast<const char*>(text);
    rc = sqlite3_step(stmt);
  }
  if (rc != SQLITE_DONE) {
    std::string msg = sqlite3_errmsg(db);
    sqlite3_finalize(stmt);
    return makeError(std::move(msg));
  }
  sqlite3_finalize(stmt);
  return out;
}

// The raw-key form "x'<64 hex>'" built in guarded memory, so the key's text form never sits in
// ordinary heap memory. It is handed to sqlite3_key_v2, which is what PRAGMA key does internally,
// but without the SQL text passing through the parser (which copies it into unguarded memory).
SecretBytes rawKeyText(const SecretBytes& key) {
  static constexpr char kDigits[] = "0123456789abcdef";
  SecretBytes text(3 + 2 * key.size());
  std::uint8_t* out = text.data();
  *out++ = 'x';
  *out++ = '\'';
  for (std::size_t i = 0; i < key.size(); ++i) {
    *out++ = static_cast<std::uint8_t>(kDigits[key.data()[i] >> 4]);
    *out++ = static_cast<std::uint8_t>(kDigits[key.data()[i] & 0x0f]);
  }
  *out = '\'';
  return text;
}

// Removes a database file this process just created, with whatever SQLite put beside it.
void removeCreated(const std::string& path) {
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
    ::unlink((path + suffix).c_str());
  }
}

// Checks the file before SQLite sees it: SQLite would treat an empty file as a new empty
// database, which must never happen silently.
Status precheckExisting(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return makeError("database " + path + " does not exist");
    return makeError("cannot open database " + path + ": " + errnoText(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    return makeError("cannot open database " + path + ": not a regular file");
  }
  if (st.st_size == 0) {
    return makeError("cannot open database " + path + ": the file is empty (truncated?)");
  }
  if (st.st_size % kLegacyCipherPageSize != 0) {
    return makeError("cannot open database " + path + ": file size " + std::to_string(st.st_size) +
                     " is not a multiple of the " + std::to_string(kLegacyCipherPageSize) +
                     "-byte page size (truncated?)");
  }
  return Status::success();
}

// Creates the file ourselves so that creation is exclusive (O_EXCL) and the mode is 0600 from
// the first moment; SQLite gives -wal and -shm the same mode as the database file.
Status createEmptyFile(const std::string& path) {
  for (const char* suffix : {"-wal", "-shm", "-journal"}) {
    // A stale WAL beside a new database would be replayed into it.
    if (fileExists(path + suffix)) {
      return makeError("cannot create database " + path + ": a leftover " + path + suffix +
                       " exists; move it away first");
    }
  }
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    if (errno == EEXIST) {
      return makeError("cannot create database " + path +
                       ": the file already exists; refusing to overwrite");
    }
    return makeError("cannot create database " + path + ": " + errnoText(errno));
  }
  ::fchmod(fd, 0600);  // the umask may have removed bits but never adds any; be exact anyway
  ::close(fd);
  return Status::success();
}

Status execRaw(sqlite3* db, const std::string& path, const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err != nullptr ? err : sqlite3_errmsg(db);
    sqlite3_free(err);
    return makeError("database " + path + ": " + msg + " (SQL: " + sql + ")");
  }
  return Status::success();
}

Status configureCipher(sqlite3* db, const std::string& path, int pageSize) {
  auto version = queryText(db, "PRAGMA cipher_version");
  if (!version.ok() || version->empty()) {
    return makeError("cannot open database " + path +
                     ": the linked SQLite library has no SQLCipher codec");
  }
  // SQLCipher 4 defaults to a different file format (SHA-512 HMAC and KDF); compatibility 3
  // keeps reading and writing the 3.x format this project creates.
  if (std::atoi(version->c_str()) >= 4) {
    if (auto s = execRaw(db, path, "PRAGMA cipher_compatibility = 3"); !s) return s;
  }
  const std::string sql = "PRAGMA cipher_page_size = " + std::to_string(pageSize);
  return execRaw(db, path, sql.c_str());
}

// The primary result code of reading the schema: SQLITE_NOTADB when page 1 does not decrypt
// (a wrong key or page size, or not a SQLCipher database).
int probeReadable(sqlite3* db) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master", -1, &stmt, nullptr);
  if (rc == SQLITE_OK) {
    rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) rc = SQLITE_OK;
  }
  sqlite3_finalize(stmt);
  return rc & 0xff;
}

// probeReadable's answer `rc` on `db` as the open's error.
Status readableStatus(int rc, sqlite3* db, const std::string& path) {
  std::string msg = sqlite3_errmsg(db);
  switch (rc) {
    case SQLITE_OK:
      return Status::success();
    case SQLITE_NOTADB:
      return makeError("cannot open database " + path +
                       ": wrong key or not an atoms-edge database");
    case SQLITE_CORRUPT:
      return makeError("cannot open database " + path + ": the file is truncated or corrupted (" +
                       msg + ")");
    default:
      return makeError("cannot open database " + path + ": " + msg);
  }
}

Status configureConnection(sqlite3* db, const std::string& path, OpenMode mode) {
  if (mode == OpenMode::Create) {
    // Written before WAL is switched on, so that page 1 lands in the main file right away and a
    // freshly created database is never an empty file with everything in its -wal.
    if (auto s = execRaw(db, path, "PRAGMA synchronous = FULL"); !s) return s;
    auto sql = "PRAGMA application_id = " + std::to_string(kAtomsApplicationId);
    if (auto s = execRaw(db, path, sql.c_str()); !s) return s;
  } else {
    auto id = queryText(db, "PRAGMA application_id");
    if (!id.ok()) return makeError("cannot open database " + path + ": " + id.message());
    if (*id != std::to_string(kAtomsApplicationId)) {
      return makeError("cannot open database " + path +
                       ": not an atoms-edge database (application id " + *id + ")");
    }
  }
  // Readers cannot change the journal mode; they only check that it is WAL, without which they
  // would block the writer.
  auto journal = queryText(
      db, mode == OpenMode::ReadOnly ? "PRAGMA journal_mode" : "PRAGMA journal_mode = WAL");
  if (!journal.ok()) return makeError("cannot open database " + path + ": " + journal.message());
  if (*journal != "wal") {
    return makeError("cannot open database " + path + ": journal mode is '" + *journal +
                     "', expected 'wal'");
  }
  if (auto s = execRaw(db, path, "PRAGMA synchronous = FULL"); !s) return s;
  if (auto s = execRaw(db, path, "PRAGMA foreign_keys = ON"); !s) return s;
  if (mode == OpenMode::ReadOnly) {
    // A reader never writes, whatever it runs (open() opens read-write for the WAL's sake).
    if (auto s = execRaw(db, path, "PRAGMA query_only = 1"); !s) return s;
  }
  return Status::success();
}

// Opens `path` (which exists) with the key and the page size; nothing is read yet.
// Never SQLITE_OPEN_CREATE: for Create the (empty) file exists already, and for the other modes a
// missing file must be an error, not a new database.
// A reader opens read-write when the file lets it, with query_only set later: SQLite then lets
// the last connection to close remove the -wal and -shm files, which a SQLITE_OPEN_READONLY
// connection can never do (`identity` would leave them behind on a stopped box). A file that is
// write-protected opens read-only all the same.
Result<sqlite3*> openKeyed(const std::string& path, const SecretBytes& key, int pageSize) {
  sqlite3* raw = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READWRITE, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = raw != nullptr ? sqlite3_errmsg(raw) : sqlite3_errstr(rc);
    closeRaw(raw);
    return makeError("cannot open database " + path + ": " + msg);
  }
  sqlite3_extended_result_codes(raw, 1);
  sqlite3_busy_timeout(raw, kBusyTimeoutMs);
  {
    SecretBytes keyText = rawKeyText(key);
    rc = sqlite3_key_v2(raw, "main", keyText.data(), static_cast<int>(keyText.size()));
  }
  if (rc != SQLITE_OK) {
    std::string msg = sqlite3_errmsg(raw);
    closeRaw(raw);
    return makeError("cannot open database " + path + ": cannot set key: " + msg);
  }
  if (auto s = configureCipher(raw, path, pageSize); !s) {
    closeRaw(raw);
    return s.error();
  }
  return raw;
}

}  // namespace

// ---- StatementCache ----

// One compiled statement a connection keeps for Database::cached.
struct StatementSlot {
  std::string sql;
  sqlite3_stmt* stmt = nullptr;
  bool out = false;  // borrowed by a Statement now
};

// The kept statements of one connection, most recently used first. A slot lives at a fixed address
// (list nodes never move), so a borrowed Statement can point at it and the index can key on a view
// of its SQL. Slots dropped while out wait in dropped_ until they come back to be finalized.
class StatementCache {
 public:
  explicit StatementCache(std::size_t capacity) : capacity_(capacity) {}
  ~StatementCache() { clear(); }  // nothing is out: each borrower holds a reference to the cache
  StatementCache(const StatementCache&) = delete;
  StatementCache& operator=(const StatementCache&) = delete;

  // The slot kept for sql, now the most recently used; null when none is kept.
  StatementSlot* find(std::string_view sql) {
    auto it = index_.find(sql);
    if (it == index_.end()) return nullptr;
    slots_.splice(slots_.begin(), slots_, it->second);
    return &*it->second;
  }

  // Keeps a statement just compiled for sql, borrowed from the start. Makes room by finalizing
  // the least recently used slot that is not out.
  StatementSlot* keep(std::string_view sql, sqlite3_stmt* stmt) {
    slots_.push_front(StatementSlot{std::string(sql), stmt, true});
    index_.emplace(slots_.front().sql, slots_.begin());
    if (slots_.size() > capacity_) {
      for (auto it = std::prev(slots_.end());; --it) {
        if (!it->out) {
          index_.erase(it->sql);
          sqlite3_finalize(it->stmt);
          slots_.erase(it);
          break;
        }
        if (it == slots_.begin()) break;  // all out (nested far beyond the capacity): keep them
      }
    }
    return &slots_.front();
  }

  // A borrowed statement comes back: ready for its next user, or finalized if it was dropped.
  void giveBack(StatementSlot* slot) noexcept {
    for (auto it = dropped_.begin(); it != dropped_.end(); ++it) {
      if (&*it == slot) {
        sqlite3_finalize(it->stmt);
        dropped_.erase(it);
        return;
      }
    }
    // sqlite3_reset repeats the error of the last step, which step() has reported already.
    sqlite3_reset(slot->stmt);
    sqlite3_clear_bindings(slot->stmt);
    slot->out = false;
  }

  // Finalizes every slot not out; those out are finalized when they come back.
  void clear() noexcept {
    index_.clear();
    for (auto it = slots_.begin(); it != slots_.end();) {
      auto next = std::next(it);
      if (it->out) {
        dropped_.splice(dropped_.end(), slots_, it);
      } else {
        sqlite3_finalize(it->stmt);
        slots_.erase(it);
      }
      it = next;
    }
  }

  std::size_t size() const { return slots_.size(); }

 private:
  std::size_t capacity_;
  std::list<StatementSlot> slots_;
  std::unordered_map<std::string_view, std::list<StatementSlot>::iterator> index_;
  std::list<StatementSlot> dropped_;
};

// ---- Database ----

Database::Database(sqlite3* db, std::string path, OpenMode mode)
    : db_(db),
      path_(std::move(path)),
      mode_(mode),
      cache_(std::make_shared<StatementCache>(kStatementCacheCapacity)) {}

Result<Database> Database::open(const std::string& path, const SecretBytes& key, OpenMode mode,
                                int createPageSize) {
  if (key.size() != kKeySize) {
    return makeError("cannot open database " + path + ": the key must be " +
                     std::to_string(kKeySize) + " bytes, got " + std::to_string(key.size()));
  }
  if (mode == OpenMode::Create) {
    if (auto s = createEmptyFile(path); !s) return s.error();
  } else {
    if (auto s = precheckExisting(path); !s) return s.error();
  }

  // A database created now has kCipherPageSize pages; one from before kLegacyCipherPageSize.
  // The page size is not stored in clear, so an existing file is tried with the current size
  // first: a wrong page size fails page 1's HMAC before anything is read or written.
  sqlite3* raw = nullptr;
  auto fail = [&](Error error) -> Result<Database> {
    closeRaw(raw);
    if (mode == OpenMode::Create) removeCreated(path);
    return error;
  };
  auto opened = openKeyed(path, key, mode == OpenMode::Create ? createPageSize : kCipherPageSize);
  if (!opened) return fail(opened.error());
  raw = *opened;
  int readable = probeReadable(raw);
  if (readable == SQLITE_NOTADB && mode != OpenMode::Create) {
    closeRaw(raw);
    raw = nullptr;
    opened = openKeyed(path, key, kLegacyCipherPageSize);
    if (!opened) return fail(opened.error());
    raw = *opened;
    readable = probeReadable(raw);
  }
  if (auto s = readableStatus(readable, raw, path); !s) return fail(s.error());
  if (auto s = configureConnection(raw, path, mode); !s) return fail(s.error());
  return Database(raw, path, mode);
}

Result<int> Database::pageSize() {
  auto size = queryText(db_, "PRAGMA cipher_page_size");
  if (!size) return makeError("database " + path_ + ": " + size.message());
  return std::atoi(size->c_str());
}

Database::~Database() { close(); }

Database::Database(Database&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)),
      path_(std::move(other.path_)),
      mode_(other.mode_),
      cache_(std::move(other.cache_)) {}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    close();
    db_ = std::exchange(other.db_, nullptr);
    path_ = std::move(other.path_);
    mode_ = other.mode_;
    cache_ = std::move(other.cache_);
  }
  return *this;
}

void Database::close() {
  if (cache_ != nullptr) {
    cache_->clear();
    cache_.reset();
  }
  // close_v2: should a Statement outlive its Database by mistake, the connection is released
  // when that statement is finalized instead of leaking.
  if (db_ != nullptr) sqlite3_close_v2(std::exchange(db_, nullptr));
}

Status Database::exec(std::string_view sql) {
  if (db_ == nullptr) return makeError("database is not open");
  std::string text(sql);
  char* err = nullptr;
  if (sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err != nullptr ? err : sqlite3_errmsg(db_);
    sqlite3_free(err);
    return makeError("database " + path_ + ": " + msg + " (SQL: " + sqlForMessage(sql) + ")");
  }
  return Status::success();
}

Result<Statement> Database::prepare(std::string_view sql) {
  if (db_ == nullptr) return makeError("database is not open");
  sqlite3_stmt* stmt = nullptr;
  const char* tail = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, &tail);
  if (rc != SQLITE_OK) {
    return makeError("database " + path_ + ": " + sqlite3_errmsg(db_) +
                     " (SQL: " + sqlForMessage(sql) + ")");
  }
  if (stmt == nullptr) {
    return makeError("database " + path_ + ": no SQL statement in '" + sqlForMessage(sql) + "'");
  }
  std::string_view rest = sql.substr(static_cast<std::size_t>(tail - sql.data()));
  if (rest.find_first_not_of(" \t\r\n;") != std::string_view::npos) {
    sqlite3_finalize(stmt);
    return makeError("database " + path_ +
                     ": prepare takes one statement, got more (SQL: " + sqlForMessage(sql) + ")");
  }
  return Statement(stmt, db_);
}

Result<Statement> Database::cached(std::string_view sql) {
  if (db_ == nullptr) return makeError("database is not open");
  StatementSlot* slot = cache_->find(sql);
  if (slot != nullptr && slot->out) return prepare(sql);  // nested use of the same SQL
  if (slot == nullptr) {
    auto fresh = prepare(sql);
    if (!fresh) return fresh;
    slot = cache_->keep(sql, std::exchange(fresh->stmt_, nullptr));
  }
  slot->out = true;
  Statement borrowed(slot->stmt, db_);
  borrowed.cache_ = cache_;
  borrowed.slot_ = slot;
  return borrowed;
}

void Database::clearStatementCache() {
  if (cache_ != nullptr) cache_->clear();
}

std::size_t Database::cachedStatementCount() const {
  return cache_ != nullptr ? cache_->size() : 0;
}

std::int64_t Database::lastInsertRowid() const {
  return db_ != nullptr ? sqlite3_last_insert_rowid(db_) : 0;
}

int Database::changes() const { return db_ != nullptr ? sqlite3_changes(db_) : 0; }

Status Database::quickCheck() {
  auto stmt = prepare("PRAGMA quick_check");
  if (!stmt) return stmt.error();
  std::string problems;
  for (;;) {
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row) break;
    std::string line = stmt->columnText(0);
    if (line == "ok") continue;
    if (!problems.empty()) problems += "; ";
    problems += line;
  }
  if (!problems.empty()) {
    return makeError("database " + path_ + " is corrupted: " + sqlForMessage(problems));
  }
  return Status::success();
}

// ---- Statement ----

Statement::~Statement() { release(); }

Statement::Statement(Statement&& other) noexcept
    : stmt_(std::exchange(other.stmt_, nullptr)),
      db_(std::exchange(other.db_, nullptr)),
      bindError_(std::move(other.bindError_)),
      cache_(std::move(other.cache_)),
      slot_(std::exchange(other.slot_, nullptr)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    release();
    stmt_ = std::exchange(other.stmt_, nullptr);
    db_ = std::exchange(other.db_, nullptr);
    bindError_ = std::move(other.bindError_);
    cache_ = std::move(other.cache_);
    slot_ = std::exchange(other.slot_, nullptr);
  }
  return *this;
}

void Statement::release() noexcept {
  if (slot_ != nullptr) {
    cache_->giveBack(std::exchange(slot_, nullptr));
  } else if (stmt_ != nullptr) {
    sqlite3_finalize(stmt_);
  }
  stmt_ = nullptr;
  cache_.reset();
}

void Statement::noteBindError(int rc, int index) {
  if (rc == SQLITE_OK || !bindError_.empty()) return;
  const char* sql = stmt_ != nullptr ? sqlite3_sql(stmt_) : "";
  bindError_ = "cannot bind parameter " + std::to_string(index) + ": " + sqlite3_errstr(rc) +
               " (SQL: " + sqlForMessage(sql != nullptr ? sql : "") + ")";
}

Statement& Statement::bind(int index, std::int64_t value) {
  noteBindError(stmt_ ? sqlite3_bind_int64(stmt_, index, value) : SQLITE_MISUSE, index);
  return *this;
}

Statement& Statement::bind(int index, std::string_view text) {
  // A non-null pointer for empty text, so that "" binds as '' and not as NULL.
  const char* data = text.data() != nullptr ? text.data() : "";
  noteBindError(
      stmt_ ? sqlite3_bind_text64(stmt_, index, data, text.size(), SQLITE_TRANSIENT, SQLITE_UTF8)
            : SQLITE_MISUSE,
      index);
  return *this;
}

Statement& Statement::bindBlob(int index, std::span<const std::uint8_t> blob) {
  static const std::uint8_t kEmpty = 0;
  const void* data = blob.data() != nullptr ? blob.data() : &kEmpty;
  noteBindError(stmt_ ? sqlite3_bind_blob64(stmt_, index, data, blob.size(), SQLITE_TRANSIENT)
                      : SQLITE_MISUSE,
                index);
  return *this;
}

Statement& Statement::bindNull(int index) {
  noteBindError(stmt_ ? sqlite3_bind_null(stmt_, index) : SQLITE_MISUSE, index);
  return *this;
}

Statement& Statement::bindOptional(int index, const std::optional<std::int64_t>& value) {
  return value ? bind(index, *value) : bindNull(index);
}

Statement& Statement::bindOptional(int index, const std::optional<std::string>& text) {
  return text ? bind(index, std::string_view(*text)) : bindNull(index);
}

Statement& Statement::bindTime(int index, TimePoint t) { return bind(index, toUnixMillis(t)); }

Statement& Statement::bindTime(int index, const std::optional<TimePoint>& t) {
  return t ? bindTime(index, *t) : bindNull(index);
}

Result<bool> Statement::step() {
  if (stmt_ == nullptr) return makeError("step on an empty statement");
  if (!bindError_.empty()) return makeError(bindError_);
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  const char* sql = sqlite3_sql(stmt_);
  const char* file = sqlite3_db_filename(db_, "main");
  return makeError("database " + std::string(file != nullptr ? file : "") + ": " +
                   sqlite3_errmsg(db_) + " (SQL: " + sqlForMessage(sql != nullptr ? sql : "") +
                   ")");
}

Status Statement::run() {
  auto done = step();
  if (!done) return done.error();
  return Status::success();
}

Status Statement::reset() {
  if (stmt_ == nullptr) return makeError("reset on an empty statement");
  bindError_.clear();
  sqlite3_clear_bindings(stmt_);
  // sqlite3_reset repeats the error of the last step; that error was already reported by step().
  sqlite3_reset(stmt_);
  return Status::success();
}

std::int64_t Statement::columnInt64(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

std::string Statement::columnText(int column) const {
  const auto* text = sqlite3_column_text(stmt_, column);
  if (text == nullptr) return {};
  return std::string(reinterpret_cast<const char*>(text),
                     static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)));
}

Bytes Statement::columnBlob(int column) const {
  const auto* data = static_cast<const std::uint8_t*>(sqlite3_column_blob(stmt_, column));
  if (data == nullptr) return {};
  return Bytes(data, data + sqlite3_column_bytes(stmt_, column));
}

bool Statement::columnIsNull(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

int Statement::columnCount() const { return stmt_ ? sqlite3_column_count(stmt_) : 0; }

// ---- Transaction ----

Result<Transaction> Transaction::begin(Database& db) {
  if (auto s = db.exec("BEGIN IMMEDIATE"); !s) return s.error();
  return Transaction(&db);
}

Transaction::~Transaction() { (void)rollback(); }

Transaction::Transaction(Transaction&& other) noexcept : db_(std::exchange(other.db_, nullptr)) {}

Transaction& Transaction::operator=(Transaction&& other) noexcept {
  if (this != &other) {
    (void)rollback();
    db_ = std::exchange(other.db_, nullptr);
  }
  return *this;
}

Status Transaction::commit() {
  if (db_ == nullptr) return makeError("commit: the transaction is already finished");
  Status s = db_->exec("COMMIT");
  if (!s) {
    (void)rollback();
    return s;
  }
  db_ = nullptr;
  return Status::success();
}

Status Transaction::rollback() {
  Database* db = std::exchange(db_, nullptr);
  if (db == nullptr || !db->isOpen()) return Status::success();
  // SQLite rolls back by itself after some errors (e.g. SQLITE_FULL); a second ROLLBACK would fail.
  if (sqlite3_get_autocommit(db->handle()) != 0) return Status::success();
  return db->exec("ROLLBACK");
}

}  // namespace atoms
