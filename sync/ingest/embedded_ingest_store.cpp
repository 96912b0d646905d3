#include "sync/ingest/embedded_ingest_store.h"

#include <fcntl.h>
#include <sodium.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <utility>

#include "base/file_io.h"
#include "store/key_file.h"
#include "store/merkle.h"
#include "store/row_reader.h"
#include "sync/ingest/ingest_schema.h"

namespace atoms::sync::ingest {
namespace {

std::span<const std::uint8_t> blobOf(const Hash32& h) { return {h.data(), h.size()}; }

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

// Holds DIR/ingest.lock (flock) for its lifetime.
class DirLock {
 public:
  static Result<DirLock> take(const std::string& path) {
    const int fd = ::open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0) return makeError("cannot open " + path + ": " + errnoText(errno));
    while (::flock(fd, LOCK_EX) != 0) {
      if (errno != EINTR) {
        const int err = errno;
        ::close(fd);
        return makeError("cannot lock " + path + ": " + errnoText(err));
      }
    }
    return DirLock(fd);
  }
  DirLock(DirLock&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  DirLock& operator=(DirLock&&) = delete;
  ~DirLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the flock
  }

 private:
  explicit DirLock(int fd) : fd_(fd) {}
  int fd_;
};

Result<SecretBytes> keyForCreate(const IngestPaths& p) {
  if (!exists(p.key)) {
    SecretBytes key(keyKindSize(KeyKind::Database));
    randombytes_buf(key.data(), key.size());
    if (Status s = writeKeyFile(p.key, KeyKind::Database, key); !s) return s.error();
  }
  return readKeyFile(p.key, KeyKind::Database);
}

Result<SiteRecord> readSiteRow(RowReader& row) {
  SiteRecord r;
  r.key.site = row.text();
  const Bytes pk = row.blob();
  if (pk.size() != r.key.publicKey.size()) {
    return makeError("ingest store: site " + r.key.site + " has a malformed public key");
  }
  std::copy(pk.begin(), pk.end(), r.key.publicKey.begin());
  r.state.size = static_cast<std::uint64_t>(row.int64());
  r.state.root = hashOf(row.blob());
  r.state.lastLeaf = hashOf(row.blob());
  auto peaks = splitPeaks(row.blob());
  if (!peaks) return peaks.error();
  r.state.peaks = std::move(*peaks);
  r.state.checkpoint = row.text();
  r.updatedAt = row.text();
  return r;
}

// BEGIN IMMEDIATE (write) or BEGIN (a read snapshot), rolled back unless committed.
class EmbeddedTransaction final : public IngestTransaction {
 public:
  explicit EmbeddedTransaction(Database& db) : db_(&db) {}
  ~EmbeddedTransaction() override {
    if (db_ != nullptr) (void)db_->exec("ROLLBACK");
  }
  Status commit() override {
    Database* db = std::exchange(db_, nullptr);
    if (Status s = db->exec("COMMIT"); !s) {
      (void)db->exec("ROLLBACK");
      return s;
    }
    return Status::success();
  }

 private:
  Database* db_;
};

constexpr std::string_view kSiteColumns =
    "SELECT site, public_key, size, root, last_leaf, peaks, checkpoint, updated_at FROM "
    "ingest_site";

}  // namespace

IngestPaths IngestPaths::under(const std::string& dir) {
  return IngestPaths{dir, dir + "/ingest.key", dir + "/ingest.db", dir + "/ingest.lock"};
}

Result<std::unique_ptr<EmbeddedIngestStore>> EmbeddedIngestStore::open(const std::string& dir,
                                                                       Mode mode) {
  IngestPaths p = IngestPaths::under(dir);
  if (mode == Mode::kReadOnly) {
    if (!exists(p.database)) {
      return makeError("no ingest store in " + dir + " (" + p.database + " does not exist)");
    }
    auto key = readKeyFile(p.key, KeyKind::Database);
    if (!key) return key.error();
    auto db = Database::open(p.database, *key, OpenMode::ReadOnly);
    if (!db) return db.error();
    auto pending = pendingMigrations(*db, ingestMigrations());
    if (!pending) return makeError(p.database + ": " + pending.message());
    if (!pending->empty()) {
      return makeError(p.database + " needs a schema upgrade: run atoms-edge ingest on it first");
    }
    return std::unique_ptr<EmbeddedIngestStore>(
        new EmbeddedIngestStore(std::move(p), std::move(*db)));
  }

  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return makeError("cannot create the store directory " + dir + ": " + ec.message());
  auto lock = DirLock::take(p.lock);
  if (!lock) return lock.error();
  const bool fresh = !exists(p.database);
  if (!fresh && !exists(p.key)) {
    return makeError(p.database + " exists but its key file " + p.key +
                     " is missing; restore the key file (a new key cannot open it)");
  }
  auto key = fresh ? keyForCreate(p) : readKeyFile(p.key, KeyKind::Database);
  if (!key) return key.error();
  auto db = Database::open(p.database, *key, fresh ? OpenMode::Create : OpenMode::ReadWrite);
  if (!db) return db.error();
  if (Status s = migrate(*db, ingestMigrations()); !s) {
    return makeError(p.database + ": " + s.message());
  }
  return std::unique_ptr<EmbeddedIngestStore>(
      new EmbeddedIngestStore(std::move(p), std::move(*db)));
}

