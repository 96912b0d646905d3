#include "daemon/service/engine_subsystem.h"

namespace atoms {

Status EngineSubsystem::start(Poco::Util::Application& /*app*/) {
  engine_ = std::make_unique<Engine>(clock_, logger_);
  engine_->start();
  return Status::success();
}

void EngineSubsystem::stop() {
  engine_->stop();
  engine_.reset();
}

}  // namespace atoms
