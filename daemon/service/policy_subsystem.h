// PolicySubsystem: the policy gate in `atoms-edge serve` (DESIGN.md section 5, issue 7;
// docs/policy-gate.md). It owns the gate (over the action table built into the binary,
// daemon/policy/shipped_actions.h) and the site's KillSwitch, and tells the rest of the daemon
// when the kill-switch level changes:
// - at start it reads the stored level (a box restarted at L1 comes back frozen) and logs it;
// - levelMayHaveChanged(), called after anything that may have set the level committed (a cloud
//   command today; the panel and automatic raises later), reads it again and, when it moved,
//   audits nothing more (the change was audited where it was made) but logs it and calls every
//   listener with the new level.
// - the IntegrityWatch (daemon/policy/integrity_watch.h) re-verifies the whole audit log once at
//   start and every policy.integrity_check_interval_s; a broken chain raises the kill switch to
//   L3 (automated, actor "integrity", the problem as the reason) and is logged as an error
//   (seed 001 section 7: L3 is automatic on an integrity failure; lowering it is for a person).
// - the trust budget of every function of the action table (daemon/policy/trust_store.h; seed 001
//   section 6; docs/decisions/0010-trust-budget-start-and-ceiling.md): policy.graduation.<function>
//   is both the level a function's budget begins at and its ceiling; the gate sees the lower of
//   the ceiling and the budget's effective level. The box's own decisions and the approver's
//   answers to its proposals, the verdicts on its shadow decisions and the verification of its own
//   decisions are recorded (recordDecision, recordProposalOutcome, recordShadowOutcome,
//   recordVerification, in the caller's batch), breaker trips regress it (recordBreakerTrip), the
//   owner advances or narrows it (advance, regress), and a daily check audits graduation.eligible
//   when the next step is open.
// - the site's breakers (SiteBreakers: BRK-OUT, BRK-SCH, BRK-CONN-<system>), kept in the store,
//   fed through reportBreaker(); state().openBreakers is theirs, a trip regresses the trust budget
//   in the trip's transaction, and BRK-OUT open freezes outreach as L1 does.
// Listeners (the SMS layer freezes outreach from L1 and releases held messages back at L0) are
// added and removed on the main thread while the engine runs; they are called on the engine
// thread, at addition with the current level and after each change.
//
// Threading: start/stop and add/removeListener on the main thread; gate() from any thread (it is
// immutable); killSwitch(), state(), levelMayHaveChanged() and the trust methods on the engine
// thread (which owns the store). Must be started after the store and the engine, before the SMS and
// sync subsystems.
#pragma once

#include <Poco/Logger.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/engine/deadline_timer.h"
#include "daemon/policy/integrity_watch.h"
#include "daemon/policy/kill_switch.h"
#include "daemon/policy/policy_gate.h"
#include "daemon/policy/trust_store.h"
#include "daemon/service/service_subsystem.h"
#include "daemon/service/site_breakers.h"

namespace atoms {

class StoreSubsystem;
class EngineSubsystem;

class PolicySubsystem final : public ServiceSubsystem {
 public:
  using LevelListener = std::function<void(policy::KillSwitchLevel)>;

  PolicySubsystem(Poco::Logger& logger, StoreSubsystem& store, EngineSubsystem& engine);
  ~PolicySubsystem() override;
  const char* name() const override { return "policy"; }

  // Preconditions: started().
  const policy::PolicyGate& gate() const { return *gate_; }
  policy::KillSwitch& killSwitch() { return *killSwitch_; }
  // What the gate reads besides the action: the level, each function's graduation (the lower of
  // its ceiling and its trust budget's effective level; its start level before the budget began;
  // SHADOW for all when the budgets cannot be read, logged), open breakers. A kind whose function
  // is not in the action table counts as PROPOSE.
  policy::PolicyState state();
  void levelMayHaveChanged();

  // Returns an id for removeListener. The listener is called (engine thread) with the current
  // level before this returns.
  int addListener(LevelListener listener);
  void removeListener(int id);
  // Preconditions: started(). Tests use it to ask for a check and count them.
  policy::IntegrityWatch& integrityWatch() { return *integrity_; }

