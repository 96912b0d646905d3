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
        const sms_site::CalloutOptions callout = calloutOptions();
        auto processor =
            sms_site::ConversationProcessor::create(mailbox, engine_->engine(), logger, &callout);
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

sms_site::CalloutOptions EdgeServer::calloutOptions() {
  const auto minutes = [this](const char* key) {
    return std::chrono::minutes(parseConfigInteger(config().getString(key)).value_or(1));
  };
  sms_site::CalloutOptions options;
  options.laborDir = config().getString("labor.rules_dir");
  options.settings.waveSize =
      static_cast<int>(parseConfigInteger(config().getString("callout.wave_size")).value_or(3));
  options.settings.waveInterval = minutes("callout.wave_interval_minutes");
  options.settings.escalateAfter = minutes("callout.escalate_after_minutes");
  options.settings.approvalExpiry = minutes("callout.approval_expiry_minutes");
  options.settings.lookahead = std::chrono::hours(
      parseConfigInteger(config().getString("callout.lookahead_hours")).value_or(12));
  options.settings.generalManager = config().getString("callout.general_manager");
  PolicySubsystem* policy = policy_;
  options.gate = [policy](const policy::ProposedAction& action) {
    return policy->gate().decide(action, policy->state());
  };
  return options;
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
