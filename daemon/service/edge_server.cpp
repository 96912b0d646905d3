#include "daemon/service/edge_server.h"

#include <Poco/Logger.h>

#include "daemon/log/log.h"
#include "daemon/service/config_schema.h"
#include "daemon/service/store_subsystem.h"
#include "daemon/version.h"

namespace atoms {

EdgeServer::EdgeServer(Poco::AutoPtr<Poco::Util::AbstractConfiguration> fileConfig,
                       std::string configPath)
    : logger_(Poco::Logger::get("service")), configPath_(std::move(configPath)) {
  // Lower numbers win in a LayeredConfiguration: the file (0) over the defaults (200), which sit
  // below Poco's own system.* layer (PRIO_SYSTEM = 100).
  config().add(fileConfig, "file", PRIO_DEFAULT);
  config().add(configDefaults(serviceConfigSchema()), "defaults", PRIO_SYSTEM + 100);
  services_ = std::make_unique<EdgeServices>(*this, clock_);
}

void EdgeServer::initialize(Poco::Util::Application& /*self*/) {
  // Poco's own initialize() would also start its LoggingSubsystem (logging is set up by the
  // caller) and would not undo a partial start, so the services are driven here.
  logInfo(logger_, "starting atoms-edge", {{"version", edgeVersion()}, {"config", configPath_}});
  if (Status status = services_->start(); !status.ok()) {
    logFatal(logger_, "refusing to start",
             {{"service", services_->failedService()}, {"error", status.message()}});
    startFailed_ = true;
  }
}

void EdgeServer::uninitialize() { services_->stop(); }

int EdgeServer::main(const std::vector<std::string>& /*args*/) {
  if (startFailed_) return EXIT_CONFIG;
  logInfo(logger_, "ready", {{"site", services_->store().store().identity().siteId}});
  waitForTerminationRequest();
  logInfo(logger_, "termination requested");
  return EXIT_OK;
}

}  // namespace atoms