Result<std::size_t> EmbeddedIngestStore::registerSites(const std::vector<SiteKey>& sites,
                                                       const std::string& now) {
  auto tx = Transaction::begin(db_);
  if (!tx) return tx.error();
  std::size_t added = 0;
  for (const SiteKey& s : sites) {
    auto existing = loadSite(s.site);
    if (!existing) return existing.error();
    if (*existing) {
      if ((*existing)->key.publicKey != s.publicKey) {
        return makeError("site " + s.site +
                         " is already registered with another key; a site's key cannot change "
                         "while the store holds its log");
      }
      continue;
    }
    auto st = db_.cached(
        "INSERT INTO ingest_site(site, public_key, registered_at, size, root, last_leaf, peaks,"
        " checkpoint, updated_at) VALUES(?, ?, ?, 0, ?, ?, x'', '', ?)");
    if (!st) return st.error();
    const Hash32 empty = emptyRoot();
    const Hash32 zero{};
    st->bind(1, s.site)
        .bindBlob(2, s.publicKey)
        .bind(3, now)
        .bindBlob(4, blobOf(empty))
        .bindBlob(5, blobOf(zero))
        .bind(6, now);
    if (auto r = st->step(); !r) return r.error();
    ++added;
  }
  if (Status s = tx->commit(); !s) return s.error();
  return added;
}

Result<std::optional<SiteRecord>> EmbeddedIngestStore::loadSite(const std::string& site) {
  auto st = db_.cached(std::string(kSiteColumns) + " WHERE site = ?");
  if (!st) return st.error();
  st->bind(1, site);
  return readFirst(*st, readSiteRow);
}

Status EmbeddedIngestStore::storeSegment(const Segment& seg, const std::vector<Hash32>& leaves,
                                         const VerifiedState& state, const std::string& now) {
  if (leaves.size() != seg.entries.size() || state.size != seg.to) {
    return makeError("ingest store: a segment's leaves or state do not match it");
  }
  auto update = db_.cached(
      "UPDATE ingest_site SET size = ?, root = ?, last_leaf = ?, peaks = ?, checkpoint = ?,"
      " updated_at = ? WHERE site = ? AND size = ?");
  if (!update) return update.error();
  update->bind(1, static_cast<std::int64_t>(state.size))
      .bindBlob(2, blobOf(state.root))
      .bindBlob(3, blobOf(state.lastLeaf))
      .bindBlob(4, joinPeaks(state.peaks))
      .bind(5, state.checkpoint)
      .bind(6, now)
      .bind(7, seg.site)
      .bind(8, static_cast<std::int64_t>(seg.from));
  if (auto r = update->step(); !r) return r.error();
  if (db_.changes() != 1) {
    return makeError("ingest store: site " + seg.site + " is no longer at size " +
                     std::to_string(seg.from) + " (another ingester stored it)");
  }
  auto insert =
      db_.cached("INSERT INTO ingest_entry(site, seq, leaf_hash, entry) VALUES(?, ?, ?, ?)");
  if (!insert) return insert.error();
  for (std::size_t i = 0; i < seg.entries.size(); ++i) {
    insert->bind(1, seg.site)
        .bind(2, static_cast<std::int64_t>(seg.from + i))
        .bindBlob(3, blobOf(leaves[i]))
        .bind(4, seg.entries[i]);
    if (auto r = insert->step(); !r) return r.error();
    if (Status s = insert->reset(); !s) return s;
  }
  // An empty segment re-publishes the checkpoint of a size already stored: keep the first.
  auto cp = db_.cached(
      "INSERT OR IGNORE INTO ingest_checkpoint(site, size, root, peaks, note, verified_at)"
      " VALUES(?, ?, ?, ?, ?, ?)");
  if (!cp) return cp.error();
  cp->bind(1, seg.site)
      .bind(2, static_cast<std::int64_t>(state.size))
      .bindBlob(3, blobOf(state.root))
      .bindBlob(4, joinPeaks(state.peaks))
      .bind(5, state.checkpoint)
      .bind(6, now);
  if (auto r = cp->step(); !r) return r.error();
  return Status::success();
}

