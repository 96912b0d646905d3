// IngestStore: the cloud side's SQLCipher database in the store directory DIR of
// `atoms-edge ingest` (docs/sync-ingest.md):
//
//   DIR/ingest.key   the database key (key file, kind "database", mode 0600), made at first run
//   DIR/ingest.db    the database (schema: sync/ingest/ingest_schema.h)
//   DIR/ingest.lock  serialises first-run creation between ingest processes sharing DIR
//
// Per registered site it holds the public key, the verified state (size, root, last leaf,
// frontier peaks, last checkpoint note), every verified entry once (PRIMARY KEY (site, seq)),
// every accepted checkpoint, and the evidence of forks, gaps, invalid segments and unknown sites.
//
// Several processes may open one DIR read-write: every write runs in a BEGIN IMMEDIATE
// transaction (the caller's, see Ingester), and storeSegment only advances a site whose stored
// size is still the segment's `from`, so a segment is never stored twice.
//
// Threading: as Database (one thread). Errors: values, one line naming DIR or the table.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "store/database.h"
#include "store/merkle_frontier.h"
#include "sync/ingest/sites_file.h"
#include "sync/segment.h"

namespace atoms::sync::ingest {

struct IngestPaths {
  std::string dir, key, database, lock;
  static IngestPaths under(const std::string& dir);
};

struct SiteRecord {
  SiteKey key;
  VerifiedState state;
  std::string updatedAt;
};

enum class EvidenceKind { kFork, kGap, kInvalid, kUnknownSite };
// "fork", "gap", "invalid", "unknown-site" (the kind column).
std::string_view evidenceKindName(EvidenceKind kind);

struct NewEvidence {
  EvidenceKind kind = EvidenceKind::kInvalid;
  std::string site;  // as the topic names it (maybe not a registered or even valid site id)
  std::optional<std::uint64_t> from, to;
  std::string_view payload;  // the segment as received
  bool keepPayload = false;  // store the payload itself, not only its hash (forks)
  std::string ours;          // what it contradicts (forks: our checkpoint note)
  std::string detail;        // one line: why
};

struct EvidenceRecord {
  std::int64_t id = 0;
  std::string site, kind;
  std::optional<std::uint64_t> from, to;
  std::string payloadSha256;  // hex
  std::uint64_t payloadBytes = 0;
  std::string detail, payload, ours;
  std::string firstSeen, lastSeen;
  std::uint64_t count = 0;  // arrivals of this same payload
};

// Per site: duplicates acked again and the last ack decided (Ingester: after the commit, the ack
// is published; a failed publish is not recorded, the box resends).
struct SiteActivity {
  std::string site;
  std::uint64_t duplicates = 0;
  std::uint64_t ackedSize = 0;
  std::string ackedAt;
};

class IngestStore {
 public:
  enum class Mode { kReadWrite, kReadOnly };

  // kReadWrite creates DIR (0700), the key file and the database when they are missing (under
  // DIR/ingest.lock, so concurrent first runs agree on one key) and applies pending migrations.
  // kReadOnly needs both and an up-to-date schema. Errors: a database without its key file, a
  // wrong key, a schema newer than this binary, a database that is not an ingest store.
  static Result<std::unique_ptr<IngestStore>> open(const std::string& dir, Mode mode);

  IngestStore(const IngestStore&) = delete;
  IngestStore& operator=(const IngestStore&) = delete;

  Database& db() { return db_; }
  const IngestPaths& paths() const { return paths_; }

  // Adds the sites not registered yet (state empty), in one transaction. A site registered with
  // another key is an error and changes nothing ("site S is already registered with another
  // key"): the cloud does not silently trust a new key for a log it holds.
  // Returns how many were added.
  Result<std::size_t> registerSites(const std::vector<SiteKey>& sites, const std::string& now);

  // --- Inside the caller's transaction (or alone for reading) ---

  // nullopt when the site is not registered.
  Result<std::optional<SiteRecord>> loadSite(const std::string& site);
  // Stores entries from..to-1 of `segment` with their leaf hashes, the checkpoint, and the new
  // state. Error (nothing written by this call is kept once the caller rolls back) when the stored
  // size is no longer segment.from: another ingester got there first.
  Status storeSegment(const Segment& segment, const std::vector<Hash32>& leaves,
                      const VerifiedState& state, const std::string& now);
  // Inserts the evidence, or counts one more arrival of the same (site, kind, payload). Returns
  // the row id.
  Result<std::int64_t> recordEvidence(const NewEvidence& evidence, const std::string& now);
  // Records an ack of `size` decided now (and one more duplicate when `duplicate`).
  Status noteAck(const std::string& site, std::uint64_t size, bool duplicate,
                 const std::string& now);
  // Stored leaf hashes of seq from..to-1 (to <= the stored size).
  Result<std::vector<Hash32>> leafHashes(const std::string& site, std::uint64_t from,
                                         std::uint64_t to);
  // The Merkle frontier of the first `size` stored leaves (size <= the stored size): from the
  // nearest stored checkpoint at or below it, plus the leaves after it.
  Result<MerkleFrontier> frontierAt(const std::string& site, std::uint64_t size);

  // --- Reading ---
  Result<std::vector<SiteRecord>> sites();
  // Entry texts of seq from..to-1, in order.
  Result<std::vector<std::string>> entries(const std::string& site, std::uint64_t from,
                                           std::uint64_t to);
  // Number of stored entries of the site (count(*), independent of the state row).
  Result<std::uint64_t> entryCount(const std::string& site);
  // The sizes of the site's stored checkpoints, ascending.
  Result<std::vector<std::uint64_t>> checkpointSizes(const std::string& site);
  // The stored checkpoint note for `size`; nullopt when none is stored.
  Result<std::optional<std::string>> checkpointNote(const std::string& site, std::uint64_t size);
  // The activity rows of every site that has one, by site.
  Result<std::vector<SiteActivity>> activity();
  // All evidence rows (of one site when site is non-empty), oldest first.
  Result<std::vector<EvidenceRecord>> evidence(const std::string& site = {});

 private:
  IngestStore(IngestPaths paths, Database db) : paths_(std::move(paths)), db_(std::move(db)) {}

  IngestPaths paths_;
  Database db_;
};

}  // namespace atoms::sync::ingest