  // ---- Breakers (daemon/service/site_breakers.h; docs/policy-breakers.md) ----
  // Any thread, between start and stop: a live signal for one of the site's breakers.
  void reportBreaker(BreakerReport report);
  // Engine thread: outreach is frozen (seed 001 sections 7 and 8): the kill switch is at L1 or
  // higher, or BRK-OUT is open (half-open is its trial: released, each outreach decision clamped
  // to PROPOSE by the gate). The listeners are called again (with the unchanged level) whenever
  // BRK-OUT moves, so the SMS layer holds and releases outreach on the kill switch's path.
  bool outreachFrozen() const;
  // Engine thread, preconditions: started(). Acknowledge and list for the panel and the API.
  SiteBreakers& breakers() { return *breakers_; }

  // ---- Trust budget: engine thread, preconditions: started() ----
  // One function's trust as the owner's console shows it.
  struct FunctionTrust {
    std::string function;
    policy::Graduation ceiling = policy::Graduation::kPropose;    // policy.graduation.<function>
    policy::Graduation earned = policy::Graduation::kPropose;     // the start level until it began
    policy::Graduation effective = policy::Graduation::kPropose;  // what the gate uses
    int trustHalves = 0;
    bool begun = false;               // false: no decision recorded yet
    bool held = false;                // an inactivity hold: acting one level below its earned level
    policy::Eligibility eligibility;  // the next step and every condition of it now
    bool withinCeiling = false;       // there is a next step and it is not above the ceiling
    // {"function", "ceiling", "earned", "effective", "trust", "begun", "held", "withinCeiling",
    //  "eligibility": {...}}.
    json::Value toJson() const;
  };
  // Every function of the action table, in table order.
  Result<std::vector<FunctionTrust>> trustBudgets();
  // The owner confirms the next step of `function` (graduation.advance). Errors (audited as
  // graduation.refused; nothing else changes): an unknown function, an automated actor (never
  // advances), a step above the function's ceiling, a condition not met (named with its value).
  Result<policy::TrustUpdate> advance(std::string_view function, std::string_view actor,
                                      bool automated = false);
  // The owner narrows `function` to `to` (graduation.regress). Errors (audited as
  // graduation.refused): an unknown function, `to` not below its earned level, no reason.
  Result<policy::TrustUpdate> regress(std::string_view function, policy::Graduation to,
                                      std::string_view reason, std::string_view actor);
  // An incident (SEV, seed 001 sections 5 and 6) attributed to `function`: recorded against that
  // function's budget only (SEV3 -10, SEV2 -25 and AUTONOMOUS -> PROPOSE, SEV1 trust 0 and
  // SHADOW; SEV4 is not recorded), audited trust.sev; then every half-open breaker, whichever
  // function it guards, starts its probe window again (breaker.probe_restarted; EC-RISK-006).
  // Errors (audited as graduation.refused; nothing changes): an unknown function, a level outside
  // 1..4, an empty or repeated id.
  Result<policy::TrustUpdate> recordIncident(std::string_view function, std::string_view id,
                                             int level, std::string_view actor);
  // The incident's review closed it (trust.sev "closed"). Errors (audited as graduation.refused):
  // an unknown function, an incident unknown to it or already closed.
  Result<policy::TrustUpdate> closeIncident(std::string_view function, std::string_view id,
                                            std::string_view actor);
  // The box originated `action` and is about to ask the gate (callout::TrustFeedback::decision):
  // one decision of its function when its graduation bounds it (outreach, replies, writes; not
  // internal or escalation-path kinds). Recorded in `batch`; errors are logged.
  void recordDecision(AuditLog::Batch& batch, TimePoint at, const policy::ProposedAction& action);
  // The approver approved (proposal_approved_unedited, +2) or denied (proposal_declined) a
  // proposal of kind `kind` (callout::TrustFeedback::proposal); a denial with an override reason
  // is also an override of the function (BAD_TIMING, TONE -1; WRONG_FACTS, WRONG_JUDGMENT -3),
  // recorded after it. Errors are logged.
  void recordProposalOutcome(AuditLog::Batch& batch, TimePoint at, std::string_view kind,
                             bool approved, std::optional<policy::OverrideReason> overrideReason,
                             std::string_view ref);
  // A person made the same call as the box's shadow decision of kind `kind` (shadow_agreed, +1,
  // at most +10 a day) or another one (shadow_disagreed: no trust change, counts against the 80%
  // SHADOW -> PROPOSE needs; callout::TrustFeedback::shadow). `ref` names the decision. Errors
  // are logged.
  void recordShadowOutcome(AuditLog::Batch& batch, TimePoint at, std::string_view kind, bool agreed,
                           std::string_view ref);
  // A decision of kind `kind` the gate executed on its own was verified (autonomous_verified, +1,
  // at most +10 a day) or found wrong (verification_mismatch, -5) by what followed
  // (callout::TrustFeedback::verification; `ref` names it). Errors are logged.
  void recordVerification(AuditLog::Batch& batch, TimePoint at, std::string_view kind,
                          policy::TrustOutcome outcome, std::string_view ref);
  // A labor-rule violation of an action of kind `kind` reached Act (seed 001 section 8: "should be
  // impossible; treated as SEV2"): BRK-SCH's signal (reportBreaker), and a SEV2 on the kind's
  // function recorded in `batch` with id `ref` (the not-given receipt): -25, AUTONOMOUS -> PROPOSE,
  // open (blocking advancement) until the owner closes it. Errors are logged.
  void recordViolationAtAct(AuditLog::Batch& batch, TimePoint at, std::string_view kind,
                            std::string_view ref);
  // `breaker` tripped (Closed or HalfOpen -> Open): every function with an action behind it
  // regresses from AUTONOMOUS to PROPOSE, in a batch of its own. Errors are logged.
  void recordBreakerTrip(std::string_view breaker, TimePoint at);
  Status recordBreakerTripIn(AuditLog::Batch& batch, std::string_view breaker, TimePoint at);
  // Audits graduation.eligible (the evidence) for every begun function whose next step is open
  // and within its ceiling, at most once in 30 days per function. Run daily by an engine timer
  // (and once at start). Returns how many were audited.
  Result<int> checkEligibility();

