// AuditLog: the site's append-only, hash-chained, Merkle-tree audit log (DESIGN.md section 4) on
// top of the store's Database (tables audit_entry and audit_checkpoint, migration 2).
//
// Contract:
// - Threading: single writer. One AuditLog per ReadWrite Database, used only by the engine thread;
//   not thread-safe. Readers on other connections use verifyDatabase() or plain SELECTs.
// - Ownership: AuditLog refers to the Database (and Batch to its AuditLog) by pointer; both must
//   outlive it. Do not move an AuditLog while a Batch is open.
// - Writes go in batches (group commit): begin() opens a BEGIN IMMEDIATE transaction; domain rows
//   written on the same Database while the batch is open commit atomically with its entries.
//   commit() signs a checkpoint for the new size and stores it in the same transaction. The
//   in-memory tree changes only after the commit succeeded; a Batch destroyed without commit rolls
//   back and leaves the log (and the domain rows) unchanged.
// - Never sign smaller: a checkpoint is only signed at commit, for a size larger than every size
//   signed before. Before a checkpoint leaves the box, publishCheckpoint() records it in the
//   high-water file; open() refuses a database whose signed history is behind that file or
//   disagrees with it (an old copy or restored backup would fork the published log). The
//   high-water file is read and written through a FileSystem (base/file_system.h): the POSIX one
//   unless a test passes a faulty one; it must outlive the AuditLog.
// - Errors are values, one line each. Operator documentation: docs/audit-log.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/bytes.h"
#include "base/canonical_json.h"
#include "base/file_system.h"
#include "base/result.h"
#include "base/time_point.h"
#include "store/audit_entry.h"
#include "store/audit_tree.h"
#include "store/checkpoint.h"
#include "store/database.h"
#include "store/merkle_frontier.h"
#include "store/signed_note.h"

namespace atoms {

// Bounds of one batch, so any batch fits in one sync segment (segments are cut at signed sizes).
inline constexpr std::size_t kMaxBatchEntries = 256;
inline constexpr std::size_t kMaxBatchBytes = 512 * 1024;  // sum of entry texts

class AuditLog {
 public:
  class Batch;

  // Loads the log from `db` (one SELECT of every leaf hash in seq order, kept in memory only down
  // to blocks of 256: store/audit_tree.h), checks that the rows are
  // contiguous from 0, the tail entry (parses, seq, site, prev, stored leaf hash), that the newest
  // checkpoint verifies with `key` and matches the tree, and the high-water file at
  // `highWaterPath` (see the class comment; created/advanced to the newest signed checkpoint, the
  // directory must be writable). `key` must be the site key, named originForSite(siteId).
  // Errors name the problem, e.g. the refusal of an older database copy.
  static Result<AuditLog> open(Database& db, SigningKey key, std::string siteId,
                               std::string highWaterPath, FileSystem& fs = posixFileSystem());

  AuditLog(AuditLog&&) noexcept = default;
  AuditLog& operator=(AuditLog&&) noexcept = default;
  AuditLog(const AuditLog&) = delete;
  AuditLog& operator=(const AuditLog&) = delete;

  // Opens a batch. Error when a batch is already open or the transaction cannot begin (e.g. the
  // caller already holds a Transaction on this Database: SQLite transactions do not nest).
  Result<Batch> begin();

  // A one-entry batch: begin, add, commit. Returns the entry's seq.
  Result<std::uint64_t> append(std::string_view ts, std::string_view kind, std::string_view actor,
                               json::Value body);

  std::uint64_t size() const { return tree_.size(); }

  // Called on the committing thread after each commit of a batch that added entries, with the new
  // size (the panel's live updates, daemon/panel/change_feed.h). It must be quick and not throw.
  // One observer; an empty function: none.
  void setCommitObserver(std::function<void(std::uint64_t size)> observer) {
    observer_ = std::move(observer);
  }
  Hash32 root() const { return tree_.root(); }
  // Roots and proofs at any size up to size(); those below the current size read leaf hashes
  // from the database (at most two blocks of 256), so they can fail with an SQL error.
  const AuditTree& tree() const { return tree_; }
  const std::string& siteId() const { return siteId_; }
  const std::string& origin() const { return key_.name(); }
  VerifierKey verifierKey() const { return key_.verifier(); }

  // The stored entry text of `seq`; error when seq >= size().
  Result<std::string> entryText(std::uint64_t seq) const;
  // Entry texts of [from, to) in order (one SELECT). Requires from <= to <= size().
  Result<std::vector<std::string>> entryTexts(std::uint64_t from, std::uint64_t to) const;

