#include "daemon/service/policy_subsystem.h"

#include <map>
#include <set>
#include <string>
#include <utility>

#include "base/writer_call.h"
#include "daemon/log/log.h"
#include "daemon/service/config_schema.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "domain/policy/shipped_actions.h"
#include "store/state_dir.h"

namespace atoms {

PolicySubsystem::PolicySubsystem(Poco::Logger& logger, StoreSubsystem& store,
                                 EngineSubsystem& engine)
    : logger_(logger), store_(store), engine_(engine) {}

PolicySubsystem::~PolicySubsystem() = default;

Status PolicySubsystem::start(Poco::Util::Application& app) {
  auto table = policy::shippedActionTable();
  if (!table) return makeError("policy: " + table.message());
  gate_ = std::make_unique<policy::PolicyGate>(std::move(*table));
  std::map<std::string, policy::Graduation> ceilings;
  for (const std::string& function : gate_->table().functions()) {
    ceilings[function] =
        policy::ceilingFromSetting(configString(app.config(), "policy.graduation." + function));
  }
  Poco::Logger& logger = logger_;
  auto opened = callOnWriter(engine_.engine(), [&]() -> Status {
    SiteStore& store = store_.store();
    auto service = policy::PolicyService::open(policy::PolicyService::Deps{
        store.log(), store.db(), gate_->table(), engine_.clock(), std::move(ceilings),
        [&logger](policy::PolicyLogLevel level, const std::string& msg,
                  const policy::PolicyLogFields& fields) {
          logEvent(logger, pocoPriority(level), msg, fields);
        },
        [this](const std::string& breaker, const std::string& signal, const std::string& actor) {
          reportBreaker({BreakerReport::Kind::kSignal, breaker, signal, actor});
        }});
    if (!service) return service.error();
    service_ = std::move(*service);
    eligibilityTimer_ =
        std::make_unique<DeadlineTimer>(engine_.engine(), [this] { eligibilityDue(); });
    eligibilityTimer_->setAt(engine_.clock().now());
    return Status::success();
  });
  if (!opened) return makeError("policy: the engine is not running");
  if (!*opened) return makeError("policy: " + opened->message());
  const auto interval =
      parseConfigInteger(configString(app.config(), "policy.integrity_check_interval_s"));
  if (!interval) return makeError("policy.integrity_check_interval_s: not an integer");
  auto watched = callOnWriter(engine_.engine(), [this] {
    SiteStore& store = store_.store();
    return std::pair{store.log().verifierKey(), store.identity().siteId};
  });
  if (!watched) return makeError("policy: the engine is not running");
  Engine& engine = engine_.engine();
  integrity_ = std::make_unique<policy::IntegrityWatch>(
      policy::IntegrityWatchOptions{resolveStatePaths(store_.stateDir()), watched->first,
                                    watched->second, std::chrono::seconds(*interval)},
      policy::IntegrityCallbacks{
          [this, &engine](const VerifyReport& report) {
            engine.post([this, report] {
              if (service_) service_->integrityFailed(report);  // else stopping
            });
          },
          [&logger](const VerifyReport& report) {
            logDebug(logger, "audit log verified",
                     {{"entries", std::to_string(report.entries)},
                      {"checkpoints", std::to_string(report.checkpoints)},
                      {"receipts", std::to_string(report.receipts)}});
          },
          [&logger](const std::string& why) {
            logWarning(logger, "could not verify the audit log this time", {{"error", why}});
          }});
  const std::vector<std::string> connections = configuredConnections(app.config());
  auto breakers = callOnWriter(engine_.engine(), [this, &connections]() -> Status {
    policy::PolicyService* service = service_.get();
    auto made = SiteBreakers::create(
        engine_.engine(), store_.store(), logger_, connections,
        [service](AuditLog::Batch& batch, const policy::BreakerEvent& e) {
          return service->recordBreakerTripIn(batch, e.breaker, e.at);
        },
        [service](const policy::BreakerEvent& e) { service->breakerChanged(e); });
    if (!made) return made.error();
    breakers_ = std::move(*made);
    service->attachBreakers(&breakers_->board());
    return Status::success();
  });
  if (!breakers) return makeError("policy: the engine is not running");
  if (!*breakers) return makeError("policy: cannot load the breakers: " + breakers->message());
  for (const std::string& id : callOnWriter(engine_.engine(), [this] {
                                 return breakers_->board().openBreakers();
                               }).value_or(std::set<std::string>{})) {
    logWarning(logger_, "breaker is not closed", {{"breaker", id}});
  }
  integrity_->start();  // last: a start that fails leaves no thread running
  return Status::success();
}

void PolicySubsystem::stop() {
  if (integrity_) integrity_->stop();  // no report is posted after this
  (void)callOnWriter(engine_.engine(), [this] {
    if (service_) service_->attachBreakers(nullptr);
    if (breakers_) breakers_->stop();
    breakers_.reset();
    eligibilityTimer_.reset();
    service_.reset();  // a report posted before the watch stopped finds none
    return true;
  });
  integrity_.reset();
  gate_.reset();
}

void PolicySubsystem::reportBreaker(BreakerReport report) {
  if (breakers_) breakers_->report(std::move(report));
}

void PolicySubsystem::eligibilityDue() {
  if (!service_) return;  // stopping
  eligibilityTimer_->setAt(service_->eligibilityDue());
}

int PolicySubsystem::addListener(LevelListener listener) {
  auto added = callOnWriter(engine_.engine(), [this, &listener] {
    return service_ ? service_->addListener(std::move(listener)) : 0;
  });
  return added.value_or(0);
}

void PolicySubsystem::removeListener(int id) {
  (void)callOnWriter(engine_.engine(), [this, id] {
    if (service_) service_->removeListener(id);
    return true;
  });
}

}  // namespace atoms
