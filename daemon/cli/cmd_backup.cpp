// `atoms-edge backup`: an encrypted, verified copy of the database, taken while serve runs.
#include <ostream>

#include "base/bytes.h"
#include "daemon/cli/commands.h"
#include "daemon/cli/state_dir_option.h"
#include "store/backup.h"

namespace atoms::cli {
namespace {

int runBackup(const Args& args, Io& io) {
  const std::string to = args.get("to", "");
  if (to.empty()) {
    io.err << "atoms-edge backup: --to FILE is required\n";
    return kExitUsage;
  }
  const BackupOptions options{.withKeys = args.has("with-keys")};
  auto summary = backupDatabase(statePathsOf(args), to, options);
  if (!summary) {
    io.err << "atoms-edge backup: " << summary.message() << "\n";
    return summary.kind() == ErrorKind::kRefused ? kExitConfig : kExitFailure;
  }
  io.out << "backup " << to << ": site " << summary->siteId << ", " << summary->entries
         << " entries, " << summary->checkpoints << " checkpoints verified, signed up to "
         << summary->signedSize << ", root " << toBase64(summary->root) << "\n"
         << "encrypted with this site's db.key: it cannot be read without that key\n";
  if (options.withKeys) {
    const StateDirPaths keys = backupKeyPaths(to);
    io.out << "WARNING: " << keys.dbKey << " and " << keys.siteKey
           << " are the site's keys. Whoever has them and the backup can read every record in it "
              "and sign as this site. Keep them apart from the backup, or delete them once the "
              "site has moved.\n";
  }
  io.out.flush();
  return io.out ? kExitOk : kExitFailure;
}

}  // namespace

Command backupCommand() {
  return Command{
      .name = "backup",
      .summary = "write an encrypted, verified copy of the database (while serve runs)",
      .usage = "atoms-edge backup [--state-dir DIR] --to FILE [--with-keys]",
      .help =
          "Copies the database as it is at one instant, while the service goes on writing:\n"
          "the copy holds every entry committed up to a signed checkpoint and nothing after.\n"
          "It is encrypted with the site's db.key (the keys are not in it), checked (it opens,\n"
          "PRAGMA quick_check, the whole audit log verifies), fsynced and renamed to FILE.\n"
          "Never overwrites FILE. With --with-keys, also writes FILE.db.key and FILE.site.key\n"
          "(mode 0600), for moving the site to a new box: anyone holding them can read the\n"
          "backup and sign as the site. See docs/backup.md.\n",
      .options = {stateDirOption(),
                  {"to", "FILE", "where the backup goes (must not exist)"},
                  {"with-keys", "", "also copy db.key and site.key beside FILE"}},
      .minPositionals = 0,
      .maxPositionals = 0,
      .run = runBackup,
  };
}

}  // namespace atoms::cli
