#include "daemon/service/edge_services.h"

#include "daemon/log/log.h"
#include "daemon/service/api_subsystem.h"
#include "daemon/service/callout_config.h"
#include "daemon/service/config_schema.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/panel_subsystem.h"
#include "daemon/service/policy_subsystem.h"
#include "daemon/service/pos_subsystem.h"
#include "daemon/service/sms_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "daemon/service/sync_subsystem.h"
#include "daemon/service/terminal_subsystem.h"
#include "daemon/service/watchdog_subsystem.h"
#include "domain/forecast/proposal_desk.h"

namespace atoms {

EdgeServices::EdgeServices(Poco::Util::Application& app, Clock& clock)
    : app_(app), logger_(Poco::Logger::get("service")) {
  store_ = &add<StoreSubsystem>(Poco::Logger::get("store"));
  engine_ = &add<EngineSubsystem>(Poco::Logger::get("engine"), clock);
  policy_ = &add<PolicySubsystem>(Poco::Logger::get("policy"), *store_, *engine_);
  sms_ = &add<SmsSubsystem>(Poco::Logger::get("sms"), *store_, *engine_);
  readiness_ = std::make_unique<ReadinessProbe>(*store_, *engine_, *policy_);
  const drivers::ReadinessCheck readiness = [this] { return readiness_->check(); };
  sms_->setReadiness(readiness);
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
        api_->setApprovals((*processor)->approvals());  // the API stops before SMS does
        api_->setRequests((*processor)->requests());
        api_->setProposals((*processor)->proposals());
        if (forecast::ProposalDesk* proposals = (*processor)->proposals()) {
          Poco::Logger* posLogger = &Poco::Logger::get("pos");
          pos_->setProposalAnnounce([proposals, posLogger](const forecast::IntradayProposal& p) {
            auto told = proposals->announce(p);
            if (!told) {
              logWarning(*posLogger, "the general manager could not be told of a proposal",
                         {{"proposal", std::to_string(p.id)}, {"error", told.message()}});
            }
          });
        }
        api_->setSafety((*processor)->safety(), (*processor)->checklists());
        sms_site::ConversationProcessor* live = processor->get();
        api_->setScheduling(&live->outreach(), [live] { live->siteShiftsChanged(); });
        return std::move(*processor);
      });
  terminal_ = &add<TerminalSubsystem>(Poco::Logger::get("terminal"), *store_, *engine_);
  terminal_->setReadiness(readiness);
  terminal_->setBreakerReports([this](BreakerReport r) { policy_->reportBreaker(std::move(r)); });
  pos_ = &add<PosSubsystem>(Poco::Logger::get("pos"), *store_, *engine_);
  pos_->setReadiness(readiness);
  pos_->setBreakerReports([this](BreakerReport r) { policy_->reportBreaker(std::move(r)); });
  api_ = &add<ApiSubsystem>(Poco::Logger::get("api"), *store_, *engine_);
  api_->setPolicy(policy_);
  api_->setPos(pos_);
  api_->setReadiness(readiness);
  panel_ = &add<PanelSubsystem>(Poco::Logger::get("panel"), *store_);
  panel_->setReadiness(readiness);
  panel_->setAccounts(*engine_, *sms_);  // started after both, stopped before
  panel_->setResources(*api_);
  sync_ = &add<SyncSubsystem>(Poco::Logger::get("sync"), *store_, *engine_, *policy_);
  // Last: it starts once everything it watches runs, and stops first (docs/watchdog.md).
  watchdog_ = &add<WatchdogSubsystem>(Poco::Logger::get("watchdog"), *store_, *engine_, *sms_);
}

sms_site::CalloutOptions EdgeServices::calloutOptions() {
  sms_site::CalloutOptions options = readCalloutConfig(app_.config());
  PolicySubsystem* policy = policy_;
  options.gate = [policy](const policy::ProposedAction& action) {
    return policy->gate().decide(action, policy->state());
  };
  options.trust.decision = [policy](AuditLog::Batch& batch, TimePoint at,
                                    const policy::ProposedAction& action) {
    policy->recordDecision(batch, at, action);
  };
  options.trust.proposal =
      [policy](AuditLog::Batch& batch, TimePoint at, std::string_view kind, bool approved,
               std::optional<policy::OverrideReason> overrideReason, std::string_view ref) {
        policy->recordProposalOutcome(batch, at, kind, approved, overrideReason, ref);
      };
  options.trust.shadow = [policy](AuditLog::Batch& batch, TimePoint at, std::string_view kind,
                                  bool agreed, std::string_view ref) {
    policy->recordShadowOutcome(batch, at, kind, agreed, ref);
  };
  options.trust.verification = [policy](AuditLog::Batch& batch, TimePoint at, std::string_view kind,
                                        policy::TrustOutcome outcome, std::string_view ref) {
    policy->recordVerification(batch, at, kind, outcome, ref);
  };
  // Seed 001 section 8: a labor-rule violation reaching Act opens BRK-SCH and is a SEV2.
  options.violationAtAct = [policy](AuditLog::Batch& batch, TimePoint at, const std::string& ref) {
    policy->recordViolationAtAct(batch, at, "shift.assign", ref);
  };
  return options;
}

Status EdgeServices::start() {
  for (ServiceSubsystem* service : services_) {
    logInfo(logger_, std::string("starting ") + service->name());
    if (Status status = service->startService(app_); !status.ok()) {
      failed_ = service->name();
      stop();
      return status;
    }
  }
  readiness_->setServing(true);
  return Status::success();
}

void EdgeServices::stop() {
  readiness_->setServing(false);
  for (auto it = services_.rbegin(); it != services_.rend(); ++it) {
    ServiceSubsystem* service = *it;
    if (!service->started()) continue;
    service->stopService();
    logInfo(logger_, std::string("stopped ") + service->name());
  }
}

}  // namespace atoms