  // Every signed size, ascending (one per committed non-empty batch).
  const std::vector<std::uint64_t>& signedSizes() const { return signedSizes_; }
  // The largest signed size (== size() for a healthy log); 0 when nothing was signed yet.
  std::uint64_t signedSize() const { return signedSizes_.empty() ? 0 : signedSizes_.back(); }
  // "nearest signed sizes: 96 and 128": for errors about a size that was never signed.
  std::string describeNearestSigned(std::uint64_t size) const;
  // The stored checkpoint note for `size`; error when that size was never signed.
  Result<std::string> checkpointAt(std::uint64_t size) const;

  // Records (size, root) in the high-water file when larger than what it holds (under the lock
  // file <high-water>.lock, shared with every process that opens the log: read the file again,
  // write tmp, fsync, rename, fsync dir; never lower), then returns the note. Call it before a
  // checkpoint leaves the box (export, sync). Error when the size was never signed or the file
  // cannot be written (then nothing may be published).
  Result<std::string> publishCheckpoint(std::uint64_t size);
  // The size the high-water file records (0 when it records nothing yet).
  std::uint64_t highWaterSize() const { return highWaterSize_; }

  // Reads the high-water file at `path` without opening a log (restore compares a backup with
  // it): the checkpoint it records, verified with `key`, whose name must be the checkpoint's
  // origin; nullopt when there is no file. Errors name the file.
  static Result<std::optional<Checkpoint>> readHighWaterFile(const std::string& path,
                                                             const VerifierKey& key,
                                                             FileSystem& fs = posixFileSystem());

 private:
  AuditLog(Database& db, SigningKey key, std::string siteId, std::string highWaterPath,
           FileSystem& fs)
      : db_(&db),
        key_(std::move(key)),
        siteId_(std::move(siteId)),
        hwPath_(std::move(highWaterPath)),
        fs_(&fs),
        tree_(leafReader(db)) {}

  static AuditTree::LeafReader leafReader(Database& db);

  Status loadSnapshot();  // load() inside one read transaction
  Status load();
  // The high-water file's checkpoint, verified with the site key; nullopt when there is no file.
  Result<std::optional<Checkpoint>> readHighWater() const;
  // Refuses a database behind or beside `recorded`, then catches the mark up to signedSize().
  Status checkHighWater(const std::optional<Checkpoint>& recorded);
  Status writeHighWater(const std::string& note);

  Database* db_;
  SigningKey key_;
  std::string siteId_;
  std::string hwPath_;
  FileSystem* fs_;
  AuditTree tree_;
  std::vector<std::uint64_t> signedSizes_;
  std::function<void(std::uint64_t)> observer_;
  std::uint64_t highWaterSize_ = 0;
  bool batchOpen_ = false;
};

// One group commit. Move-only; must not outlive its AuditLog. Not thread-safe.
class AuditLog::Batch {
 public:
  ~Batch();
  Batch(Batch&& other) noexcept;
  Batch& operator=(Batch&&) = delete;
  Batch(const Batch&) = delete;
  Batch& operator=(const Batch&) = delete;

  // Adds an entry (site = the log's, prev = the previous leaf hash) and returns its seq. Errors:
  // invalid ts/kind/actor/body (named), an entry text over kMaxEntryBytes, the batch full
  // (kMaxBatchEntries / kMaxBatchBytes: commit and begin another), a finished batch, SQL errors
  // (after which the batch can only be dropped).
  Result<std::uint64_t> add(std::string_view ts, std::string_view kind, std::string_view actor,
                            json::Value body);
  // add() stamped `at`, for the many callers that want only whether it worked.
  Status record(TimePoint at, std::string_view kind, std::string_view actor, json::Object body);
  // Signs `receipt` with the site key (store/receipt.h: shape errors are named) and adds it as an
  // entry of kind "receipt".
  Result<std::uint64_t> addReceipt(std::string_view ts, std::string_view actor,
                                   json::Value receipt);

  // Signs the checkpoint note for the new size and root, stores it, commits, then updates the
  // log in memory; returns the note. A batch without entries commits its domain rows and returns
  // the newest stored note ("" for an empty log) without signing anything. After a failed commit
  // everything is rolled back and the batch is finished: an error means nothing was committed
  // (unless the process or the disk dies mid-commit, when the commit may still be on disk).
  Result<std::string> commit();

  std::size_t entries() const { return leaves_.size(); }
  std::size_t bytes() const { return bytes_; }
  // The seq the next add() returns.
  std::uint64_t nextSeq() const { return frontier_.size(); }

 private:
  friend class AuditLog;
  Batch(AuditLog* log, Transaction txn, Statement insert);
  // Ends the batch: rolls back unless committed, releases the log for the next begin().
  void finish();

  AuditLog* log_;  // null once the batch is finished (committed, failed or moved from)
  Transaction txn_;
  Statement insert_;
  MerkleFrontier frontier_;     // the log's frontier plus this batch's leaves
  std::vector<Hash32> leaves_;  // this batch's leaf hashes
  std::size_t bytes_ = 0;
};

}  // namespace atoms
