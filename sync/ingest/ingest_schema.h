// The schema of the cloud ingest store (DIR/ingest.db), kept apart from the box's schema
// (store/migrations.cpp): the two databases never share a file, and their versions move
// independently (docs/decisions/0007-ingest-store.md). Applied with store/migrations.h's
// migrate(), which records each version in schema_migrations.
//
// Tables (SQLite 3.15: no UPSERT, RETURNING or JSON1):
//   ingest_site        one row per registered site: its Ed25519 public key and the verified state
//                      (size, root, last leaf, frontier peaks, checkpoint note)
//   ingest_entry       the verified entries, once each: PRIMARY KEY (site, seq)
//   ingest_checkpoint  every checkpoint accepted (size, root, peaks, note): roots at old sizes
//   ingest_evidence    forks, gaps, invalid segments, unknown sites; one row per distinct payload
#pragma once

#include <span>

#include "store/migrations.h"

namespace atoms::sync::ingest {

// Static storage; append only, like the box's list.
std::span<const Migration> ingestMigrations();

// The newest version in ingestMigrations().
int ingestSchemaVersion();

}  // namespace atoms::sync::ingest
