// The PostgreSQL ingest store's schema (docs/sync-ingest.md section 8): the embedded store's tables
// (ingest_schema.h) in PostgreSQL's types, with the rules that keep the evidence written into
// the database as constraints, and a version table. Migrations are append-only, as everywhere.
#pragma once

#include <span>
#include <string_view>

namespace atoms::sync::ingest {

struct PostgresMigration {
  int version;
  std::string_view name;
  std::string_view sql;
};

std::span<const PostgresMigration> postgresIngestMigrations();
int postgresIngestSchemaVersion();

// The advisory lock key under which a worker applies migrations (any constant nobody else uses).
inline constexpr long long kPostgresMigrationLock = 0x61746f6d73696e67;  // "atomsing"

}  // namespace atoms::sync::ingest