Result<std::int64_t> EmbeddedIngestStore::recordEvidence(const NewEvidence& e,
                                                         const std::string& now) {
  const std::string hash = toHex(sha256(asBytes(e.payload)));
  const std::string kind(evidenceKindName(e.kind));
  auto update = db_.cached(
      "UPDATE ingest_evidence SET count = count + 1, last_seen = ? WHERE site = ? AND kind = ?"
      " AND payload_sha256 = ?");
  if (!update) return update.error();
  update->bind(1, now).bind(2, e.site).bind(3, kind).bind(4, hash);
  if (auto r = update->step(); !r) return r.error();
  if (db_.changes() == 0) {
    auto insert = db_.cached(
        "INSERT INTO ingest_evidence(site, kind, seg_from, seg_to, payload_sha256,"
        " payload_bytes, detail, payload, ours, first_seen, last_seen, count)"
        " VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)");
    if (!insert) return insert.error();
    insert->bind(1, e.site).bind(2, kind);
    if (e.from) {
      insert->bind(3, static_cast<std::int64_t>(*e.from));
    } else {
      insert->bindNull(3);
    }
    if (e.to) {
      insert->bind(4, static_cast<std::int64_t>(*e.to));
    } else {
      insert->bindNull(4);
    }
    insert->bind(5, hash).bind(6, static_cast<std::int64_t>(e.payload.size())).bind(7, e.detail);
    if (e.keepPayload) {
      insert->bind(8, e.payload);
    } else {
      insert->bindNull(8);
    }
    if (e.ours.empty()) {
      insert->bindNull(9);
    } else {
      insert->bind(9, e.ours);
    }
    insert->bind(10, now).bind(11, now);
    if (auto r = insert->step(); !r) return r.error();
  }
  auto id = db_.cached(
      "SELECT id FROM ingest_evidence WHERE site = ? AND kind = ? AND payload_sha256 = ?");
  if (!id) return id.error();
  id->bind(1, e.site).bind(2, kind).bind(3, hash);
  auto row = id->step();
  if (!row) return row.error();
  if (!*row) return makeError("ingest store: evidence row vanished");
  return id->columnInt64(0);
}

Status EmbeddedIngestStore::noteAck(const std::string& site, std::uint64_t size, bool duplicate,
                                    const std::string& now) {
  // Update, else insert (this SQLCipher's SQLite predates upsert).
  auto update = db_.cached(
      "UPDATE ingest_site_activity SET duplicates = duplicates + ?, acked_size = ?, acked_at = ?"
      " WHERE site = ?");
  if (!update) return update.error();
  update->bind(1, std::int64_t{duplicate ? 1 : 0})
      .bind(2, static_cast<std::int64_t>(size))
      .bind(3, now)
      .bind(4, site);
  if (auto r = update->step(); !r) return r.error();
  if (db_.changes() == 1) return Status::success();
  auto insert = db_.cached(
      "INSERT INTO ingest_site_activity(site, duplicates, acked_size, acked_at) VALUES(?, ?, ?, "
      "?)");
  if (!insert) return insert.error();
  insert->bind(1, site)
      .bind(2, std::int64_t{duplicate ? 1 : 0})
      .bind(3, static_cast<std::int64_t>(size))
      .bind(4, now);
  if (auto r = insert->step(); !r) return r.error();
  return Status::success();
}

Result<std::vector<Hash32>> EmbeddedIngestStore::leafHashes(const std::string& site,
                                                            std::uint64_t from, std::uint64_t to) {
  auto st = db_.cached(
      "SELECT seq, leaf_hash FROM ingest_entry WHERE site = ? AND seq >= ? AND seq < ?"
      " ORDER BY seq");
  if (!st) return st.error();
  st->bind(1, site).bind(2, static_cast<std::int64_t>(from)).bind(3, static_cast<std::int64_t>(to));
  std::vector<Hash32> out;
  out.reserve(to > from ? to - from : 0);
  for (;;) {
    auto row = st->step();
    if (!row) return row.error();
    if (!*row) break;
    if (static_cast<std::uint64_t>(st->columnInt64(0)) != from + out.size()) break;
    out.push_back(hashOf(st->columnBlob(1)));
  }
  if (out.size() != to - from) {
    return makeError("ingest store: site " + site + " is missing entry " +
                     std::to_string(from + out.size()));
  }
  return out;
}

