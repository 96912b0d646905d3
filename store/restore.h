// Restoring a backup into a state directory (`atoms-edge restore`; docs/backup.md).
//
// restoreDatabase puts the backup FROM (made by backupDatabase, store/backup.h) in place of
// DIR/atoms.db, in this order, changing nothing in DIR until every check has passed:
//  1. takes DIR's lock (store/state_dir_lock.h): refused while `serve` runs on DIR;
//  2. picks the keys: DIR's own (or systemd credentials'), or, when DIR has no db.key, the key
//     files beside the backup (FROM.db.key, FROM.site.key, from `backup --with-keys`);
//  3. copies FROM to DIR/atoms.db.restore (fsynced), applies pending migrations, runs PRAGMA
//     quick_check and verifies its audit log end to end: a wrong key, a damaged or truncated file,
//     a site key of another site or a broken chain is an error;
//  4. compares it with DIR/audit.highwater, the largest checkpoint that ever left this box: a
//     backup signed up to a smaller size (or disagreeing with that checkpoint) is refused, since
//     signing from there would fork the log the cloud holds, unless behindHighWater is set; then
//     the old high-water file is kept as audit.highwater.before-restore[.N] for the record;
//  5. moves the current atoms.db (with any -wal/-shm) aside to atoms.db.before-restore[.N], renames
//     the staged copy to atoms.db, fsyncs DIR, writes the keys it took from beside the backup;
//  6. opens DIR as `serve` will (SiteStore::open), which records the new high-water mark.
// Run as root, the files it makes get DIR's owner. Errors: one line each; before step 5 DIR is as
// it was (the staged copy removed).
#pragma once

#include <cstdint>
#include <string>

#include "base/result.h"
#include "store/backup.h"

namespace atoms {

struct RestoreOptions {
  // The operator accepts restoring behind the published log (docs/backup.md says what follows).
  bool behindHighWater = false;
};

struct RestoreReport {
  BackupSummary restored;
  std::uint64_t highWaterSize = 0;  // what DIR/audit.highwater recorded before; 0: no file
  bool wentBehind = false;          // restored behind that mark (behindHighWater was needed)
  std::string databaseSetAside;     // where the replaced atoms.db went; empty: there was none
  std::string highWaterSetAside;    // where the old audit.highwater went when wentBehind
  bool keysInstalled = false;       // DIR's keys were written from the files beside the backup
};

Result<RestoreReport> restoreDatabase(const std::string& dir, const std::string& from,
                                      const RestoreOptions& options);

}  // namespace atoms
