// The state directory (default /var/lib/atoms-edge): everything that makes a box this site.
//
//   DIR/db.key    database key      (key file, kind "database", mode 0600)
//   DIR/site.key  site signing key  (key file, kind "site-ed25519", mode 0600)
//   DIR/atoms.db  SQLCipher database (mode 0600; atoms.db-wal / atoms.db-shm beside it while open)
//
// initStateDir creates it (`atoms-edge init`); openStateDir opens it at every start. Both are
// thread-safe in the sense that they share no state; the returned Database follows database.h.
// Their file access, except the database's (SQLite's VFS), goes through `fs`: the POSIX file
// system unless a test passes a faulty one (base/file_system.h).
// Operator documentation: docs/store.md.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/file_system.h"
#include "base/result.h"
#include "base/secret.h"
#include "store/database.h"

namespace atoms {

struct SiteIdentity {
  std::string siteId;                        // validated, see validateSiteId
  SecretBytes signingSecret;                 // 64-byte libsodium Ed25519 secret key (seed || pk)
  std::array<std::uint8_t, 32> publicKey{};  // the key the cloud pins for this site
};

struct StateDirPaths {
  std::string dir, dbKey, siteKey, database;
  // DIR/db.key, DIR/site.key, DIR/atoms.db. A caller may then point dbKey/siteKey elsewhere, e.g.
  // at systemd credentials ($CREDENTIALS_DIRECTORY/db.key), and use the StateDirPaths overload.
  static StateDirPaths under(const std::string& dir);
};

// The environment variable through which systemd hands a service its credentials
// (LoadCredential= / LoadCredentialEncrypted=): a private, read-only directory of files.
inline constexpr const char* kCredentialsDirectoryEnv = "CREDENTIALS_DIRECTORY";

// Where the files of state directory DIR are read from: StateDirPaths::under(dir), except that
// each key file found as a credential (credentialsDir + "/db.key", "/site.key") is read from
// there instead. The database and the audit high-water file always stay in DIR. An unset or empty
// credentialsDir, or a credential that is absent, leaves that key in DIR, so a unit may move one
// key or both. Only looks at the file system (existence); the keys are read and checked by
// openStateDir. Every command that opens an existing state directory, and the service, resolve
// their paths through this one function (docs/store.md, "Keys as systemd credentials").
StateDirPaths resolveStatePaths(const std::string& dir,
                                const std::optional<std::string>& credentialsDir);
// Same, with credentialsDir taken from $CREDENTIALS_DIRECTORY of this process.
StateDirPaths resolveStatePaths(const std::string& dir);

struct InitOptions {
  std::string siteId;
};

// Site ids go into MQTT topics and the checkpoint origin: 1-64 characters of [a-z0-9-], not
// starting with '-'. Returns a one-line error naming the offending id otherwise.
Status validateSiteId(std::string_view siteId);

// Creates DIR (mode 0700, with missing parents) if needed, a random database key and an Ed25519
// site key (written as key files), the database with storeMigrations() applied, and the meta rows
// site.id and site.public_key (lowercase hex). Refuses, changing nothing, when DIR already holds
// any of the three files or a leftover atoms.db-wal / -shm ("DIR already holds a database; refusing
// to overwrite"). If a step fails, everything this call created is removed again (nothing that
// existed before), so the call can simply be retried.
Status initStateDir(const std::string& dir, const InitOptions& options,
                    FileSystem& fs = posixFileSystem());

struct OpenState {
  Database db;
  SiteIdentity identity;
};

// Opens an initialised state directory. mode must be ReadWrite (pending migrations are applied) or
// ReadOnly (pending migrations are an error: the writer migrates). Errors, one line each: DIR
// missing (suggests `atoms-edge init --state-dir DIR`), a key file missing/invalid (readKeyFile),
// the database missing or not opening with db.key, a schema newer than this binary, no site
// identity in the database, or "site.key does not belong to this database".
Result<OpenState> openStateDir(const std::string& dir, OpenMode mode,
                               FileSystem& fs = posixFileSystem());
Result<OpenState> openStateDir(const StateDirPaths& paths, OpenMode mode,
                               FileSystem& fs = posixFileSystem());

}  // namespace atoms
