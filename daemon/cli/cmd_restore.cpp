// `atoms-edge restore`: puts a backup back, never behind the published audit log unless told.
#include <ostream>

#include "base/bytes.h"
#include "daemon/cli/commands.h"
#include "daemon/cli/state_dir_option.h"
#include "store/restore.h"

namespace atoms::cli {
namespace {

int runRestore(const Args& args, Io& io) {
  const std::string from = args.get("from", "");
  if (from.empty()) {
    io.err << "atoms-edge restore: --from FILE is required\n";
    return kExitUsage;
  }
  const std::string dir = stateDirOf(args);
  auto report = restoreDatabase(dir, from, {.behindHighWater = args.has("behind-high-water")});
  if (!report) {
    io.err << "atoms-edge restore: " << report.message() << "\n";
    return report.kind() == ErrorKind::kRefused ? kExitConfig : kExitFailure;
  }
  const BackupSummary& r = report->restored;
  io.out << "restored " << from << " into " << dir << ": site " << r.siteId << ", " << r.entries
         << " entries, " << r.checkpoints << " checkpoints verified, signed up to " << r.signedSize
         << ", root " << toBase64(r.root) << "\n";
  if (!report->databaseSetAside.empty()) {
    io.out << "the database it replaced is kept as " << report->databaseSetAside
           << " (remove it once the restored box runs)\n";
  }
  if (report->keysInstalled) io.out << "keys installed from beside the backup\n";
  if (report->wentBehind) {
    io.out << "WARNING: restored BEHIND the published audit log (this box had published up to "
           << report->highWaterSize << "; the backup is signed up to " << r.signedSize
           << "). The entries after " << r.signedSize
           << " are gone from this box, and what it signs from now on forks the log the cloud "
              "holds: treat this as an incident and reconcile with the cloud before the box "
              "syncs (docs/backup.md). The old mark is kept as "
           << report->highWaterSetAside << ".\n";
  }
  io.out << "start the service: systemctl start atoms-edge\n";
  io.out.flush();
  return io.out ? kExitOk : kExitFailure;
}

}  // namespace

Command restoreCommand() {
  return Command{
      .name = "restore",
      .summary = "put a backup back in place of the database (serve must be stopped)",
      .usage = "atoms-edge restore [--state-dir DIR] --from FILE [--behind-high-water]",
      .help =
          "Checks the backup first (it opens with DIR's keys, or with FILE.db.key and\n"
          "FILE.site.key when DIR has none; PRAGMA quick_check; the whole audit log verifies),\n"
          "then moves the current database aside (atoms.db.before-restore) and puts the\n"
          "backup in its place. Refuses while serve runs on DIR, and refuses a backup behind\n"
          "the checkpoints this box already published (audit.highwater): signing from there\n"
          "would fork the log the cloud holds. --behind-high-water restores it anyway: the\n"
          "entries after the backup are lost on this box and the cloud will see a fork; treat\n"
          "it as an incident. Exit 78 when refused, 1 when the backup is bad. docs/backup.md.\n",
      .options = {stateDirOption(),
                  {"from", "FILE", "the backup to restore"},
                  {"behind-high-water", "",
                   "restore even behind the published audit log (forks it; see the help)"}},
      .minPositionals = 0,
      .maxPositionals = 0,
      .run = runRestore,
  };
}

}  // namespace atoms::cli
