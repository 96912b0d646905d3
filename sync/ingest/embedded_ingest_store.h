// EmbeddedIngestStore: the ingest store as one SQLCipher database in a directory DIR, for one
// machine (docs/sync-ingest.md section 4):
//
//   DIR/ingest.key   the database key (key file, kind "database", mode 0600), made at first run
//   DIR/ingest.db    the database (schema: sync/ingest/ingest_schema.h)
//   DIR/ingest.lock  serialises first-run creation between ingest processes sharing DIR
//
// Several processes may open one DIR read-write: a write transaction is BEGIN IMMEDIATE, so the
// decisions of all of them run one at a time.
#pragma once

#include <memory>
#include <string>

#include "store/database.h"
#include "sync/ingest/ingest_store.h"

namespace atoms::sync::ingest {

struct IngestPaths {
  std::string dir, key, database, lock;
  static IngestPaths under(const std::string& dir);
};

class EmbeddedIngestStore final : public IngestStore {
 public:
  static Result<std::unique_ptr<EmbeddedIngestStore>> open(const std::string& dir, Mode mode);

  Database& db() { return db_; }
  const IngestPaths& paths() const { return paths_; }

  std::string describe() const override { return paths_.dir; }
  Result<std::unique_ptr<IngestTransaction>> begin(Access access) override;
  Result<std::size_t> registerSites(const std::vector<SiteKey>& sites,
                                    const std::string& now) override;
  Result<std::optional<SiteRecord>> loadSite(const std::string& site) override;
  Status storeSegment(const Segment& segment, const std::vector<Hash32>& leaves,
                      const VerifiedState& state, const std::string& now) override;
  Result<std::int64_t> recordEvidence(const NewEvidence& evidence, const std::string& now) override;
  Status noteAck(const std::string& site, std::uint64_t size, bool duplicate,
                 const std::string& now) override;
  Result<std::vector<Hash32>> leafHashes(const std::string& site, std::uint64_t from,
                                         std::uint64_t to) override;
  Result<std::vector<SiteRecord>> sites() override;
  Result<std::vector<std::string>> entries(const std::string& site, std::uint64_t from,
                                           std::uint64_t to) override;
  Result<std::uint64_t> entryCount(const std::string& site) override;
  Result<std::vector<std::uint64_t>> checkpointSizes(const std::string& site) override;
  Result<std::optional<std::string>> checkpointNote(const std::string& site,
                                                    std::uint64_t size) override;
  Result<std::vector<SiteActivity>> activity() override;
  Result<std::vector<EvidenceRecord>> evidence(const std::string& site = {}) override;

 protected:
  Result<std::optional<std::pair<std::uint64_t, std::vector<Hash32>>>> checkpointAtOrBelow(
      const std::string& site, std::uint64_t size) override;

 private:
  EmbeddedIngestStore(IngestPaths paths, Database db)
      : paths_(std::move(paths)), db_(std::move(db)) {}

  IngestPaths paths_;
  Database db_;
};

}  // namespace atoms::sync::ingest