Result<std::optional<std::pair<std::uint64_t, std::vector<Hash32>>>>
EmbeddedIngestStore::checkpointAtOrBelow(const std::string& site, std::uint64_t size) {
  auto st = db_.cached(
      "SELECT size, peaks FROM ingest_checkpoint WHERE site = ? AND size <= ?"
      " ORDER BY size DESC LIMIT 1");
  if (!st) return st.error();
  st->bind(1, site).bind(2, static_cast<std::int64_t>(size));
  auto row = st->step();
  if (!row) return row.error();
  if (!*row) return std::optional<std::pair<std::uint64_t, std::vector<Hash32>>>{};
  auto peaks = splitPeaks(st->columnBlob(1));
  if (!peaks) return peaks.error();
  return std::optional{
      std::pair{static_cast<std::uint64_t>(st->columnInt64(0)), std::move(*peaks)}};
}

Result<std::unique_ptr<IngestTransaction>> EmbeddedIngestStore::begin(Access access) {
  if (Status s = db_.exec(access == Access::kWrite ? "BEGIN IMMEDIATE" : "BEGIN"); !s) {
    return s.error();
  }
  return std::unique_ptr<IngestTransaction>(std::make_unique<EmbeddedTransaction>(db_));
}

Result<std::vector<SiteRecord>> EmbeddedIngestStore::sites() {
  auto st = db_.cached(std::string(kSiteColumns) + " ORDER BY site");
  if (!st) return st.error();
  return readRows(*st, readSiteRow);
}

Result<std::vector<std::string>> EmbeddedIngestStore::entries(const std::string& site,
                                                              std::uint64_t from,
                                                              std::uint64_t to) {
  auto st = db_.cached(
      "SELECT entry FROM ingest_entry WHERE site = ? AND seq >= ? AND seq < ? ORDER BY seq");
  if (!st) return st.error();
  st->bind(1, site).bind(2, static_cast<std::int64_t>(from)).bind(3, static_cast<std::int64_t>(to));
  return readRows(*st, [](RowReader& r) { return r.text(); });
}

Result<std::uint64_t> EmbeddedIngestStore::entryCount(const std::string& site) {
  auto st = db_.cached("SELECT count(*) FROM ingest_entry WHERE site = ?");
  if (!st) return st.error();
  st->bind(1, site);
  auto row = st->step();
  if (!row) return row.error();
  return static_cast<std::uint64_t>(st->columnInt64(0));
}

Result<std::vector<std::uint64_t>> EmbeddedIngestStore::checkpointSizes(const std::string& site) {
  auto st = db_.cached("SELECT size FROM ingest_checkpoint WHERE site = ? ORDER BY size");
  if (!st) return st.error();
  st->bind(1, site);
  return readRows(*st, [](RowReader& r) { return static_cast<std::uint64_t>(r.int64()); });
}

Result<std::optional<std::string>> EmbeddedIngestStore::checkpointNote(const std::string& site,
                                                                       std::uint64_t size) {
  auto st = db_.cached("SELECT note FROM ingest_checkpoint WHERE site = ? AND size = ?");
  if (!st) return st.error();
  st->bind(1, site).bind(2, static_cast<std::int64_t>(size));
  return readFirst(*st, [](RowReader& r) { return r.text(); });
}

Result<std::vector<SiteActivity>> EmbeddedIngestStore::activity() {
  auto st = db_.cached(
      "SELECT site, duplicates, acked_size, acked_at FROM ingest_site_activity ORDER BY site");
  if (!st) return st.error();
  return readRows(*st, [](RowReader& row) {
    SiteActivity a;
    a.site = row.text();
    a.duplicates = static_cast<std::uint64_t>(row.int64());
    a.ackedSize = static_cast<std::uint64_t>(row.int64());
    a.ackedAt = row.text();
    return a;
  });
}

Result<std::vector<EvidenceRecord>> EmbeddedIngestStore::evidence(const std::string& site) {
  std::string sql =
      "SELECT id, site, kind, seg_from, seg_to, payload_sha256, payload_bytes, detail, payload,"
      " ours, first_seen, last_seen, count FROM ingest_evidence";
  if (!site.empty()) sql += " WHERE site = ?";
  sql += " ORDER BY id";
  auto st = db_.cached(sql);
  if (!st) return st.error();
  if (!site.empty()) st->bind(1, site);
  return readRows(*st, [](RowReader& row) {
    EvidenceRecord r;
    r.id = row.int64();
    r.site = row.text();
    r.kind = row.text();
    if (auto from = row.optionalInt64()) r.from = static_cast<std::uint64_t>(*from);
    if (auto to = row.optionalInt64()) r.to = static_cast<std::uint64_t>(*to);
    r.payloadSha256 = row.text();
    r.payloadBytes = static_cast<std::uint64_t>(row.int64());
    r.detail = row.text();
    r.payload = row.text();
    r.ours = row.text();
    r.firstSeen = row.text();
    r.lastSeen = row.text();
    r.count = static_cast<std::uint64_t>(row.int64());
    return r;
  });
}

}  // namespace atoms::sync::ingest
