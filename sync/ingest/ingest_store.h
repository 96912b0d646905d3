// IngestStore: where `atoms-edge ingest` keeps what it verified (docs/sync-ingest.md section 4).
// Two stores behind this one interface, chosen by the --store argument:
//
//   DIR                      the embedded SQLCipher store in DIR (embedded_ingest_store.h), for one
//                            machine: any number of ingest processes on that machine share it.
//   postgresql://... or      a PostgreSQL database (postgres_ingest_store.h), for a fleet: any
//   postgres://...           number of workers on any number of machines share it.
//
// Per registered site a store holds the public key, the verified state (size, root, last leaf,
// frontier peaks, last checkpoint note), every verified entry once (primary key (site, seq)),
// every accepted checkpoint, and the evidence of forks, gaps, invalid segments and unknown sites.
//
// Writers share a store safely: the Ingester runs each decision in a write transaction (begin),
// in which loadSite holds the site's row until the commit (SQLCipher: the whole store, BEGIN
// IMMEDIATE; PostgreSQL: SELECT ... FOR UPDATE), and storeSegment only advances a site whose
// stored size is still the segment's `from`: a segment is never stored twice.
//
// Threading: one thread per store object. Errors: values, one line naming the store or the table.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/bytes.h"
#include "base/result.h"
#include "store/merkle_frontier.h"
#include "sync/ingest/sites_file.h"
#include "sync/segment.h"

namespace atoms::sync::ingest {

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

// A transaction on a store: rolled back when destroyed without commit.
class IngestTransaction {
 public:
  virtual ~IngestTransaction() = default;
  virtual Status commit() = 0;
};

class IngestStore {
 public:
  enum class Mode { kReadWrite, kReadOnly };
  enum class Access { kWrite, kRead };

  // kReadWrite creates what is missing (the embedded store: DIR (0700), the key file and the
  // database, under DIR/ingest.lock so concurrent first runs agree on one key; PostgreSQL: the
  // tables) and applies pending migrations. kReadOnly needs an existing, up-to-date store.
  // Errors: a database without its key file, a wrong key, an unreachable server, a schema newer
  // than this binary, a database that is not an ingest store.
  static Result<std::unique_ptr<IngestStore>> open(const std::string& location, Mode mode);
  // True when `location` names a PostgreSQL database rather than a directory.
  static bool isDatabaseUri(std::string_view location);

  virtual ~IngestStore() = default;

  // The location as an operator reads it (the directory, or the database without its password).
  virtual std::string describe() const = 0;

  // kWrite: the Ingester's decision (see above). kRead: one consistent snapshot for a report.
  virtual Result<std::unique_ptr<IngestTransaction>> begin(Access access) = 0;

  // Adds the sites not registered yet (state empty), in one transaction. A site registered with
  // another key is an error and changes nothing ("site S is already registered with another
  // key"): the cloud does not silently trust a new key for a log it holds.
  // Returns how many were added.
  virtual Result<std::size_t> registerSites(const std::vector<SiteKey>& sites,
                                            const std::string& now) = 0;

  // --- Inside the caller's transaction (or alone for reading) ---

  // nullopt when the site is not registered. In a write transaction the site's row stays held
  // until the commit.
  virtual Result<std::optional<SiteRecord>> loadSite(const std::string& site) = 0;
  // Stores entries from..to-1 of `segment` with their leaf hashes, the checkpoint, and the new
  // state. Error (nothing written by this call is kept once the caller rolls back) when the stored
  // size is no longer segment.from: another ingester got there first.
  virtual Status storeSegment(const Segment& segment, const std::vector<Hash32>& leaves,
                              const VerifiedState& state, const std::string& now) = 0;
  // Inserts the evidence, or counts one more arrival of the same (site, kind, payload). Returns
  // the row id.
  virtual Result<std::int64_t> recordEvidence(const NewEvidence& evidence,
                                              const std::string& now) = 0;
  // Records an ack of `size` decided now (and one more duplicate when `duplicate`).
  virtual Status noteAck(const std::string& site, std::uint64_t size, bool duplicate,
                         const std::string& now) = 0;
  // Stored leaf hashes of seq from..to-1 (to <= the stored size).
  virtual Result<std::vector<Hash32>> leafHashes(const std::string& site, std::uint64_t from,
                                                 std::uint64_t to) = 0;
  // The Merkle frontier of the first `size` stored leaves (size <= the stored size): from the
  // nearest stored checkpoint at or below it, plus the leaves after it.
  Result<MerkleFrontier> frontierAt(const std::string& site, std::uint64_t size);

  // --- Reading ---
  virtual Result<std::vector<SiteRecord>> sites() = 0;
  // Entry texts of seq from..to-1, in order.
  virtual Result<std::vector<std::string>> entries(const std::string& site, std::uint64_t from,
                                                   std::uint64_t to) = 0;
  // Number of stored entries of the site (count(*), independent of the state row).
  virtual Result<std::uint64_t> entryCount(const std::string& site) = 0;
  // The sizes of the site's stored checkpoints, ascending.
  virtual Result<std::vector<std::uint64_t>> checkpointSizes(const std::string& site) = 0;
  // The stored checkpoint note for `size`; nullopt when none is stored.
  virtual Result<std::optional<std::string>> checkpointNote(const std::string& site,
                                                            std::uint64_t size) = 0;
  // The activity rows of every site that has one, by site.
  virtual Result<std::vector<SiteActivity>> activity() = 0;
  // All evidence rows (of one site when site is non-empty), oldest first.
  virtual Result<std::vector<EvidenceRecord>> evidence(const std::string& site = {}) = 0;

 protected:
  IngestStore() = default;
  // The largest stored checkpoint at or below `size`: its size and peaks; nullopt when none.
  virtual Result<std::optional<std::pair<std::uint64_t, std::vector<Hash32>>>> checkpointAtOrBelow(
      const std::string& site, std::uint64_t size) = 0;

 public:
  IngestStore(const IngestStore&) = delete;
  IngestStore& operator=(const IngestStore&) = delete;
};

// What both stores share: peaks are stored as the concatenation of their hashes (largest subtree
// first), hashes as 32-byte blobs.
Bytes joinPeaks(const std::vector<Hash32>& peaks);
Result<std::vector<Hash32>> splitPeaks(const Bytes& blob);
Hash32 hashOf(const Bytes& blob);

}  // namespace atoms::sync::ingest
