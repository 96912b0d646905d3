// Numbered schema migrations, recorded in the database itself.
//
// Contract: versions are positive and strictly increasing in the list; a migration, once shipped,
// keeps its version, name and SQL forever (a later change is a new migration). Each pending
// migration runs in its own BEGIN IMMEDIATE transaction together with its schema_migrations row, so
// a crash leaves the database at a clean version. Not thread-safe (uses the caller's Database).
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "store/database.h"

namespace atoms {

struct Migration {
  int version;
  std::string_view name;
  std::string_view sql;  // one or more statements; SQLite 3.15 (no UPSERT, RETURNING, JSON1)
};

// Applies the missing migrations in order, recording each in
//   schema_migrations(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)
// (applied_at is SQLite's own UTC time, YYYY-MM-DDTHH:MM:SS.mmmZ). Errors: the database records a
// version newer than the list knows ("database schema version 7 is newer than this atoms-edge
// (5)"), a recorded name differs from the list's, a recorded version the list does not have, a
// malformed list, or any SQL error (the failing migration is rolled back, earlier ones stay).
// Safe against a concurrent migrator: each version is re-checked inside its transaction. Clears
// the connection's statement cache after each migration it runs (Database::cached).
Status migrate(Database& db, std::span<const Migration> migrations);

// The versions of the list not yet applied, in order, after the same checks as migrate(); works
// on a ReadOnly connection (a database without schema_migrations has everything pending).
Result<std::vector<int>> pendingMigrations(Database& db, std::span<const Migration> migrations);

// The project's schema (version 1 "meta", 2 "audit", ...). Static storage; never changes at run
// time.
std::span<const Migration> storeMigrations();

}  // namespace atoms
