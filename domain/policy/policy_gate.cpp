#include "domain/policy/policy_gate.h"

namespace atoms::policy {
namespace {

constexpr std::string_view kKillSwitchSet = "killswitch.set";
constexpr std::string_view kKillSwitchRaise = "killswitch.raise";

GateDecision packet(GateDecision d, std::string rule) {
  d.effective = AutonomyClass::kHumanOnly;
  d.outcome = EffectiveOutcome::kHumanPacket;
  d.rule = std::move(rule);
  return d;
}

GateDecision deny(GateDecision d, std::string rule) {
  d.outcome = EffectiveOutcome::kDeny;
  d.rule = std::move(rule);
  return d;
}

}  // namespace

std::string GateDecision::describe() const {
  return kind + ": " + std::string(effectiveOutcomeName(outcome)) + " (" + rule + ")";
}

json::Value GateDecision::toJson() const {
  json::Object o;
  o.emplace("kind", kind);
  o.emplace("declared", declared ? json::Value(autonomyClassName(*declared)) : json::Value());
  o.emplace("effective", autonomyClassName(effective));
  o.emplace("outcome", effectiveOutcomeName(outcome));
  o.emplace("rule", rule);
  o.emplace("killSwitch", killSwitchLevelName(level));
  if (graduation) o.emplace("graduation", graduationName(*graduation));
  if (!breaker.empty()) o.emplace("breaker", breaker);
  if (!pattern.empty()) o.emplace("pattern", pattern);
  return json::Value(std::move(o));
}

GateDecision PolicyGate::decide(const ProposedAction& action, const PolicyState& state) const {
  GateDecision d;
  d.kind = action.kind;
  d.level = state.level;

  auto row = table_.find(action.kind);
  if (!row) return packet(std::move(d), row.message());
  const ActionClass& a = **row;
  d.declared = a.declared;

  // An automated process can only raise the kill switch (seed 001 section 7).
  if (action.kind == kKillSwitchSet || action.kind == kKillSwitchRaise) {
    if (!action.level) return deny(std::move(d), "a kill-switch change must name its level");
    if (action.automated && *action.level < state.level) {
      return deny(std::move(d),
                  "seed 001 section 7: an automated process can only raise the "
                  "kill switch, never lower it");
    }
  }

  // RISK-08: a person targeted again and again by adverse actions a human asked for.
  if (a.adverse && !action.automated && !action.subject.empty() &&
      state.priorAdverseAgainstSubject >= kAdverseElevationThreshold) {
    d.pattern = std::to_string(state.priorAdverseAgainstSubject) +
                " earlier adverse actions against " + action.subject + " asked for within " +
                std::to_string(kAdverseWindowDays) + " days";
    std::string rule =
        "seed 001 RISK-08: repeated adverse actions against one person go to a human (" +
        d.pattern + ")";
    return packet(std::move(d), std::move(rule));
  }

  Graduation graduation = Graduation::kAutonomous;
  bool breakerOpen = false;
  if (action.automated) {
    auto g = state.graduation.find(a.function);
    graduation = g != state.graduation.end() ? g->second : state.defaultGraduation;
    d.graduation = graduation;
    breakerOpen = a.breaker != "none" && state.openBreakers.count(a.breaker) != 0;
    if (breakerOpen) d.breaker = a.breaker;
  }
  const Clamped c = clamp(a, graduation, state.level, breakerOpen);
  d.effective = c.effective;
  d.outcome = c.outcome;
  d.rule = c.rule;
  return d;
}

Result<GateDecision> admitAction(AuditLog::Batch& batch, std::string_view ts,
                                 const PolicyGate& gate, PolicyState state, KillSwitchLevel level,
                                 const ProposedAction& action, json::Object extra) {
  state.level = level;
  GateDecision decision = gate.decide(action, state);
  if (!decision.executes()) return decision;
  extra.emplace("decision", decision.toJson());
  auto seq = batch.add(ts, "policy.decision", action.actor, json::Value(std::move(extra)));
  if (!seq) return seq.error();
  return decision;
}

}  // namespace atoms::policy
