#include "daemon/service/store_subsystem.h"

#include "daemon/log/log.h"

namespace atoms {

Status StoreSubsystem::start(Poco::Util::Application& app) {
  stateDir_ = app.config().getString("state.dir");
  Result<std::unique_ptr<SiteStore>> opened = SiteStore::open(stateDir_);
  if (!opened.ok()) return opened.error();
  store_ = std::move(opened).value();
  logInfo(logger_, "opened state directory",
          {{"dir", stateDir_},
           {"site", store_->identity().siteId},
           {"audit_size", store_->log().size()}});
  return Status::success();
}

void StoreSubsystem::stop() {
  store_.reset();  // closes the database; the signing secret is wiped by SecretBytes
}

}  // namespace atoms