 protected:
  Status start(Poco::Util::Application& app) override;
  void stop() override;

 private:
  // Engine thread: raises the kill switch to L3 for a broken audit chain.
  void integrityFailed(const VerifyReport& report);
  // Engine thread: a committed breaker transition (logged; BRK-OUT calls the listeners).
  void breakerChanged(const policy::BreakerEvent& event);
  // The ceiling of a function of the table; nullopt for any other name.
  std::optional<policy::Graduation> ceilingOf(std::string_view function) const;
  // Audits a refused owner request (graduation.refused) and returns `why` as the error.
  Error refuse(std::string_view function, std::string_view action, std::string_view actor,
               const std::string& why);
  void eligibilityDue();

  Poco::Logger& logger_;
  StoreSubsystem& store_;
  EngineSubsystem& engine_;
  std::unique_ptr<policy::PolicyGate> gate_;
  std::unique_ptr<policy::KillSwitch> killSwitch_;
  std::unique_ptr<policy::IntegrityWatch> integrity_;
  // Engine thread only.
  policy::KillSwitchLevel level_ = policy::KillSwitchLevel::kL0;
  // policy.graduation.<function> of every function of the table: the owner's choice, read at
  // start (start level and ceiling).
  std::map<std::string, policy::Graduation> ceilings_;
  std::unique_ptr<policy::TrustStore> trust_;        // engine thread
  std::unique_ptr<DeadlineTimer> eligibilityTimer_;  // engine thread
  std::unique_ptr<SiteBreakers> breakers_;           // engine thread, except reportBreaker()
  std::map<int, LevelListener> listeners_;
  int nextListener_ = 1;
};

}  // namespace atoms
