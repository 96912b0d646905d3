#include "store/backup.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cerrno>

#include "base/file_io.h"
#include "store/checkpoint.h"
#include "store/key_file.h"
#include "store/log_verifier.h"
#include "store/signed_note.h"

namespace atoms {
namespace {

// fsync(2) of a file SQLite has closed, so the rename that follows publishes durable content.
Status fsyncFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return makeError("cannot open " + path + " to sync it: " + errnoText(errno));
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) return makeError("cannot sync " + path + ": " + errnoText(err));
  return Status::success();
}

// Copies every page of src's main database into the new database at `path` (created with `key`)
// in one step: one read snapshot of src, however busy its writer is.
Status copyPages(Database& src, const std::string& path, const SecretBytes& key) {
  auto pageSize = src.pageSize();  // the backup API copies pages as they are
  if (!pageSize) return pageSize.error();
  auto dest = Database::open(path, key, OpenMode::Create, *pageSize);
  if (!dest) return dest.error();
  sqlite3_backup* backup = sqlite3_backup_init(dest->handle(), "main", src.handle(), "main");
  if (backup == nullptr) {
    return makeError("cannot start the backup into " + path + ": " +
                     sqlite3_errmsg(dest->handle()));
  }
  const int stepped = sqlite3_backup_step(backup, -1);
  const int finished = sqlite3_backup_finish(backup);
  if (stepped != SQLITE_DONE || finished != SQLITE_OK) {
    return makeError("backup of " + src.path() + " into " + path +
                     " failed: " + sqlite3_errstr(stepped != SQLITE_DONE ? stepped : finished));
  }
  return Status::success();  // closing dest checkpoints its WAL into the file and removes it
}

// Opens the state directory read-only just long enough to copy its database to `path`.
Status snapshotInto(const StateDirPaths& paths, const std::string& path) {
  auto source = openStateDir(paths, OpenMode::ReadOnly);
  if (!source) return source.error();
  auto key = readKeyFile(paths.dbKey, KeyKind::Database);
  if (!key) return key.error();
  return copyPages(source->db, path, *key);
}

void removeQuietly(const std::string& path) { ::unlink(path.c_str()); }

Status copyKeyFile(const std::string& from, const std::string& to, KeyKind kind) {
  auto key = readKeyFile(from, kind);
  if (!key) return key.error();
  return writeKeyFile(to, kind, *key);
}

}  // namespace

StateDirPaths backupKeyPaths(const std::string& backup) {
  return StateDirPaths{directoryOf(backup), backup + ".db.key", backup + ".site.key", backup};
}

Result<BackupSummary> checkDatabaseCopy(const StateDirPaths& keys, const std::string& database) {
  StateDirPaths paths = keys;
  paths.database = database;
  auto state = openStateDir(paths, OpenMode::ReadOnly);
  if (!state) return state.error();
  if (Status s = state->db.quickCheck(); !s) return s.error();
  const SiteIdentity& id = state->identity;
  const VerifierKey key = VerifierKey::fromPublicKey(originForSite(id.siteId), id.publicKey);
  const VerifyReport report = verifyDatabase(state->db, key, id.siteId);
  if (!report.ok()) {
    std::string at = report.firstBadSeq ? " at seq " + std::to_string(*report.firstBadSeq) : "";
    return makeError(database + ": the audit log does not verify" + at + ": " + report.problem,
                     ErrorKind::kInvalid);
  }
  return BackupSummary{id.siteId, report.entries, report.checkpoints, report.entries, report.root};
}

Result<BackupSummary> backupDatabase(const StateDirPaths& paths, const std::string& to,
                                     const BackupOptions& options) {
  const StateDirPaths beside = backupKeyPaths(to);
  for (const std::string* p : {&to, &beside.dbKey, &beside.siteKey}) {
    if (p == &to || options.withKeys) {
      if (::access(p->c_str(), F_OK) == 0) {
        return makeError(*p + " already exists; a backup never overwrites a file",
                         ErrorKind::kRefused);
      }
    }
  }
  const std::string tmp = to + ".tmp";
  removeQuietly(tmp);  // a leftover of an interrupted backup, never a backup itself
  Result<BackupSummary> summary = makeError("not copied");
  Status done = snapshotInto(paths, tmp);
  if (done) {
    summary = checkDatabaseCopy(paths, tmp);
    done = summary ? fsyncFile(tmp) : Status(summary.error());
  }
  if (done) {
    if (::rename(tmp.c_str(), to.c_str()) != 0) {
      done = makeError("cannot rename " + tmp + " to " + to + ": " + errnoText(errno));
    }
  }
  if (!done) {
    removeQuietly(tmp);
    return done.error();
  }
  if (Status s = fsyncDirectory(directoryOf(to)); !s) return s.error();
  if (options.withKeys) {
    if (Status s = copyKeyFile(paths.dbKey, beside.dbKey, KeyKind::Database); !s) return s.error();
    if (Status s = copyKeyFile(paths.siteKey, beside.siteKey, KeyKind::SiteSigning); !s) {
      return s.error();
    }
  }
  return summary;
}

}  // namespace atoms
