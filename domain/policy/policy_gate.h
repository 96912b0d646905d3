// PolicyGate: the one decision every proposed action goes through before it runs (DESIGN.md
// section 5; issue 7; operator page docs/policy-gate.md). It turns a proposed action into what the
// box does with it now (execute, queue for approval, a HUMAN_ONLY packet, hold, record only,
// deny) and says which rule decided, for the receipt.
//
// The decision, in order:
// 1. The kind's row in the action table (etc/policy/actions.json). An unknown kind is a
//    HUMAN_ONLY packet: the box never runs what it cannot classify.
// 2. RISK-08 (seed 001): an action declared adverse to one person, asked for by a human (owner or
//    manager), when the same person already had `kAdverseElevationThreshold` such actions asked
//    for within 30 days, is elevated to HUMAN_ONLY; the decision names the pattern.
// 3. clamp() (action_classes.h): the kill-switch level, the function's graduation and its
//    breaker. Graduation and breakers bound the box's own autonomy, so they apply only to actions
//    the box originates (`automated`); an instruction a human gave (a signed cloud command, a
//    manager on the panel) meets the kill switch and the declared class, not the box's trust
//    budget.
// 4. Kill-switch changes: an automated proposer may only raise the level (seed 001 section 7); a
//    lowering asked by one is denied here, before the KillSwitch refuses it too.
//
// decide() is pure: the caller reads the state (PolicyState) and records the decision (an
// instruction from a person or the cloud: admitAction() below). Thread-safe (the table is
// immutable). No exceptions beyond allocation.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "base/canonical_json.h"
#include "base/result.h"
#include "domain/policy/action_classes.h"
#include "domain/policy/kill_switch.h"
#include "store/audit_log.h"

namespace atoms::policy {

// Seed 001 RISK-08: ">= 2 owner-originated adverse actions against one person in 30 days".
inline constexpr int kAdverseElevationThreshold = 2;
inline constexpr int kAdverseWindowDays = 30;

struct ProposedAction {
  std::string kind;       // a kind of etc/policy/actions.json
  std::string actor;      // "engine", "cloud:ops:ana", "panel:ana", "breaker:BRK-OUT"
  bool automated = true;  // the box (or an automated process) proposes it; false: a human asked
  std::string subject;    // the person the action is about (adverse kinds), or empty
  // Kill-switch kinds: the level asked for.
  std::optional<KillSwitchLevel> level;
};

// The site's state the decision depends on, read by the caller just before deciding.
struct PolicyState {
  KillSwitchLevel level = KillSwitchLevel::kL0;
  // Graduation per function (seed 000 ManagementFunction); a function not listed is at
  // `defaultGraduation`.
  std::map<std::string, Graduation> graduation;
  Graduation defaultGraduation = Graduation::kShadow;
  std::set<std::string> openBreakers;  // Open or HalfOpen breakers ("BRK-OUT")
  // Human-originated adverse actions against `subject` within the window, before this one.
  int priorAdverseAgainstSubject = 0;
};

struct GateDecision {
  std::string kind;
  std::optional<AutonomyClass> declared;  // nullopt: unknown kind
  AutonomyClass effective = AutonomyClass::kHumanOnly;
  EffectiveOutcome outcome = EffectiveOutcome::kDeny;
  std::string rule;  // the rule that decided, in words, with its source
  KillSwitchLevel level = KillSwitchLevel::kL0;
  std::optional<Graduation> graduation;  // the function's, when it applied
  std::string breaker;                   // the kind's breaker when it was open, else empty
  std::string pattern;                   // RISK-08: the pattern that elevated it, else empty

  bool executes() const { return outcome == EffectiveOutcome::kExecute; }
  // "config.set: record_only (seed 001 section 7 L2 write freeze: ...)".
  std::string describe() const;
  // The decision for a receipt's rule evaluations or an audit entry: kind, declared, effective,
  // outcome, rule, level, and graduation/breaker/pattern when present.
  json::Value toJson() const;
};

class PolicyGate {
 public:
  explicit PolicyGate(ActionClassTable table) : table_(std::move(table)) {}

  GateDecision decide(const ProposedAction& action, const PolicyState& state) const;
  const ActionClassTable& table() const { return table_; }

 private:
  ActionClassTable table_;
};

// A person's or the cloud's instruction admitted through the gate: decides `action` under `state`
// at the kill-switch `level` (the one just read), and when it executes adds a "policy.decision"
// entry by action.actor to `batch`: `extra` plus {"decision": the decision}. A decision that does
// not execute adds nothing and is returned for the caller to refuse with (describe() names the
// rule). Errors: the batch's only.
Result<GateDecision> admitAction(AuditLog::Batch& batch, std::string_view ts,
                                 const PolicyGate& gate, PolicyState state, KillSwitchLevel level,
                                 const ProposedAction& action, json::Object extra = {});

}  // namespace atoms::policy
