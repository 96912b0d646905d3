#include "sync/ingest/postgres_ingest_store.h"

#include <pqxx/pqxx>
#include <utility>

#include "base/canonical_json.h"
#include "base/one_line.h"
#include "store/merkle.h"
#include "sync/ingest/postgres_ingest_schema.h"

namespace atoms::sync::ingest {

struct PostgresIngestStore::Connection {
  explicit Connection(const std::string& uri) : conn(uri) {}
  pqxx::connection conn;
};

namespace {

using SiteRow = std::optional<SiteRecord>;

pqxx::binarystring bytea(const Hash32& h) { return pqxx::binarystring(h.data(), h.size()); }
pqxx::binarystring bytea(const Bytes& b) { return pqxx::binarystring(b.data(), b.size()); }
pqxx::binarystring bytea(std::string_view s) { return pqxx::binarystring(s.data(), s.size()); }

Bytes bytesOf(const pqxx::field& f) {
  if (f.is_null()) return {};
  const pqxx::binarystring b(f);
  return Bytes(b.data(), b.data() + b.size());
}

long long asInt(std::uint64_t v) { return static_cast<long long>(v); }

// Text columns take UTF-8 only; what arrived from outside may not be (a detail quoting a payload).
std::string utf8Text(std::string_view text) {
  if (json::isValidUtf8(text)) return std::string(text);
  std::string out;
  for (const unsigned char c : text) out += c < 0x80 ? static_cast<char>(c) : '?';
  return out;
}

// postgresql://user:secret@host/db -> postgresql://user@host/db: what logs and errors show.
std::string withoutPassword(const std::string& uri) {
  const auto scheme = uri.find("://");
  const auto at = uri.find('@', scheme == std::string::npos ? 0 : scheme + 3);
  if (scheme == std::string::npos || at == std::string::npos) return uri;
  const auto colon = uri.find(':', scheme + 3);
  if (colon == std::string::npos || colon > at) return uri;
  return uri.substr(0, colon) + uri.substr(at);
}

Result<SiteRecord> siteFrom(const pqxx::row& row) {
  SiteRecord r;
  r.key.site = row[0].as<std::string>();
  const Bytes pk = bytesOf(row[1]);
  if (pk.size() != r.key.publicKey.size()) {
    return makeError("ingest store: site " + r.key.site + " has a malformed public key");
  }
  std::copy(pk.begin(), pk.end(), r.key.publicKey.begin());
  r.state.size = row[2].as<std::uint64_t>();
  r.state.root = hashOf(bytesOf(row[3]));
  r.state.lastLeaf = hashOf(bytesOf(row[4]));
  auto peaks = splitPeaks(bytesOf(row[5]));
  if (!peaks) return peaks.error();
  r.state.peaks = std::move(*peaks);
  r.state.checkpoint = row[6].as<std::string>();
  r.updatedAt = row[7].as<std::string>();
  return r;
}

constexpr std::string_view kPgSiteColumns =
    "SELECT site, public_key, size, root, last_leaf, peaks, checkpoint, updated_at FROM "
    "ingest_site";

// Entries go in as multi-row INSERTs of this many rows: one round trip per chunk, not per entry.
constexpr std::size_t kEntriesPerInsert = 500;

Status migrate(pqxx::connection& conn, IngestStore::Mode mode, const std::string& shown) {
  pqxx::work tx(conn);
  if (mode == IngestStore::Mode::kReadWrite) {
    // One worker at a time creates or upgrades the schema; the others wait, then see it done.
    tx.exec_params("SELECT pg_advisory_xact_lock($1)", kPostgresMigrationLock);
    tx.exec(
        "CREATE TABLE IF NOT EXISTS ingest_schema(version INTEGER PRIMARY KEY,"
        " name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())");
  }
  const pqxx::row exists = tx.exec1("SELECT to_regclass('ingest_schema') IS NOT NULL AS present");
  if (!exists[0].as<bool>()) {
    return makeError(shown +
                     " is not an ingest store (no ingest_schema table): run atoms-edge "
                     "ingest --store on it first");
  }
  const int current = tx.exec1("SELECT coalesce(max(version), 0) FROM ingest_schema")[0].as<int>();
  if (current > postgresIngestSchemaVersion()) {
    return makeError(shown + " has schema version " + std::to_string(current) +
                     ", newer than this binary knows (" +
                     std::to_string(postgresIngestSchemaVersion()) + "): upgrade atoms-edge");
  }
  if (mode == IngestStore::Mode::kReadOnly) {
    if (current < postgresIngestSchemaVersion()) {
      return makeError(shown + " needs a schema upgrade: run atoms-edge ingest on it first");
    }
    return Status::success();
  }
  for (const PostgresMigration& m : postgresIngestMigrations()) {
    if (m.version <= current) continue;
    tx.exec(std::string(m.sql));
    tx.exec_params("INSERT INTO ingest_schema(version, name) VALUES($1, $2)", m.version,
                   std::string(m.name));
  }
  tx.commit();
  return Status::success();
}

}  // namespace

// The transaction begin() opened: the store's open_ until commit or destruction.
class PostgresIngestStore::Transaction final : public IngestTransaction {
 public:
  explicit Transaction(PostgresIngestStore& store) : store_(&store) {}
  ~Transaction() override {
    if (store_ != nullptr) store_->open_.reset();  // pqxx aborts a transaction it destroys
  }
  Status commit() override {
    PostgresIngestStore* store = std::exchange(store_, nullptr);
    std::unique_ptr<pqxx::dbtransaction> tx = std::move(store->open_);
    try {
      tx->commit();
    } catch (const std::exception& e) {
      return makeError(store->shown_ + ": commit failed: " + oneLine(e.what()));
    }
    return Status::success();
  }

