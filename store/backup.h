// Online backups of a state directory's database (`atoms-edge backup`; docs/backup.md).
//
// backupDatabase copies DIR/atoms.db while the service keeps writing: SQLite's online backup API
// reads one snapshot (a read transaction in WAL mode, which never blocks the writer), so the copy
// holds exactly the entries committed at one instant: a prefix of the log that ends at a signed
// checkpoint, with every domain row committed with it. The copy is encrypted with the same
// db.key (a backup is unreadable without that key), written to TO.tmp, checked (it opens with the
// keys, passes PRAGMA quick_check and verifies end to end like `atoms-edge verify`), fsynced and
// renamed to TO. Keys are never written into the backup; withKeys writes copies of the two key
// files beside it (TO.db.key, TO.site.key, mode 0600) for moving a site to a new box.
//
// Thread-safe in the sense that calls share nothing. Errors: one line each; on any error nothing
// is left at TO (nor TO.tmp, unless removing it failed too).
#pragma once

#include <cstdint>
#include <string>

#include "base/bytes.h"
#include "base/result.h"
#include "store/state_dir.h"

namespace atoms {

struct BackupOptions {
  bool withKeys = false;  // also copy db.key and site.key to TO.db.key and TO.site.key
};

// What a backup or a restore holds, as `verify` would report it.
struct BackupSummary {
  std::string siteId;
  std::uint64_t entries = 0;      // audit entries, all verified
  std::uint64_t checkpoints = 0;  // signed checkpoints, all verified
  std::uint64_t signedSize = 0;   // the newest signed size (== entries)
  Hash32 root{};                  // the Merkle root at signedSize
};

// The key files written beside a backup made withKeys: TO.db.key and TO.site.key.
StateDirPaths backupKeyPaths(const std::string& backup);

// Copies the database of `paths` (keys as resolved there, e.g. from systemd credentials) to `to`.
// Refuses when `to` or one of its key files (withKeys) already exists: a backup never overwrites.
Result<BackupSummary> backupDatabase(const StateDirPaths& paths, const std::string& to,
                                     const BackupOptions& options);

// Opens the database file `database` with the keys of `keys` read-only and checks it the way a
// backup is checked: it opens (right key, not truncated), PRAGMA quick_check passes, its site key
// belongs to it and its audit log verifies. Errors name `database`.
Result<BackupSummary> checkDatabaseCopy(const StateDirPaths& keys, const std::string& database);

}  // namespace atoms
