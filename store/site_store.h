// SiteStore: an opened state directory together with its audit log, the unit the service, the
// subcommands and the tools work on. Owns the Database and the AuditLog that points into it, so it
// is handed out behind a unique_ptr and never moves.
//
// Threading: single writer (the engine thread, or the one thread of a subcommand).
// Errors: one line each, from openStateDir() or AuditLog::open().
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "base/file_system.h"
#include "base/result.h"
#include "store/audit_log.h"
#include "store/signed_note.h"
#include "store/state_dir.h"

namespace atoms {

class SiteStore {
 public:
  // Opens DIR read-write (applying pending migrations) and loads its audit log, with the keys in
  // DIR (StateDirPaths::under). Callers that honour systemd credentials pass
  // resolveStatePaths(dir) to the overload instead.
  // `fs` is what the key files and the high-water file are read and written through (a test may
  // pass a faulty one, which must then outlive the SiteStore).
  static Result<std::unique_ptr<SiteStore>> open(const std::string& dir,
                                                 FileSystem& fs = posixFileSystem());
  // The same with the key files where `paths` says; the high-water file is in paths.dir.
  static Result<std::unique_ptr<SiteStore>> open(const StateDirPaths& paths,
                                                 FileSystem& fs = posixFileSystem());

  SiteStore(const SiteStore&) = delete;
  SiteStore& operator=(const SiteStore&) = delete;

  Database& db() { return state_.db; }
  AuditLog& log() { return *log_; }
  const SiteIdentity& identity() const { return state_.identity; }
  VerifierKey verifierKey() const { return log_->verifierKey(); }

 private:
  explicit SiteStore(OpenState state) : state_(std::move(state)) {}

  OpenState state_;
  std::optional<AuditLog> log_;
};

// DIR/audit.highwater: the largest checkpoint that ever left the box (see AuditLog).
std::string highWaterPath(const std::string& dir);

// The site's signing key, named by its checkpoint origin ("atoms-edge/<site-id>").
Result<SigningKey> siteSigningKey(const SiteIdentity& identity);

}  // namespace atoms