 private:
  PostgresIngestStore* store_;
};

PostgresIngestStore::PostgresIngestStore(std::string uri, std::string shown,
                                         std::unique_ptr<Connection> conn)
    : uri_(std::move(uri)), shown_(std::move(shown)), conn_(std::move(conn)) {}

PostgresIngestStore::~PostgresIngestStore() = default;

Result<std::unique_ptr<PostgresIngestStore>> PostgresIngestStore::open(const std::string& uri,
                                                                       Mode mode) {
  const std::string shown = withoutPassword(uri);
  try {
    auto conn = std::make_unique<Connection>(uri);
    if (Status s = migrate(conn->conn, mode, shown); !s) return s.error();
    return std::unique_ptr<PostgresIngestStore>(
        new PostgresIngestStore(uri, shown, std::move(conn)));
  } catch (const pqxx::broken_connection& e) {
    return makeError("cannot connect to " + shown + ": " + oneLine(e.what()),
                     ErrorKind::kUnavailable);
  } catch (const std::exception& e) {
    return makeError(shown + ": " + oneLine(e.what()));
  }
}

Status PostgresIngestStore::connect() {
  if (conn_ && conn_->conn.is_open()) return Status::success();
  try {
    conn_ = std::make_unique<Connection>(uri_);
  } catch (const std::exception& e) {
    conn_.reset();
    return makeError("cannot connect to " + shown_ + ": " + oneLine(e.what()),
                     ErrorKind::kUnavailable);
  }
  return Status::success();
}

template <typename Work>
auto PostgresIngestStore::run(Work&& work) -> decltype(work(std::declval<pqxx::dbtransaction&>())) {
  try {
    if (open_) return work(*open_);
    if (Status s = connect(); !s) return s.error();
    pqxx::work tx(conn_->conn);
    auto result = work(static_cast<pqxx::dbtransaction&>(tx));
    if (result) tx.commit();
    return result;
  } catch (const std::exception& e) {
    return makeError(shown_ + ": " + oneLine(e.what()));
  }
}

Result<std::unique_ptr<IngestTransaction>> PostgresIngestStore::begin(Access access) {
  if (open_) return makeError(shown_ + ": a transaction is already open");
  if (Status s = connect(); !s) return s.error();
  try {
    if (access == Access::kWrite) {
      open_ = std::make_unique<pqxx::work>(conn_->conn);
    } else {
      open_ =
          std::make_unique<pqxx::transaction<pqxx::repeatable_read, pqxx::read_only>>(conn_->conn);
    }
  } catch (const std::exception& e) {
    return makeError(shown_ + ": " + oneLine(e.what()));
  }
  writing_ = access == Access::kWrite;
  return std::unique_ptr<IngestTransaction>(std::make_unique<Transaction>(*this));
}

Result<std::size_t> PostgresIngestStore::registerSites(const std::vector<SiteKey>& sites,
                                                       const std::string& now) {
  if (open_) return makeError(shown_ + ": registerSites runs in a transaction of its own");
  return run([&](pqxx::dbtransaction& tx) -> Result<std::size_t> {
    std::size_t added = 0;
    const Hash32 empty = emptyRoot();
    const Hash32 zero{};
    for (const SiteKey& s : sites) {
      const pqxx::result inserted = tx.exec_params(
          "INSERT INTO ingest_site(site, public_key, registered_at, size, root, last_leaf, peaks,"
          " checkpoint, updated_at) VALUES($1, $2, $3, 0, $4, $5, ''::bytea, '', $3)"
          " ON CONFLICT (site) DO NOTHING",
          s.site, pqxx::binarystring(s.publicKey.data(), s.publicKey.size()), now, bytea(empty),
          bytea(zero));
      if (inserted.affected_rows() == 1) {
        ++added;
        continue;
      }
      const Bytes stored =
          bytesOf(tx.exec_params1("SELECT public_key FROM ingest_site WHERE site = $1", s.site)[0]);
      if (!std::equal(stored.begin(), stored.end(), s.publicKey.begin(), s.publicKey.end())) {
        return makeError("site " + s.site +
                         " is already registered with another key; a site's key cannot change "
                         "while the store holds its log");
      }
    }
    return added;
  });
}

Result<std::optional<SiteRecord>> PostgresIngestStore::loadSite(const std::string& site) {
  const bool lock = open_ && writing_;
  return run([&](pqxx::dbtransaction& tx) -> Result<SiteRow> {
    const pqxx::result r = tx.exec_params(
        std::string(kPgSiteColumns) + " WHERE site = $1" + (lock ? " FOR UPDATE" : ""), site);
    if (r.empty()) return SiteRow{};
    auto rec = siteFrom(r[0]);
    if (!rec) return rec.error();
    return SiteRow{std::move(*rec)};
  });
}

Status PostgresIngestStore::storeSegment(const Segment& seg, const std::vector<Hash32>& leaves,
                                         const VerifiedState& state, const std::string& now) {
  if (leaves.size() != seg.entries.size() || state.size != seg.to) {
    return makeError("ingest store: a segment's leaves or state do not match it");
  }
  return run([&](pqxx::dbtransaction& tx) -> Status {
    const pqxx::result moved = tx.exec_params(
        "UPDATE ingest_site SET size = $1, root = $2, last_leaf = $3, peaks = $4, checkpoint = $5,"
        " updated_at = $6 WHERE site = $7 AND size = $8",
        asInt(state.size), bytea(state.root), bytea(state.lastLeaf), bytea(joinPeaks(state.peaks)),
        state.checkpoint, now, seg.site, asInt(seg.from));
    if (moved.affected_rows() != 1) {
      return makeError("ingest store: site " + seg.site + " is no longer at size " +
                       std::to_string(seg.from) + " (another ingester stored it)");
    }
    const std::string site = tx.quote(seg.site);
    for (std::size_t begin = 0; begin < seg.entries.size(); begin += kEntriesPerInsert) {
      const std::size_t end = std::min(seg.entries.size(), begin + kEntriesPerInsert);
      std::string sql = "INSERT INTO ingest_entry(site, seq, leaf_hash, entry) VALUES";
      for (std::size_t i = begin; i < end; ++i) {
        sql += i == begin ? "(" : ",(";
        sql += site;
        sql += ',';
        sql += std::to_string(seg.from + i);
        sql += ',';
        sql += tx.quote_raw(leaves[i].data(), leaves[i].size());
        sql += ',';
        sql += tx.quote(seg.entries[i]);
        sql += ')';
      }
      tx.exec(sql);
    }
    // An empty segment re-publishes the checkpoint of a size already stored: keep the first.
    tx.exec_params(
        "INSERT INTO ingest_checkpoint(site, size, root, peaks, note, verified_at)"
        " VALUES($1, $2, $3, $4, $5, $6) ON CONFLICT (site, size) DO NOTHING",
        seg.site, asInt(state.size), bytea(state.root), bytea(joinPeaks(state.peaks)),
        state.checkpoint, now);
    return Status::success();
  });
}

Result<std::int64_t> PostgresIngestStore::recordEvidence(const NewEvidence& e,
                                                         const std::string& now) {
  const std::string hash = toHex(sha256(asBytes(e.payload)));
  const std::string kind(evidenceKindName(e.kind));
  return run([&](pqxx::dbtransaction& tx) -> Result<std::int64_t> {
    // Absent values travel as '' and become NULL in SQL (one statement for every shape).
    const auto number = [](const std::optional<std::uint64_t>& v) {
      return v ? std::to_string(*v) : std::string();
    };
    const pqxx::row id = tx.exec_params1(
        "INSERT INTO ingest_evidence(site, kind, seg_from, seg_to, payload_sha256,"
        " payload_bytes, detail, payload, ours, first_seen, last_seen, count)"
        " VALUES($1, $2, NULLIF($3, '')::bigint, NULLIF($4, '')::bigint, $5, $6, $7,"
        " CASE WHEN $8 THEN $9::bytea END, NULLIF($10, ''), $11, $11, 1)"
        " ON CONFLICT (site, kind, payload_sha256) DO UPDATE SET"
        " count = ingest_evidence.count + 1, last_seen = EXCLUDED.last_seen RETURNING id",
        utf8Text(e.site), kind, number(e.from), number(e.to), hash, asInt(e.payload.size()),
        utf8Text(e.detail), e.keepPayload, bytea(e.payload), utf8Text(e.ours), now);
    return id[0].as<std::int64_t>();
  });
}

Status PostgresIngestStore::noteAck(const std::string& site, std::uint64_t size, bool duplicate,
                                    const std::string& now) {
  return run([&](pqxx::dbtransaction& tx) -> Status {
    tx.exec_params(
        "INSERT INTO ingest_site_activity(site, duplicates, acked_size, acked_at)"
        " VALUES($1, $2, $3, $4) ON CONFLICT (site) DO UPDATE SET"
        " duplicates = ingest_site_activity.duplicates + EXCLUDED.duplicates,"
        " acked_size = EXCLUDED.acked_size, acked_at = EXCLUDED.acked_at",
        site, duplicate ? 1 : 0, asInt(size), now);
    return Status::success();
  });
}

Result<std::vector<Hash32>> PostgresIngestStore::leafHashes(const std::string& site,
                                                            std::uint64_t from, std::uint64_t to) {
  return run([&](pqxx::dbtransaction& tx) -> Result<std::vector<Hash32>> {
    const pqxx::result r = tx.exec_params(
        "SELECT seq, leaf_hash FROM ingest_entry WHERE site = $1 AND seq >= $2 AND seq < $3"
        " ORDER BY seq",
        site, asInt(from), asInt(to));
    std::vector<Hash32> out;
    out.reserve(r.size());
    for (const pqxx::row& row : r) {
      if (row[0].as<std::uint64_t>() != from + out.size()) break;
      out.push_back(hashOf(bytesOf(row[1])));
    }
    if (out.size() != to - from) {
      return makeError("ingest store: site " + site + " is missing entry " +
                       std::to_string(from + out.size()));
    }
    return out;
  });
}

Result<std::optional<std::pair<std::uint64_t, std::vector<Hash32>>>>
PostgresIngestStore::checkpointAtOrBelow(const std::string& site, std::uint64_t size) {
  using Found = std::optional<std::pair<std::uint64_t, std::vector<Hash32>>>;
  return run([&](pqxx::dbtransaction& tx) -> Result<Found> {
    const pqxx::result r = tx.exec_params(
        "SELECT size, peaks FROM ingest_checkpoint WHERE site = $1 AND size <= $2"
        " ORDER BY size DESC LIMIT 1",
        site, asInt(size));
    if (r.empty()) return Found{};
    auto peaks = splitPeaks(bytesOf(r[0][1]));
    if (!peaks) return peaks.error();
    return Found{std::pair{r[0][0].as<std::uint64_t>(), std::move(*peaks)}};
  });
}

Result<std::vector<SiteRecord>> PostgresIngestStore::sites() {
  return run([&](pqxx::dbtransaction& tx) -> Result<std::vector<SiteRecord>> {
    std::vector<SiteRecord> out;
    for (const pqxx::row& row : tx.exec(std::string(kPgSiteColumns) + " ORDER BY site")) {
      auto rec = siteFrom(row);
      if (!rec) return rec.error();
      out.push_back(std::move(*rec));
    }
    return out;
  });
}

Result<std::vector<std::string>> PostgresIngestStore::entries(const std::string& site,
                                                              std::uint64_t from,
                                                              std::uint64_t to) {
  return run([&](pqxx::dbtransaction& tx) -> Result<std::vector<std::string>> {
    std::vector<std::string> out;
    for (const pqxx::row& row :
         tx.exec_params("SELECT entry FROM ingest_entry WHERE site = $1 AND seq >= $2 AND"
                        " seq < $3 ORDER BY seq",
                        site, asInt(from), asInt(to))) {
      out.push_back(row[0].as<std::string>());
    }
    return out;
  });
}

Result<std::uint64_t> PostgresIngestStore::entryCount(const std::string& site) {
  return run([&](pqxx::dbtransaction& tx) -> Result<std::uint64_t> {
    return tx.exec_params1("SELECT count(*) FROM ingest_entry WHERE site = $1", site)[0]
        .as<std::uint64_t>();
  });
}

Result<std::vector<std::uint64_t>> PostgresIngestStore::checkpointSizes(const std::string& site) {
  return run([&](pqxx::dbtransaction& tx) -> Result<std::vector<std::uint64_t>> {
    std::vector<std::uint64_t> out;
    for (const pqxx::row& row :
         tx.exec_params("SELECT size FROM ingest_checkpoint WHERE site = $1 ORDER BY size", site)) {
      out.push_back(row[0].as<std::uint64_t>());
    }
    return out;
  });
}

Result<std::optional<std::string>> PostgresIngestStore::checkpointNote(const std::string& site,
                                                                       std::uint64_t size) {
  return run([&](pqxx::dbtransaction& tx) -> Result<std::optional<std::string>> {
    const pqxx::result r = tx.exec_params(
        "SELECT note FROM ingest_checkpoint WHERE site = $1 AND size = $2", site, asInt(size));
    if (r.empty()) return std::optional<std::string>{};
    return std::optional{r[0][0].as<std::string>()};
  });
}

Result<std::vector<SiteActivity>> PostgresIngestStore::activity() {
  return run([&](pqxx::dbtransaction& tx) -> Result<std::vector<SiteActivity>> {
    std::vector<SiteActivity> out;
    for (const pqxx::row& row :
         tx.exec("SELECT site, duplicates, acked_size, acked_at FROM ingest_site_activity"
                 " ORDER BY site")) {
      out.push_back(SiteActivity{row[0].as<std::string>(), row[1].as<std::uint64_t>(),
                                 row[2].as<std::uint64_t>(), row[3].as<std::string>()});
    }
    return out;
  });
}

Result<std::vector<EvidenceRecord>> PostgresIngestStore::evidence(const std::string& site) {
  return run([&](pqxx::dbtransaction& tx) -> Result<std::vector<EvidenceRecord>> {
    const std::string sql =
        "SELECT id, site, kind, seg_from, seg_to, payload_sha256, payload_bytes, detail, payload,"
        " ours, first_seen, last_seen, count FROM ingest_evidence" +
        std::string(site.empty() ? "" : " WHERE site = $1") + " ORDER BY id";
    const pqxx::result r = site.empty() ? tx.exec(sql) : tx.exec_params(sql, site);
    std::vector<EvidenceRecord> out;
    for (const pqxx::row& row : r) {
      EvidenceRecord e;
      e.id = row[0].as<std::int64_t>();
      e.site = row[1].as<std::string>();
      e.kind = row[2].as<std::string>();
      if (!row[3].is_null()) e.from = row[3].as<std::uint64_t>();
      if (!row[4].is_null()) e.to = row[4].as<std::uint64_t>();
      e.payloadSha256 = row[5].as<std::string>();
      e.payloadBytes = row[6].as<std::uint64_t>();
      e.detail = row[7].as<std::string>();
      const Bytes payload = bytesOf(row[8]);
      e.payload.assign(payload.begin(), payload.end());
      if (!row[9].is_null()) e.ours = row[9].as<std::string>();
      e.firstSeen = row[10].as<std::string>();
      e.lastSeen = row[11].as<std::string>();
      e.count = row[12].as<std::uint64_t>();
      out.push_back(std::move(e));
    }
    return out;
  });
}

}  // namespace atoms::sync::ingest
