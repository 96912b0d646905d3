#include "daemon/service/store_subsystem.h"

#include <sys/stat.h>

#include "daemon/log/log.h"

namespace atoms {
namespace {

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

}  // namespace

Status StoreSubsystem::start(Poco::Util::Application& app) {
  stateDir_ = app.config().getString("state.dir");
  const StateDirPaths paths = resolveStatePaths(stateDir_);
  // A missing directory is reported by SiteStore::open, with what to do about it.
  if (exists(stateDir_)) {
    auto lock = StateDirLock::acquire(stateDir_);
    if (!lock.ok()) return lock.error();
    lock_ = std::move(lock).value();
  }
  Result<std::unique_ptr<SiteStore>> opened = SiteStore::open(paths);
  if (!opened.ok()) {
    lock_.reset();
    return opened.error();
  }
  store_ = std::move(opened).value();
  logInfo(logger_, "opened state directory",
          {{"dir", stateDir_},
           {"site", store_->identity().siteId},
           {"audit_size", store_->log().size()},
           {"db_key", paths.dbKey},
           {"site_key", paths.siteKey}});
  // A key moved into credentials but still lying in the state directory keeps none of the
  // protection the credential was for (e.g. TPM sealing).
  const StateDirPaths own = StateDirPaths::under(stateDir_);
  for (const auto& [used, left] :
       {std::pair{&paths.dbKey, &own.dbKey}, std::pair{&paths.siteKey, &own.siteKey}}) {
    if (*used != *left && exists(*left)) {
      logWarning(logger_, "key comes from a credential but a copy is still in the state directory",
                 {{"credential", *used}, {"copy", *left}});
    }
  }
  return Status::success();
}

void StoreSubsystem::stop() {
  store_.reset();  // closes the database; the signing secret is wiped by SecretBytes
  lock_.reset();
}

}  // namespace atoms
