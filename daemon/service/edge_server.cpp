#include "daemon/service/edge_server.h"

#include <Poco/Logger.h>

#include <algorithm>

#include "daemon/log/log.h"
#include "daemon/service/config_schema.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "daemon/service/watchdog_subsystem.h"
#include "daemon/update/health_mark.h"
#include "daemon/version.h"
#include "store/migrations.h"

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
  tellSystemd("STATUS=starting");
  if (Status status = services_->start(); !status.ok()) {
    logFatal(logger_, "refusing to start",
             {{"service", services_->failedService()}, {"error", status.message()}});
    tellSystemd("STATUS=refusing to start: " + services_->failedService() + ": " +
                status.message());
    startFailed_ = true;
    return;
  }
  tellSystemd("READY=1\nSTATUS=serving site " + services_->store().store().identity().siteId);
  // The health mark an update waits for (docs/update.md): written only once every service runs.
  const std::string stateDir = config().getString("state.dir");
  if (Status marked =
          update::writeHealthMark(stateDir, edgeVersion(), storeMigrations().back().version);
      !marked) {
    logWarning(logger_, "cannot write the health mark", {{"error", marked.message()}});
  }
  if (auto interval = systemd_.watchdogInterval()) {
    // A third of the interval: two pings may be late before systemd gives up on the engine.
    const auto every =
        std::max(std::chrono::milliseconds(1),
                 std::chrono::duration_cast<std::chrono::milliseconds>(*interval / 3));
    services_->engine().engine().post([this, every] { pingWatchdog(every); });
  }
}

void EdgeServer::uninitialize() {
  tellSystemd("STOPPING=1\nSTATUS=stopping");
  services_->stop();
}

void EdgeServer::pingWatchdog(std::chrono::milliseconds every) {
  // The engine runs (this is its thread) and the silent-stall watchdog's thread too: both are
  // needed for the box to be well. Without the second, systemd restarts the service.
  if (services_->watchdog().vouches()) {
    tellSystemd("WATCHDOG=1");
    if (watchdogSilent_) logInfo(logger_, "the silent-stall watchdog runs again");
    watchdogSilent_ = false;
  } else if (!watchdogSilent_) {
    watchdogSilent_ = true;
    logError(logger_,
             "the silent-stall watchdog's thread has not run for three of its intervals: "
             "not telling systemd the service is well, so that it restarts it");
  }
  services_->engine().engine().runAfter(every, [this, every] { pingWatchdog(every); });
}

void EdgeServer::tellSystemd(const std::string& message) {
  Status sent = systemd_.send(message);
  if (sent || systemdFailureLogged_.exchange(true)) return;
  logWarning(logger_, "cannot tell systemd how the service is", {{"error", sent.message()}});
}

int EdgeServer::main(const std::vector<std::string>& /*args*/) {
  if (startFailed_) return EXIT_CONFIG;
  logInfo(logger_, "ready", {{"site", services_->store().store().identity().siteId}});
  waitForTerminationRequest();
  logInfo(logger_, "termination requested");
  return EXIT_OK;
}

}  // namespace atoms
