// PolicyService: the policy domain the engine runs (DESIGN.md section 5, issue 7; operator page
// docs/policy-gate.md): what the gate reads besides the action (PolicyState), the kill-switch
// level and who hears when it moves, and every function's trust budget. In `atoms-edge serve` the
// PolicySubsystem (daemon/service/policy_subsystem.h) builds it from the configuration and runs it
// on the engine; tests drive it directly.
// - The kill switch (kill_switch.h): open() reads the stored level (a box restarted at L1 comes
//   back frozen) and logs it. levelMayHaveChanged(), called after anything that may have set the
//   level committed, reads it again and, when it moved, audits nothing more (the change was
//   audited where it was made) but logs it and calls every listener with the new level.
//   integrityFailed() raises it to L3 for a broken audit chain (automated, actor "integrity", the
//   problem as the reason; seed 001 section 7: L3 is automatic on an integrity failure).
// - The trust budget of every function of the action table (trust_store.h; seed 001 section 6;
//   docs/decisions/0010-trust-budget-start-and-ceiling.md): the function's ceiling
//   (policy.graduation.<function>) is both the level its budget begins at and the highest level
//   the gate sees; the gate sees the lower of the ceiling and the budget's effective level. The
//   box's own decisions, the approver's answers to its proposals, the verdicts on its shadow
//   decisions and the verification of its own decisions are recorded in the caller's batch,
//   breaker trips regress it, the owner advances or narrows it, and a daily check audits
//   graduation.eligible when the next step is open.
// - The site's breakers (breaker_board.h), attached once they are loaded: state().openBreakers is
//   theirs, a trip regresses the trust budget in the trip's transaction (recordBreakerTripIn is the
//   board's trip hook), BRK-OUT open freezes outreach as L1 does, and an incident restarts the
//   probe windows of the half-open ones.
// Listeners (the SMS layer freezes outreach from L1 and releases held messages back at L0) are
// called with the current level when added and after each change; also (with the unchanged
// level) whenever BRK-OUT moves, so outreach is held and released on the kill switch's path.
//
// Time is the Clock's (the engine's); what happens is logged through the Logger passed in.
// Threading: the engine thread (the store's writer) for every call; no locks. Holds references to
// the log, the database, the action table, the clock and an attached board; all must outlive it.
// Errors: values, one line. The record* calls feed evidence from inside another turn (the
// call-out desk's, callout::TrustFeedback) and log their errors instead: evidence that cannot be
// recorded never stops a call-out.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "domain/policy/action_classes.h"
#include "domain/policy/breaker_board.h"
#include "domain/policy/function_trust.h"
#include "domain/policy/kill_switch.h"
#include "domain/policy/policy_gate.h"
#include "domain/policy/trust_store.h"
#include "store/audit_log.h"
#include "store/database.h"
#include "store/log_verifier.h"

namespace atoms::policy {

enum class PolicyLogLevel { kDebug, kInfo, kWarning, kError };
using PolicyLogFields = std::vector<std::pair<std::string, std::string>>;
// Where the service reports what happens (the daemon adapts it to its structured log).
using PolicyLogger =
    std::function<void(PolicyLogLevel, const std::string& msg, const PolicyLogFields& fields)>;

class PolicyService {
 public:
  using LevelListener = std::function<void(KillSwitchLevel)>;
  // A counted signal (breaker.h kSignal...) for `breaker`, by `actor`: applied after the caller's
  // turn and outside its batch (the daemon posts it to the engine).
  using BreakerSignal = std::function<void(const std::string& breaker, const std::string& signal,
                                           const std::string& actor)>;

  // How often the owner is told of an open step: checked daily, at most once in 30 days per
  // function (seed 001 section 6 asks for the owner's tap, not for nagging).
  static constexpr std::chrono::hours kEligibilityCheckEvery{24};
  static constexpr std::chrono::hours kEligibleNoticeEvery{24 * 30};

  struct Deps {
    AuditLog& log;
    Database& db;
    const ActionClassTable& table;  // the gate's
    const Clock& clock;
    // The ceiling of every function of the table (ceilingFromSetting(policy.graduation.<f>)).
    std::map<std::string, Graduation> ceilings;
    PolicyLogger logger;          // may be empty
    BreakerSignal breakerSignal;  // may be empty
  };

  // Reads the stored kill-switch level and logs it. Errors: "cannot read the kill switch: ...".
  static Result<std::unique_ptr<PolicyService>> open(Deps deps);
  ~PolicyService();
  PolicyService(const PolicyService&) = delete;
  PolicyService& operator=(const PolicyService&) = delete;

  // ---- The kill switch and the gate's state ----
  KillSwitch& killSwitch() { return killSwitch_; }
  // What the gate reads besides the action: the level, each function's graduation (the lower of
  // its ceiling and its trust budget's effective level; its start level before the budget began;
  // SHADOW for all when the budgets cannot be read, logged), open breakers. A kind whose function
  // is not in the action table counts as PROPOSE.
  PolicyState state();
  // Outreach is frozen (seed 001 sections 7 and 8): the kill switch is at L1 or higher, or BRK-OUT
  // is open (half-open is its trial: released, each outreach decision clamped to PROPOSE by the
  // gate).
  bool outreachFrozen() const;
  void levelMayHaveChanged();
  // Calls `listener` with the current level, then keeps it; returns an id for removeListener.
  int addListener(LevelListener listener);
  void removeListener(int id);
  // A check of the whole audit log failed: raises the kill switch to L3 (logged as an error).
  void integrityFailed(const VerifyReport& report);

