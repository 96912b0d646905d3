#include "store/restore.h"

#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <optional>

#include "base/file_io.h"
#include "store/checkpoint.h"
#include "store/key_file.h"
#include "store/site_store.h"
#include "store/state_dir_lock.h"

namespace atoms {
namespace {

bool pathExists(const std::string& path) { return posixFileSystem().exists(path); }

// base, or base.1, base.2, ...: the first name nothing is at, so nothing set aside is overwritten.
std::string firstFreeName(const std::string& base) {
  std::string name = base;
  for (int n = 1; pathExists(name) || pathExists(name + "-wal"); ++n) {
    name = base + "." + std::to_string(n);
  }
  return name;
}

// Removes path if it is there (a leftover of an interrupted restore, or the scratch files).
void removeIfThere(const std::string& path) {
  if (pathExists(path)) (void)posixFileSystem().remove(path);
}

void removeStaged(const std::string& staged) {
  for (const char* suffix : {"", "-wal", "-shm"}) removeIfThere(staged + suffix);
}

// rename(2); the caller syncs the directory once all renames are done.
Status renameInDir(const std::string& from, const std::string& to) {
  if (Status s = posixFileSystem().rename(from, to); !s) {
    return makeError("cannot rename " + from + " to " + to + ": " + s.message());
  }
  return Status::success();
}

// The scratch directory the staged copy's log keeps its high-water file in, and its files.
void removeScratch(const std::string& scratch) {
  removeIfThere(highWaterPath(scratch));
  removeIfThere(highWaterPath(scratch) + ".lock");
  if (pathExists(scratch)) (void)posixFileSystem().removeDirectory(scratch);
}

// Copies the file `from` to the new file `to` (mode 0600), fsynced.
Status copyFileDurably(const std::string& from, const std::string& to) {
  FileSystem& fs = posixFileSystem();
  auto in = fs.openForRead(from);
  if (!in) return makeError("cannot read the backup " + from + ": " + in.message());
  auto out = fs.createFile(to, CreateMode::kExclusive, 0600);
  if (!out) return makeError("cannot create " + to + ": " + out.message());
  std::array<std::uint8_t, 64 * 1024> buffer{};
  for (;;) {
    auto n = (*in)->read(buffer);
    if (!n) return makeError("cannot read the backup " + from + ": " + n.message());
    if (*n == 0) break;
    std::string_view chunk(reinterpret_cast<const char*>(buffer.data()), *n);
    if (Status s = (*out)->append(chunk); !s) return s;
  }
  if (Status s = (*out)->sync(); !s) return s;
  return (*out)->close();
}

// What the staged copy's log says against DIR's mark.
struct StagedLog {
  std::uint64_t signedSize = 0;
  std::optional<Checkpoint> mark;    // DIR/audit.highwater; nullopt when there is none
  std::optional<Hash32> rootAtMark;  // the copy's root at the mark's size, when it is that long
};

// Opens the staged copy as serve would (applying pending migrations, loading its log against the
// scratch high-water file in staged.dir, so DIR's own is neither read by the log nor moved) and
// reads DIR's mark with the copy's site key.
Result<StagedLog> loadStaged(const StateDirPaths& staged, const std::string& markPath) {
  auto store = SiteStore::open(staged);
  if (!store) return store.error();
  const AuditLog& log = (*store)->log();
  auto mark = AuditLog::readHighWaterFile(markPath, log.verifierKey());
  if (!mark) return mark.error();
  StagedLog out{log.signedSize(), *mark, std::nullopt};
  if (out.mark && out.mark->size <= log.size()) {
    auto root = log.tree().rootAt(out.mark->size);
    if (!root) return root.error();
    out.rootAtMark = *root;
  }
  return out;
}

// Gives path DIR's owner when we run as root (a restore run by root must leave files the service
// user can open), as `chown --reference=DIR` would.
void takeDirOwner(const std::string& dir, const std::string& path) {
  struct stat st {};
  if (::geteuid() != 0 || ::stat(dir.c_str(), &st) != 0) return;
  if (::lchown(path.c_str(), st.st_uid, st.st_gid) != 0) return;  // best effort; open says more
}

}  // namespace

Result<RestoreReport> restoreDatabase(const std::string& dir, const std::string& from,
                                      const RestoreOptions& options) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return makeError("state directory " + dir + " does not exist", ErrorKind::kNotFound);
  }
  if (!pathExists(from))
    return makeError("backup " + from + " does not exist", ErrorKind::kNotFound);
  auto lock = StateDirLock::acquire(dir);
  if (!lock) return lock.error();

  const StateDirPaths target = resolveStatePaths(dir);
  const StateDirPaths beside = backupKeyPaths(from);
  const bool keysFromBackup = !pathExists(target.dbKey);
  if (keysFromBackup && !pathExists(beside.dbKey)) {
    return makeError("state directory " + dir + " has no db.key and there is none beside the " +
                         "backup (" + beside.dbKey + "); put back the keys saved after init first",
                     ErrorKind::kNotFound);
  }
  StateDirPaths staged = target;
  if (keysFromBackup) {
    staged.dbKey = beside.dbKey;
    staged.siteKey = beside.siteKey;
  }
  staged.database = dir + "/atoms.db.restore";
  // The staged copy's log records its mark in a scratch file: DIR's stays as it is until step 5.
  staged.dir = dir + "/restore.scratch";
  removeScratch(staged.dir);
  removeStaged(staged.database);

  RestoreReport report;
  auto stagedCheck = [&]() -> Status {
    if (Status s = copyFileDurably(from, staged.database); !s) return s;
    if (Status s = posixFileSystem().makeDirectory(staged.dir, 0700); !s) {
      return makeError("cannot create " + staged.dir + ": " + s.message());
    }
    auto log = loadStaged(staged, highWaterPath(dir));
    if (!log) return makeError("backup " + from + ": " + log.message(), log.kind());
    auto summary = checkDatabaseCopy(staged, staged.database);
    if (!summary) return makeError("backup " + from + ": " + summary.message(), summary.kind());
    report.restored = *summary;
    if (!log->mark) return Status::success();
    report.highWaterSize = log->mark->size;
    const bool behind = log->signedSize < log->mark->size;
    if (!behind && log->rootAtMark == log->mark->root) return Status::success();
    report.wentBehind = true;
    if (options.behindHighWater) return Status::success();
    return makeError(
        std::string("refusing to restore: the backup ") +
            (behind ? "is behind" : "disagrees with") +
            " the audit log this box already published (backup signed up to " +
            std::to_string(log->signedSize) + ", " + highWaterPath(dir) + " records " +
            std::to_string(log->mark->size) +
            "); signing from it would fork the published log. Nothing was changed; to restore "
            "anyway, add --behind-high-water (docs/backup.md)",
        ErrorKind::kRefused);
  };
  Status checked = stagedCheck();
  removeScratch(staged.dir);
  if (!checked) {
    removeStaged(staged.database);
    return checked.error();
  }

  // Step 5: from here on DIR changes.
  if (report.wentBehind) {
    report.highWaterSetAside = firstFreeName(highWaterPath(dir) + ".before-restore");
    if (Status s = renameInDir(highWaterPath(dir), report.highWaterSetAside); !s) {
      removeStaged(staged.database);
      return s.error();
    }
  }
  if (pathExists(target.database)) {
    report.databaseSetAside = firstFreeName(target.database + ".before-restore");
    for (const char* suffix : {"", "-wal", "-shm"}) {
      const std::string old = target.database + suffix;
      if (!pathExists(old)) continue;
      if (Status s = renameInDir(old, report.databaseSetAside + suffix); !s) return s.error();
    }
  }
  if (Status s = renameInDir(staged.database, target.database); !s) return s.error();
  takeDirOwner(dir, target.database);
  if (keysFromBackup) {
    const std::string ownDb = StateDirPaths::under(dir).dbKey;
    const std::string ownSite = StateDirPaths::under(dir).siteKey;
    auto db = readKeyFile(beside.dbKey, KeyKind::Database);
    if (!db) return db.error();
    if (Status s = writeKeyFile(ownDb, KeyKind::Database, *db); !s) return s.error();
    auto site = readKeyFile(beside.siteKey, KeyKind::SiteSigning);
    if (!site) return site.error();
    if (!pathExists(ownSite)) {
      if (Status s = writeKeyFile(ownSite, KeyKind::SiteSigning, *site); !s) return s.error();
    }
    takeDirOwner(dir, ownDb);
    takeDirOwner(dir, ownSite);
    report.keysInstalled = true;
  }
  if (Status s = fsyncDirectory(dir); !s) return s.error();

  // Step 6: the directory opens as serve will open it, and records the new mark.
  auto opened = SiteStore::open(resolveStatePaths(dir));
  if (!opened) {
    return makeError("restored " + from + " into " + dir +
                     ", but it does not open: " + opened.message());
  }
  opened = makeError("closed");
  for (const std::string& made :
       {highWaterPath(dir), highWaterPath(dir) + ".lock", stateLockPath(dir)}) {
    takeDirOwner(dir, made);
  }
  return report;
}

}  // namespace atoms
