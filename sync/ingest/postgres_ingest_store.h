// PostgresIngestStore: the ingest store in a PostgreSQL database, for a fleet: any number of
// `atoms-edge ingest` workers on any number of machines share one database (docs/sync-ingest.md
// section 8). The location is a libpq connection URI, postgresql://USER@HOST:PORT/DB; the password
// comes from libpq's own sources (a passfile= parameter, ~/.pgpass, PGPASSWORD), never from the
// command line.
//
// The evidence is kept by the database itself: entries have the primary key (site, seq) and a
// foreign key to their site, a site's state only moves forward from the size a decision read
// (UPDATE ... WHERE size = from, under the site's row lock taken by loadSite in a write
// transaction), evidence is unique per (site, kind, payload hash) and counted on conflict. The
// schema is applied by the first worker under an advisory lock (postgres_ingest_schema.h).
//
// A lost connection makes the current decision a store error (the box sends the segment again);
// the next transaction connects again.
#pragma once

#include <memory>
#include <string>

#include "sync/ingest/ingest_store.h"

namespace pqxx {
class dbtransaction;
}  // namespace pqxx

namespace atoms::sync::ingest {

class PostgresIngestStore final : public IngestStore {
 public:
  static Result<std::unique_ptr<PostgresIngestStore>> open(const std::string& uri, Mode mode);
  ~PostgresIngestStore() override;

  std::string describe() const override { return shown_; }
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
  class Transaction;
  struct Connection;  // pqxx::connection (a typedef in libpqxx 6, so not declared here)
  PostgresIngestStore(std::string uri, std::string shown, std::unique_ptr<Connection> conn);
  // Runs `work` in the open transaction, or alone in one of its own; a database error becomes
  // an error value naming the store.
  template <typename Work>
  auto run(Work&& work) -> decltype(work(std::declval<pqxx::dbtransaction&>()));
  Status connect();

  std::string uri_, shown_;
  std::unique_ptr<Connection> conn_;
  std::unique_ptr<pqxx::dbtransaction> open_;  // the transaction begin() opened, if any
  bool writing_ = false;                       // open_ is a write transaction
};

}  // namespace atoms::sync::ingest
