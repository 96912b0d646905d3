#include "store/audit_log.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "base/file_io.h"
#include "base/timestamp.h"
#include "store/receipt.h"
#include "store/state_dir.h"

namespace atoms {
namespace {

// A high-water file holds one signed note; anything much larger is not one.
constexpr std::size_t kMaxHighWaterBytes = 16 * 1024;

Hash32 toHash(const Bytes& b) {
  Hash32 h{};
  std::copy(b.begin(), b.end(), h.begin());
  return h;
}

std::string blobText(const Bytes& b) { return std::string(b.begin(), b.end()); }

}  // namespace

// ---------------------------------------------------------------------------------------------
// AuditLog

Result<AuditLog> AuditLog::open(Database& db, SigningKey key, std::string siteId,
                                std::string highWaterPath, FileSystem& fs) {
  if (Status s = validateSiteId(siteId); !s) return makeError("audit log: " + s.message());
  if (key.name() != originForSite(siteId)) {
    return makeError("audit log: the signing key is named \"" + key.name() + "\", expected \"" +
                     originForSite(siteId) + "\"");
  }
  if (highWaterPath.empty()) return makeError("audit log: no high-water file path");
  AuditLog log(db, std::move(key), std::move(siteId), std::move(highWaterPath), fs);
  // The mark first, the database second: a checkpoint is recorded in the mark only after it was
  // committed, so a database read after the mark holds at least the mark's size, however fast
  // `serve` appends beside a reader (export-segments, verify).
  auto recorded = log.readHighWater();
  if (!recorded) return recorded.error();
  if (Status s = log.loadSnapshot(); !s) return s.error();
  if (Status s = log.checkHighWater(*recorded); !s) return s.error();
  return log;
}

Status AuditLog::loadSnapshot() {
  // One read transaction: the entries and the checkpoints of one moment, whatever commits
  // meanwhile.
  if (Status s = db_->exec("BEGIN"); !s) {
    return makeError("audit log: cannot begin reading: " + s.message());
  }
  Status loaded = load();
  if (Status s = db_->exec(loaded ? "COMMIT" : "ROLLBACK"); !s && loaded) {
    return makeError("audit log: cannot end reading: " + s.message());
  }
  return loaded;
}

AuditTree::LeafReader AuditLog::leafReader(Database& db) {
  Database* d = &db;
  return [d](std::uint64_t from, std::uint64_t to) -> Result<std::vector<Hash32>> {
    auto stmt =
        d->cached("SELECT seq, leaf_hash FROM audit_entry WHERE seq >= ? AND seq < ? ORDER BY seq");
    if (!stmt) return stmt.error();
    stmt->bind(1, static_cast<std::int64_t>(from)).bind(2, static_cast<std::int64_t>(to));
    std::vector<Hash32> out;
    out.reserve(static_cast<std::size_t>(to - from));
    while (true) {
      auto row = stmt->step();
      if (!row) return row.error();
      if (!*row) break;
      const Bytes leaf = stmt->columnBlob(1);
      if (static_cast<std::uint64_t>(stmt->columnInt64(0)) != from + out.size() ||
          leaf.size() != 32) {
        break;
      }
      out.push_back(toHash(leaf));
    }
    if (out.size() != to - from) {
      return makeError("entry " + std::to_string(from + out.size()) +
                       " is missing or has a malformed leaf hash");
    }
    return out;
  };
}

Status AuditLog::load() {
  auto leaves = db_->prepare("SELECT seq, leaf_hash FROM audit_entry ORDER BY seq");
  if (!leaves) return leaves.error();
  Hash32 beforeLast{};  // the leaf before the last one, which the last entry chains to
  for (std::uint64_t i = 0;; ++i) {
    auto row = leaves->step();
    if (!row) return row.error();
    if (!*row) break;
    const auto seq = static_cast<std::uint64_t>(leaves->columnInt64(0));
    if (seq != i) {
      return makeError("audit log: entry seq " + std::to_string(i) +
                       " is missing (the rows are not contiguous); run `atoms-edge verify`");
    }
    const Bytes leaf = leaves->columnBlob(1);
    if (leaf.size() != 32) {
      return makeError("audit log: entry seq " + std::to_string(i) +
                       " has a malformed leaf hash; run `atoms-edge verify`");
    }
    if (i > 0) beforeLast = tree_.lastLeaf();
    tree_.append(toHash(leaf));
  }
  const std::uint64_t n = tree_.size();

  // The tail: the entry the next append chains to must be what the tree says it is.
  if (n > 0) {
    auto text = entryText(n - 1);
    if (!text) return text.error();
    const std::string at = "audit log: the last entry (seq " + std::to_string(n - 1) + ") ";
    auto e = parseEntry(*text);
    if (!e) return makeError(at + "does not parse: " + e.message());
    if (e->seq != n - 1) return makeError(at + "says seq " + std::to_string(e->seq));
    if (e->site != siteId_) return makeError(at + "belongs to site \"" + e->site + "\"");
    if (e->prev != beforeLast) return makeError(at + "does not chain to the entry before it");
    if (leafHash(asBytes(*text)) != tree_.lastLeaf()) {
      return makeError(at + "does not match its stored leaf hash");
    }
  }

  auto sizes = db_->prepare("SELECT size FROM audit_checkpoint ORDER BY size");
  if (!sizes) return sizes.error();
  while (true) {
    auto row = sizes->step();
    if (!row) return row.error();
    if (!*row) break;
    const std::int64_t size = sizes->columnInt64(0);
    if (size <= 0 || static_cast<std::uint64_t>(size) > n) {
      return makeError("audit log: a checkpoint is stored for size " + std::to_string(size) +
                       " but the log has " + std::to_string(n) + " entries");
    }
    signedSizes_.push_back(static_cast<std::uint64_t>(size));
  }
  if (signedSize() != n) {
    return makeError("audit log: entries " + std::to_string(signedSize()) + ".." +
                     std::to_string(n) + " are not covered by a signed checkpoint");
  }
  if (n == 0) return Status::success();

  // The newest checkpoint must verify with this key and commit to this tree.
  auto stmt = db_->prepare("SELECT root, note FROM audit_checkpoint WHERE size = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, static_cast<std::int64_t>(n));
  auto row = stmt->step();
  if (!row) return row.error();
  const std::string at = "audit log: the checkpoint for size " + std::to_string(n) + " ";
  auto text = openNote(stmt->columnText(1), key_.verifier());
  if (!text) return makeError(at + "does not verify with the site key: " + text.message());
  auto cp = parseCheckpointBody(*text);
  if (!cp) return makeError(at + "does not parse: " + cp.message());
  if (cp->origin != origin() || cp->size != n || cp->root != tree_.root() ||
      stmt->columnBlob(0) != Bytes(cp->root.begin(), cp->root.end())) {
    return makeError(at + "does not match the entries; run `atoms-edge verify`");
  }
  return Status::success();
}

Result<std::optional<Checkpoint>> AuditLog::readHighWaterFile(const std::string& path,
                                                              const VerifierKey& key,
                                                              FileSystem& fs) {
  auto content = readFileToString(path, fs);
  if (!content && content.kind() != ErrorKind::kNotFound) {
    return makeError("audit log: cannot read the high-water file " + path + ": " +
                     content.message());
  }
  if (!content) return std::optional<Checkpoint>();
  const std::string& note = *content;
  const std::string at = "audit log: high-water file " + path + " ";
  if (note.size() > kMaxHighWaterBytes) return makeError(at + "is too large");
  auto text = openNote(note, key);
  if (!text) return makeError(at + "is not a checkpoint by the site key: " + text.message());
  auto cp = parseCheckpointBody(*text);
  if (!cp) return makeError(at + "does not parse: " + cp.message());
  if (cp->origin != key.name()) return makeError(at + "is for another log: " + cp->origin);
  return std::optional<Checkpoint>(std::move(*cp));
}

Result<std::optional<Checkpoint>> AuditLog::readHighWater() const {
  return readHighWaterFile(hwPath_, key_.verifier(), *fs_);
}

Status AuditLog::checkHighWater(const std::optional<Checkpoint>& recorded) {
  if (recorded) {
    const Checkpoint* cp = &*recorded;
    if (cp->size > signedSize()) {
      return makeError(
          "audit log: refusing to open: this database is older than the log already signed "
          "(database signed up to size " +
          std::to_string(signedSize()) + ", high-water file " + hwPath_ + " records size " +
          std::to_string(cp->size) +
          "). It looks like a restored backup or an old copy; appending to it would fork the "
          "published log. Put the newest database back (see docs/audit-log.md).");
    }
    auto root = tree_.rootAt(cp->size);
    if (!root) return root.error();
    if (*root != cp->root) {
      return makeError(
          "audit log: refusing to open: the database disagrees with the checkpoint "
          "already signed for size " +
          std::to_string(cp->size) + " (recorded in " + hwPath_ +
          "); it is not the database whose log was published, and appending to it "
          "would fork the log (see docs/audit-log.md)");
    }
    highWaterSize_ = cp->size;
  }
  // Catch up: the high-water lags after a crash between a commit and a publish, or on first use.
  if (signedSize() > highWaterSize_) {
    auto published = publishCheckpoint(signedSize());
    if (!published) return published.error();
  }
  return Status::success();
}

Status AuditLog::writeHighWater(const std::string& note) {
  if (Status s = replaceFileDurably(hwPath_, note, *fs_); !s) {
    return makeError("audit log: cannot record the high-water checkpoint: " + s.message());
  }
  return Status::success();
}

Result<AuditLog::Batch> AuditLog::begin() {
  if (batchOpen_) return makeError("audit log: a batch is already open");
  auto txn = Transaction::begin(*db_);
  if (!txn) return makeError("audit log: cannot begin a batch: " + txn.message());
  auto insert = db_->cached("INSERT INTO audit_entry(seq, entry, leaf_hash) VALUES(?, ?, ?)");
  if (!insert) return insert.error();
  batchOpen_ = true;
  return Batch(this, std::move(*txn), std::move(*insert));
}

Result<std::uint64_t> AuditLog::append(std::string_view ts, std::string_view kind,
                                       std::string_view actor, json::Value body) {
  auto batch = begin();
  if (!batch) return batch.error();
  auto seq = batch->add(ts, kind, actor, std::move(body));
  if (!seq) return seq.error();
  auto note = batch->commit();
  if (!note) return note.error();
  return *seq;
}

Result<std::string> AuditLog::entryText(std::uint64_t seq) const {
  if (seq >= size()) {
    return makeError("audit log: no entry " + std::to_string(seq) + " (the log has " +
                     std::to_string(size()) + ")");
  }
  auto stmt = db_->cached("SELECT entry FROM audit_entry WHERE seq = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, static_cast<std::int64_t>(seq));
  auto row = stmt->step();
  if (!row) return row.error();
  if (!*row) return makeError("audit log: entry " + std::to_string(seq) + " is missing");
  return blobText(stmt->columnBlob(0));
}

Result<std::vector<std::string>> AuditLog::entryTexts(std::uint64_t from, std::uint64_t to) const {
  if (from > to || to > size()) {
    return makeError("audit log: no entries [" + std::to_string(from) + ", " + std::to_string(to) +
                     ") in a log of " + std::to_string(size()));
  }
  auto stmt =
      db_->cached("SELECT seq, entry FROM audit_entry WHERE seq >= ? AND seq < ? ORDER BY seq");
  if (!stmt) return stmt.error();
  stmt->bind(1, static_cast<std::int64_t>(from)).bind(2, static_cast<std::int64_t>(to));
  std::vector<std::string> out;
  out.reserve(static_cast<std::size_t>(to - from));
  while (true) {
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row) break;
    if (static_cast<std::uint64_t>(stmt->columnInt64(0)) != from + out.size()) break;
    out.push_back(blobText(stmt->columnBlob(1)));
  }
  if (out.size() != to - from) {
    return makeError("audit log: entry " + std::to_string(from + out.size()) + " is missing");
  }
  return out;
}

Result<std::string> AuditLog::checkpointAt(std::uint64_t size) const {
  if (!std::binary_search(signedSizes_.begin(), signedSizes_.end(), size)) {
    return makeError("audit log: no checkpoint was signed for size " + std::to_string(size) + " (" +
                     describeNearestSigned(size) + ")");
  }
  auto stmt = db_->cached("SELECT note FROM audit_checkpoint WHERE size = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, static_cast<std::int64_t>(size));
  auto row = stmt->step();
  if (!row) return row.error();
  if (!*row)
    return makeError("audit log: the checkpoint for size " + std::to_string(size) +
                     " is missing from the database");
  return stmt->columnText(0);
}

Result<std::string> AuditLog::publishCheckpoint(std::uint64_t size) {
  auto note = checkpointAt(size);
  if (!note) return note;
  if (size <= highWaterSize_) return note;
  // Record first, publish second: once a note may be out, the file already holds its size. Other
  // processes record into the same file (serve, and a reading command beside it that catches the
  // mark up): under the lock, the file is read again and only ever raised, never lowered.
  auto lock = fs_->lockFile(hwPath_ + ".lock");
  if (!lock) {
    return makeError("audit log: cannot lock the high-water file " + hwPath_ +
                     ".lock: " + lock.message());
  }
  auto recorded = readHighWater();
  if (!recorded) return recorded.error();
  if (*recorded && (*recorded)->size >= size) {
    highWaterSize_ = (*recorded)->size;
    return note;
  }
  if (Status s = writeHighWater(*note); !s) return s.error();
  highWaterSize_ = size;
  return note;
}

// ---------------------------------------------------------------------------------------------
// AuditLog::Batch

AuditLog::Batch::Batch(AuditLog* log, Transaction txn, Statement insert)
    : log_(log),
      txn_(std::move(txn)),
      insert_(std::move(insert)),
      frontier_(log->tree_.frontier()) {}

AuditLog::Batch::~Batch() { finish(); }

AuditLog::Batch::Batch(Batch&& other) noexcept
    : log_(std::exchange(other.log_, nullptr)),
      txn_(std::move(other.txn_)),
      insert_(std::move(other.insert_)),
      frontier_(std::move(other.frontier_)),
      leaves_(std::move(other.leaves_)),
      bytes_(other.bytes_) {}

void AuditLog::Batch::finish() {
  insert_ = Statement();  // reset (back to the cache) before the transaction ends
  (void)txn_.rollback();  // no-op after a successful commit
  if (log_ != nullptr) log_->batchOpen_ = false;
  log_ = nullptr;  // detached: a later begin() is not disturbed by this object
}

namespace {
Error finishedError() {
  return makeError("audit batch: already committed, or failed earlier; begin a new one");
}
}  // namespace

Status AuditLog::Batch::record(TimePoint at, std::string_view kind, std::string_view actor,
                               json::Object body) {
  auto added = add(formatTimestamp(at), kind, actor, json::Value(std::move(body)));
  if (!added) return added.error();
  return Status::success();
}

Result<std::uint64_t> AuditLog::Batch::add(std::string_view ts, std::string_view kind,
                                           std::string_view actor, json::Value body) {
  if (log_ == nullptr) return finishedError();
  if (leaves_.size() >= kMaxBatchEntries) {
    return makeError("audit batch: full (" + std::to_string(kMaxBatchEntries) +
                     " entries); commit it and begin another");
  }
  Entry e;
  e.seq = frontier_.size();
  e.ts = std::string(ts);
  e.site = log_->siteId_;
  e.kind = std::string(kind);
  e.actor = std::string(actor);
  e.body = std::move(body);
  if (!leaves_.empty()) {
    e.prev = leaves_.back();
  } else if (e.seq > 0) {
    e.prev = log_->tree_.lastLeaf();
  }
  if (Status s = validateEntry(e); !s) return makeError("audit " + s.message());
  const std::string text = atoms::entryText(e);
  if (text.size() > kMaxEntryBytes) {
    return makeError("audit entry: " + std::to_string(text.size()) + " bytes, more than the " +
                     std::to_string(kMaxEntryBytes) + "-byte limit");
  }
  if (bytes_ + text.size() > kMaxBatchBytes) {
    return makeError("audit batch: full (" + std::to_string(kMaxBatchBytes / 1024) +
                     " KiB of entries); commit it and begin another");
  }
  const Hash32 leaf = leafHash(asBytes(text));
  Status s = insert_.reset();
  if (s) {
    insert_.bind(1, static_cast<std::int64_t>(e.seq)).bindBlob(2, asBytes(text)).bindBlob(3, leaf);
    auto done = insert_.step();
    if (!done) s = done.error();
  }
  if (!s) {
    finish();  // the transaction's state is unknown: only a rollback is safe now
    return makeError("audit batch: cannot store entry " + std::to_string(e.seq) + ": " +
                     s.message());
  }
  frontier_.append(leaf);
  leaves_.push_back(leaf);
  bytes_ += text.size();
  return e.seq;
}

Result<std::uint64_t> AuditLog::Batch::addReceipt(std::string_view ts, std::string_view actor,
                                                  json::Value receipt) {
  if (log_ == nullptr) return finishedError();
  auto signedReceipt = signReceipt(std::move(receipt), log_->key_);
  if (!signedReceipt) return signedReceipt.error();
  return add(ts, "receipt", actor, std::move(*signedReceipt));
}

Result<std::string> AuditLog::Batch::commit() {
  if (log_ == nullptr) return finishedError();
  AuditLog& log = *log_;
  // Whatever happens below, this batch is over; on any error finish() rolls everything back.
  if (leaves_.empty()) {
    // The note is read before the commit, so that the commit is the last step that can fail: an
    // error from here means nothing was committed, and a caller may redo its work.
    Result<std::string> note = std::string();
    if (log.signedSize() > 0) note = log.checkpointAt(log.signedSize());
    Status s = note ? txn_.commit() : Status(note.error());
    finish();
    if (!s) return makeError("audit batch: commit failed: " + s.message());
    return note;
  }

  const Checkpoint cp{log.origin(), frontier_.size(), frontier_.root()};
  auto note = signNote(checkpointBody(cp), log.key_);
  if (!note) {
    finish();
    return note.error();
  }
  Status s;
  {
    auto stmt = log.db_->cached("INSERT INTO audit_checkpoint(size, root, note) VALUES(?, ?, ?)");
    if (!stmt) {
      s = stmt.error();
    } else {
      stmt->bind(1, static_cast<std::int64_t>(cp.size)).bindBlob(2, cp.root).bind(3, *note);
      auto done = stmt->step();
      if (!done) s = makeError("cannot store the checkpoint: " + done.message());
    }
  }  // the statement is reset (given back to the cache) before COMMIT
  insert_ = Statement();
  if (s) s = txn_.commit();
  finish();
  if (!s) return makeError("audit batch: commit failed: " + s.message());

  for (const Hash32& leaf : leaves_) log.tree_.append(leaf);
  log.signedSizes_.push_back(cp.size);
  if (log.observer_) log.observer_(cp.size);
  return note;
}

std::string AuditLog::describeNearestSigned(std::uint64_t size) const {
  const std::vector<std::uint64_t>& sizes = signedSizes_;
  if (sizes.empty()) return "nothing has been signed yet";
  auto it = std::lower_bound(sizes.begin(), sizes.end(), size);
  std::string out = "nearest signed sizes:";
  if (it != sizes.begin()) out += " " + std::to_string(*std::prev(it));
  if (it != sizes.end()) out += (it != sizes.begin() ? " and " : " ") + std::to_string(*it);
  return out;
}

}  // namespace atoms
