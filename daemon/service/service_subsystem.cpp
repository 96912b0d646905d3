#include "daemon/service/service_subsystem.h"

#include <Poco/Exception.h>

namespace atoms {

Status ServiceSubsystem::startService(Poco::Util::Application& app) {
  if (started_) return Status::success();
  Status status = start(app);
  started_ = status.ok();
  return status;
}

void ServiceSubsystem::stopService() {
  if (!started_) return;
  started_ = false;
  stop();
}

void ServiceSubsystem::initialize(Poco::Util::Application& app) {
  Status status = startService(app);
  if (!status.ok()) throw Poco::RuntimeException(status.message());
}

void ServiceSubsystem::uninitialize() { stopService(); }

}  // namespace atoms