  // ---- Breakers ----
  // The site's board (nullptr: none, e.g. before it is loaded or while stopping).
  void attachBreakers(BreakerBoard* board) { breakers_ = board; }
  // The board's change listener: a committed transition (logged; BRK-OUT calls the listeners).
  void breakerChanged(const BreakerEvent& event);

  // ---- Trust budget ----
  // Every function of the action table, in table order.
  Result<std::vector<FunctionTrust>> trustBudgets();
  // The owner confirms the next step of `function` (graduation.advance). Errors (audited as
  // graduation.refused; nothing else changes): an unknown function, an automated actor (never
  // advances), a step above the function's ceiling, a condition not met (named with its value).
  Result<TrustUpdate> advance(std::string_view function, std::string_view actor,
                              bool automated = false);
  // The owner narrows `function` to `to` (graduation.regress). Errors (audited as
  // graduation.refused): an unknown function, `to` not below its earned level, no reason.
  Result<TrustUpdate> regress(std::string_view function, Graduation to, std::string_view reason,
                              std::string_view actor);
  // An incident (SEV, seed 001 sections 5 and 6) attributed to `function`: recorded against that
  // function's budget only (SEV3 -10, SEV2 -25 and AUTONOMOUS -> PROPOSE, SEV1 trust 0 and
  // SHADOW; SEV4 is not recorded), audited trust.sev; then every half-open breaker, whichever
  // function it guards, starts its probe window again (breaker.probe_restarted; EC-RISK-006).
  // Errors (audited as graduation.refused; nothing changes): an unknown function, a level outside
  // 1..4, an empty or repeated id.
  Result<TrustUpdate> recordIncident(std::string_view function, std::string_view id, int level,
                                     std::string_view actor);
  // The incident's review closed it (trust.sev "closed"). Errors (audited as graduation.refused):
  // an unknown function, an incident unknown to it or already closed.
  Result<TrustUpdate> closeIncident(std::string_view function, std::string_view id,
                                    std::string_view actor);
  // The box originated `action` and is about to ask the gate (callout::TrustFeedback::decision):
  // one decision of its function when its graduation bounds it (outreach, replies, writes; not
  // internal or escalation-path kinds). Recorded in `batch`; errors are logged.
  void recordDecision(AuditLog::Batch& batch, TimePoint at, const ProposedAction& action);
  // The approver approved (proposal_approved_unedited, +2) or denied (proposal_declined) a
  // proposal of kind `kind` (callout::TrustFeedback::proposal); a denial with an override reason
  // is also an override of the function (BAD_TIMING, TONE -1; WRONG_FACTS, WRONG_JUDGMENT -3),
  // recorded after it. Errors are logged.
  void recordProposalOutcome(AuditLog::Batch& batch, TimePoint at, std::string_view kind,
                             bool approved, std::optional<OverrideReason> overrideReason,
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
                          TrustOutcome outcome, std::string_view ref);
  // A labor-rule violation of an action of kind `kind` reached Act (seed 001 section 8: "should be
  // impossible; treated as SEV2"): BRK-SCH's signal (through the BreakerSignal), and a SEV2 on the
  // kind's function recorded in `batch` with id `ref` (the not-given receipt): -25, AUTONOMOUS ->
  // PROPOSE, open (blocking advancement) until the owner closes it. Errors are logged.
  void recordViolationAtAct(AuditLog::Batch& batch, TimePoint at, std::string_view kind,
                            std::string_view ref);
  // `breaker` tripped (Closed or HalfOpen -> Open): every function with an action behind it
  // regresses from AUTONOMOUS to PROPOSE, in a batch of its own. Errors are logged.
  void recordBreakerTrip(std::string_view breaker, TimePoint at);
  // The same inside the trip's batch (the board's trip hook). Errors: the trust store's.
  Status recordBreakerTripIn(AuditLog::Batch& batch, std::string_view breaker, TimePoint at);
  // Audits graduation.eligible (the evidence) for every begun function whose next step is open
  // and within its ceiling, at most once in kEligibleNoticeEvery per function. Returns how many
  // were audited.
  Result<int> checkEligibility();
  // The daily check (also once at start): checkEligibility(), its error logged. Returns when the
  // next one is due.
  TimePoint eligibilityDue();

 private:
  PolicyService(Deps deps);
  // The ceiling of a function of the table; nullopt for any other name.
  std::optional<Graduation> ceilingOf(std::string_view function) const;
  // Audits a refused owner request (graduation.refused) and returns `why` as the error.
  Error refuse(std::string_view function, std::string_view action, std::string_view actor,
               const std::string& why);
  // Runs `step` on the budget of `kind`'s function in `batch` (nothing for a kind outside the
  // table); logs `what` with `fields` when it fails.
  void recordFor(AuditLog::Batch& batch, std::string_view kind, TimePoint at, std::string_view ref,
                 const TrustStore::Step& step, const std::string& what,
                 PolicyLogFields fields = {});
  void log(PolicyLogLevel level, const std::string& msg, const PolicyLogFields& fields = {}) const;
  void tellListeners();

  AuditLog& log_;
  const ActionClassTable& table_;
  const Clock& clock_;
  std::map<std::string, Graduation> ceilings_;
  PolicyLogger logger_;
  BreakerSignal breakerSignal_;
  KillSwitch killSwitch_;
  TrustStore trust_;
  KillSwitchLevel level_ = KillSwitchLevel::kL0;
  BreakerBoard* breakers_ = nullptr;
  std::map<int, LevelListener> listeners_;
  int nextListener_ = 1;
};

}  // namespace atoms::policy
