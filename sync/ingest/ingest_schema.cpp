#include "sync/ingest/ingest_schema.h"

namespace atoms::sync::ingest {
namespace {

// Append only: a shipped migration never changes. Hashes are 32-byte blobs; peaks are their
// concatenation (largest subtree first); times are audit-entry timestamps (UTC, milliseconds).
constexpr Migration kIngestMigrations[] = {
    {1, "ingest",
     "CREATE TABLE ingest_site(site TEXT PRIMARY KEY, public_key BLOB NOT NULL,"
     " registered_at TEXT NOT NULL, size INTEGER NOT NULL, root BLOB NOT NULL,"
     " last_leaf BLOB NOT NULL, peaks BLOB NOT NULL, checkpoint TEXT NOT NULL,"
     " updated_at TEXT NOT NULL);"
     "CREATE TABLE ingest_entry(site TEXT NOT NULL REFERENCES ingest_site(site),"
     " seq INTEGER NOT NULL, leaf_hash BLOB NOT NULL, entry TEXT NOT NULL,"
     " PRIMARY KEY(site, seq)) WITHOUT ROWID;"
     "CREATE TABLE ingest_checkpoint(site TEXT NOT NULL REFERENCES ingest_site(site),"
     " size INTEGER NOT NULL, root BLOB NOT NULL, peaks BLOB NOT NULL, note TEXT NOT NULL,"
     " verified_at TEXT NOT NULL, PRIMARY KEY(site, size)) WITHOUT ROWID;"
     "CREATE TABLE ingest_evidence(id INTEGER PRIMARY KEY, site TEXT NOT NULL,"
     " kind TEXT NOT NULL CHECK(kind IN ('fork','gap','invalid','unknown-site')),"
     " seg_from INTEGER, seg_to INTEGER, payload_sha256 TEXT NOT NULL,"
     " payload_bytes INTEGER NOT NULL, detail TEXT NOT NULL, payload TEXT, ours TEXT,"
     " first_seen TEXT NOT NULL, last_seen TEXT NOT NULL, count INTEGER NOT NULL,"
     " UNIQUE(site, kind, payload_sha256));"},
    // What the operator report needs beyond the evidence: duplicates acked again and the last ack
    // decided (published after the commit), per site.
    {2, "ingest activity",
     "CREATE TABLE ingest_site_activity(site TEXT PRIMARY KEY REFERENCES ingest_site(site),"
     " duplicates INTEGER NOT NULL, acked_size INTEGER NOT NULL, acked_at TEXT NOT NULL)"
     " WITHOUT ROWID;"},
};

}  // namespace

std::span<const Migration> ingestMigrations() { return kIngestMigrations; }

int ingestSchemaVersion() { return std::span<const Migration>(kIngestMigrations).back().version; }

}  // namespace atoms::sync::ingest
