// PolicySubsystem: the policy gate in `atoms-edge serve` (DESIGN.md section 5, issue 7;
// docs/policy-gate.md). The policy itself is domain/policy/: the gate (over the action table built
// into the binary, domain/policy/shipped_actions.h) and the PolicyService (policy_service.h: the
// kill-switch level and its listeners, the state the gate reads, every function's trust budget).
// This is their wiring:
// - at start it reads policy.graduation.<function> (the ceilings, docs/decisions/0010), builds the
//   gate and the service on the engine (which reads and logs the stored kill-switch level), and
//   checks eligibility once and then every PolicyService::kEligibilityCheckEvery on an engine
//   timer;
// - the IntegrityWatch (domain/policy/integrity_watch.h) re-verifies the whole audit log once at
//   start and every policy.integrity_check_interval_s on its own thread; a broken chain is posted
//   to the engine, where the service raises the kill switch to L3;
// - the site's breakers (SiteBreakers: BRK-OUT, BRK-SCH, BRK-CONN-<system>), kept in the store,
//   fed through reportBreaker() from any thread; their trips and changes go to the service, and
//   the service's BRK-SCH signal (a labor-rule violation at Act) comes back through reportBreaker;
// - the service logs through the "policy" logger.
// The rest forwards to the service for the daemon's other parts (the SMS layer, the API, sync,
// the call-out flow's options); each contract is in policy_service.h.
//
// Threading: start/stop and add/removeListener on the main thread; gate() from any thread (it is
// immutable); reportBreaker() from any thread between start and stop; killSwitch(), state(),
// levelMayHaveChanged(), breakers() and the trust methods on the engine thread (which owns the
// store). Must be started after the store and the engine, before the SMS and sync subsystems.
#pragma once

#include <Poco/Logger.h>

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "daemon/engine/deadline_timer.h"
#include "daemon/service/service_subsystem.h"
#include "daemon/service/site_breakers.h"
#include "domain/policy/integrity_watch.h"
#include "domain/policy/policy_gate.h"
#include "domain/policy/policy_service.h"

namespace atoms {

class StoreSubsystem;
class EngineSubsystem;

class PolicySubsystem final : public ServiceSubsystem {
 public:
  using LevelListener = policy::PolicyService::LevelListener;
  using FunctionTrust = policy::FunctionTrust;

  PolicySubsystem(Poco::Logger& logger, StoreSubsystem& store, EngineSubsystem& engine);
  ~PolicySubsystem() override;
  const char* name() const override { return "policy"; }

  // Preconditions: started().
  const policy::PolicyGate& gate() const { return *gate_; }
  // Engine thread, preconditions: started() (policy_service.h).
  policy::KillSwitch& killSwitch() { return service_->killSwitch(); }
  policy::PolicyState state() { return service_->state(); }
  bool outreachFrozen() const { return service_->outreachFrozen(); }
  void levelMayHaveChanged() { service_->levelMayHaveChanged(); }

  // Main thread, preconditions: started(). Returns an id for removeListener. The listener is
  // called (engine thread) with the current level before this returns, then after each change.
  int addListener(LevelListener listener);
  void removeListener(int id);
  // Preconditions: started(). Tests use it to ask for a check and count them.
  policy::IntegrityWatch& integrityWatch() { return *integrity_; }

  // ---- Breakers (daemon/service/site_breakers.h; docs/policy-breakers.md) ----
  // Any thread, between start and stop: a live signal for one of the site's breakers.
  void reportBreaker(BreakerReport report);
  // Engine thread, preconditions: started(). Acknowledge and list for the panel and the API.
  SiteBreakers& breakers() { return *breakers_; }

  // ---- Trust budget: engine thread, preconditions: started() (policy_service.h) ----
  Result<std::vector<FunctionTrust>> trustBudgets() { return service_->trustBudgets(); }
  Result<policy::TrustUpdate> advance(std::string_view function, std::string_view actor,
                                      bool automated = false) {
    return service_->advance(function, actor, automated);
  }
  Result<policy::TrustUpdate> regress(std::string_view function, policy::Graduation to,
                                      std::string_view reason, std::string_view actor) {
    return service_->regress(function, to, reason, actor);
  }
  Result<policy::TrustUpdate> recordIncident(std::string_view function, std::string_view id,
                                             int level, std::string_view actor) {
    return service_->recordIncident(function, id, level, actor);
  }
  Result<policy::TrustUpdate> closeIncident(std::string_view function, std::string_view id,
                                            std::string_view actor) {
    return service_->closeIncident(function, id, actor);
  }
  void recordDecision(AuditLog::Batch& batch, TimePoint at, const policy::ProposedAction& action) {
    service_->recordDecision(batch, at, action);
  }
  void recordProposalOutcome(AuditLog::Batch& batch, TimePoint at, std::string_view kind,
                             bool approved, std::optional<policy::OverrideReason> overrideReason,
                             std::string_view ref) {
    service_->recordProposalOutcome(batch, at, kind, approved, overrideReason, ref);
  }
  void recordShadowOutcome(AuditLog::Batch& batch, TimePoint at, std::string_view kind, bool agreed,
                           std::string_view ref) {
    service_->recordShadowOutcome(batch, at, kind, agreed, ref);
  }
  void recordVerification(AuditLog::Batch& batch, TimePoint at, std::string_view kind,
                          policy::TrustOutcome outcome, std::string_view ref) {
    service_->recordVerification(batch, at, kind, outcome, ref);
  }
  void recordViolationAtAct(AuditLog::Batch& batch, TimePoint at, std::string_view kind,
                            std::string_view ref) {
    service_->recordViolationAtAct(batch, at, kind, ref);
  }
  void recordBreakerTrip(std::string_view breaker, TimePoint at) {
    service_->recordBreakerTrip(breaker, at);
  }
  Result<int> checkEligibility() { return service_->checkEligibility(); }

 protected:
  Status start(Poco::Util::Application& app) override;
  void stop() override;

 private:
  // Engine thread: the daily eligibility check (and the first, at start).
  void eligibilityDue();

  Poco::Logger& logger_;
  StoreSubsystem& store_;
  EngineSubsystem& engine_;
  std::unique_ptr<policy::PolicyGate> gate_;
  std::unique_ptr<policy::IntegrityWatch> integrity_;
  std::unique_ptr<policy::PolicyService> service_;   // engine thread
  std::unique_ptr<DeadlineTimer> eligibilityTimer_;  // engine thread
  std::unique_ptr<SiteBreakers> breakers_;           // engine thread, except reportBreaker()
};

}  // namespace atoms
