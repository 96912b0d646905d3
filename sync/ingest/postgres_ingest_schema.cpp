#include "sync/ingest/postgres_ingest_schema.h"

namespace atoms::sync::ingest {
namespace {

// Hashes are 32-byte bytea; peaks their concatenation (largest subtree first); times are
// audit-entry timestamps (UTC, milliseconds) as text, as in the embedded store.
constexpr PostgresMigration kPostgresMigrations[] = {
    {1, "ingest",
     "CREATE TABLE ingest_site(site TEXT PRIMARY KEY,"
     " public_key BYTEA NOT NULL CHECK(octet_length(public_key) = 32),"
     " registered_at TEXT NOT NULL, size BIGINT NOT NULL CHECK(size >= 0),"
     " root BYTEA NOT NULL CHECK(octet_length(root) = 32),"
     " last_leaf BYTEA NOT NULL CHECK(octet_length(last_leaf) = 32),"
     " peaks BYTEA NOT NULL CHECK(octet_length(peaks) % 32 = 0), checkpoint TEXT NOT NULL,"
     " updated_at TEXT NOT NULL);"
     "CREATE TABLE ingest_entry(site TEXT NOT NULL REFERENCES ingest_site(site),"
     " seq BIGINT NOT NULL CHECK(seq >= 0),"
     " leaf_hash BYTEA NOT NULL CHECK(octet_length(leaf_hash) = 32), entry TEXT NOT NULL,"
     " PRIMARY KEY(site, seq));"
     "CREATE TABLE ingest_checkpoint(site TEXT NOT NULL REFERENCES ingest_site(site),"
     " size BIGINT NOT NULL CHECK(size >= 0), root BYTEA NOT NULL CHECK(octet_length(root) = 32),"
     " peaks BYTEA NOT NULL CHECK(octet_length(peaks) % 32 = 0), note TEXT NOT NULL,"
     " verified_at TEXT NOT NULL, PRIMARY KEY(site, size));"
     "CREATE TABLE ingest_evidence(id BIGSERIAL PRIMARY KEY, site TEXT NOT NULL,"
     " kind TEXT NOT NULL CHECK(kind IN ('fork','gap','invalid','unknown-site')),"
     " seg_from BIGINT, seg_to BIGINT, payload_sha256 TEXT NOT NULL,"
     " payload_bytes BIGINT NOT NULL, detail TEXT NOT NULL, payload BYTEA, ours TEXT,"
     " first_seen TEXT NOT NULL, last_seen TEXT NOT NULL, count BIGINT NOT NULL,"
     " UNIQUE(site, kind, payload_sha256));"
     "CREATE TABLE ingest_site_activity(site TEXT PRIMARY KEY REFERENCES ingest_site(site),"
     " duplicates BIGINT NOT NULL, acked_size BIGINT NOT NULL, acked_at TEXT NOT NULL);"},
};

}  // namespace

std::span<const PostgresMigration> postgresIngestMigrations() { return kPostgresMigrations; }

int postgresIngestSchemaVersion() {
  return std::span<const PostgresMigration>(kPostgresMigrations).back().version;
}

}  // namespace atoms::sync::ingest
