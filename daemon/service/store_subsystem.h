// StoreSubsystem: opens the state directory (config key state.dir) read-write at start: the keys
// (from systemd credentials when $CREDENTIALS_DIRECTORY holds them: resolveStatePaths in
// store/state_dir.h), the database, the site identity and the audit log (which checks its chain
// tail, its newest checkpoint and the never-sign-smaller high-water mark); closes them at stop.
// First it takes the state directory's lock (store/state_dir_lock.h), held until stop, so that
// `restore` never replaces the database under it; a second serve on the same directory is refused.
// Refuses to start with the store's own one-line error (missing directory, missing or bad key file,
// wrong key, newer schema, a database older than what was already published).
//
// Threading: the Database is single-threaded (store/database.h); once the engine runs, only the
// engine thread may use store().
#pragma once

#include <Poco/Logger.h>

#include <memory>
#include <string>

#include "daemon/service/service_subsystem.h"
#include "store/site_store.h"
#include "store/state_dir_lock.h"

namespace atoms {

class StoreSubsystem final : public ServiceSubsystem {
 public:
  explicit StoreSubsystem(Poco::Logger& logger) : logger_(logger) {}
  const char* name() const override { return "store"; }

  // Precondition: started().
  SiteStore& store() { return *store_; }
  const std::string& stateDir() const { return stateDir_; }

 protected:
  Status start(Poco::Util::Application& app) override;
  void stop() override;

 private:
  Poco::Logger& logger_;
  std::string stateDir_;
  std::unique_ptr<StateDirLock> lock_;
  std::unique_ptr<SiteStore> store_;
};

}  // namespace atoms
