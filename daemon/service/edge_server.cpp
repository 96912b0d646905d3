#include "daemon/service/edge_server.h"

#include <Poco/Logger.h>

#include "daemon/log/log.h"
#include "daemon/service/config_schema.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/policy_subsystem.h"
#include "daemon/service/sms_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "daemon/service/sync_subsystem.h"
#include "daemon/service/terminal_subsystem.h"
#include "daemon/sms/conversation_processor.h"
#include "daemon/version.h"

namespace atoms {

EdgeServer::EdgeServer(Poco::AutoPtr<Poco::Util::AbstractConfiguration> fileConfig,
                       std::string configPath)
    : logger_(Poco::Logger::get("service")), configPath_(std::move(configPath)) {
  // Lower numbers win in a LayeredConfiguration: the file (0) over the defaults (200), which sit
  // below Poco's own system.* layer (PRIO_SYSTEM = 100).
  config().add(fileConfig, "file", PRIO_DEFAULT);
  config().add(configDefaults(serviceConfigSchema()), "defaults", PRIO_SYSTEM + 100);
  addServices();
}

void EdgeServer::addServices() {
  store_ = &addService<StoreSubsystem>(Poco::Logger::get("store"));
  engine_ = &addService<EngineSubsystem>(Poco::Logger::get("engine"));
  policy_ = &addService<PolicySubsystem>(Poco::Logger::get("policy"), *store_, *engine_);
  sms_ = &addService<SmsSubsystem>(Poco::Logger::get("sms"), *store_, *engine_);
  sms_->setPolicy(policy_);
  sms_->setInboundProcessorFactory(
      [this](const SmsMailbox& mailbox) -> std::unique_ptr<InboundProcessor> {
        Poco::Logger& logger = Poco::Logger::get("sms");
        auto processor =
            sms_site::ConversationProcessor::create(mailbox, engine_->engine(), logger);
        if (!processor) {
          logError(logger, "the SMS conversation layer cannot start; inbound texts stay stored",
                   {{"error", processor.message()}});
          return nullptr;
        }
        return std::move(*processor);
      });
  terminal_ = &addService<TerminalSubsystem>(Poco::Logger::get("terminal"), *store_, *engine_);
  addService<SyncSubsystem>(Poco::Logger::get("sync"), *store_, *engine_, *policy_);
}

void EdgeServer::initialize(Poco::Util::Application& self) {
  // Poco's own initialize() would also start its LoggingSubsystem (logging is set up by the
  // caller) and would not undo a partial start, so the services are driven here.
  logInfo(logger_, "starting atoms-edge", {{"version", edgeVersion()}, {"config", configPath_}});
  for (ServiceSubsystem* service : services_) {
    logInfo(logger_, std::string("starting ") + service->name());
    Status status = service->startService(self);
    if (!status.ok()) {
      logFatal(logger_, "refusing to start",
               {{"service", service->name()}, {"error", status.message()}});
      startFailed_ = true;
      stopStarted();
      return;
    }
  }
}

void EdgeServer::uninitialize() { stopStarted(); }

void EdgeServer::stopStarted() {
  for (auto it = services_.rbegin(); it != services_.rend(); ++it) {
    ServiceSubsystem* service = *it;
    if (!service->started()) continue;
    service->stopService();
    logInfo(logger_, std::string("stopped ") + service->name());
  }
}

int EdgeServer::main(const std::vector<std::string>& /*args*/) {
  if (startFailed_) return EXIT_CONFIG;
  logInfo(logger_, "ready", {{"site", store_->store().identity().siteId}});
  waitForTerminationRequest();
  logInfo(logger_, "termination requested");
  return EXIT_OK;
}

}  // namespace atoms
