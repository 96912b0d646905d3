#include "domain/policy/panel_kill_switch.h"

#include "base/canonical_json.h"

namespace atoms::policy {

std::optional<std::string> panelKillSwitchRefusal(const PanelRoles& roles, KillSwitchLevel from,
                                                  KillSwitchLevel to) {
  if (from == to) return std::nullopt;  // nothing changes
  if (from == KillSwitchLevel::kL3 && to < from) {
    return "a full stop (L3) is lifted by operations with a signed command, once the audit log "
           "checks out";
  }
  if (roles.owner) return std::nullopt;
  if (!roles.managerOfRecord) {
    return "only an owner of the site or a manager of record can change the kill switch";
  }
  if (from > KillSwitchLevel::kL1 || to > KillSwitchLevel::kL1) {
    return "a manager of record can freeze and release outreach (L1); only an owner of the site "
           "can set or lift L2 and L3";
  }
  return std::nullopt;
}

Result<PanelKillSwitchResult> PanelKillSwitch::refuse(std::string_view ts,
                                                      const std::string& person,
                                                      const KillSwitchState& current,
                                                      KillSwitchLevel to, std::string why) {
  json::Object body;
  body.emplace("person", person);
  body.emplace("from", killSwitchLevelName(current.level));
  body.emplace("to", killSwitchLevelName(to));
  body.emplace("why", why);
  auto seq = log_.append(ts, "killswitch.refused", "panel:" + person, json::Value(std::move(body)));
  if (!seq) return seq.error();
  return PanelKillSwitchResult{PanelOutcome::kRefused, std::move(why), current, *seq};
}

Result<PanelKillSwitchResult> PanelKillSwitch::set(std::string_view ts, const std::string& person,
                                                   const PanelRoles& roles, KillSwitchLevel to,
                                                   std::string_view reason) {
  auto current = killSwitch_.current();
  if (!current) return current.error();
  if (current->level == to) {
    return PanelKillSwitchResult{PanelOutcome::kUnchanged,
                                 "the kill switch is already at " + killSwitchLevelName(to),
                                 *current, std::nullopt};
  }
  if (auto why = panelKillSwitchRefusal(roles, current->level, to)) {
    return refuse(ts, person, *current, to, std::move(*why));
  }
  const std::string actor = "panel:" + person;
  auto batch = log_.begin();
  if (!batch) return batch.error();
  auto decision = admitAction(*batch, ts, gate_, state_ ? state_() : PolicyState{}, current->level,
                              ProposedAction{"killswitch.set", actor, false, "", to});
  if (!decision) return decision.error();
  if (!decision->executes()) {
    {
      AuditLog::Batch dropped = std::move(*batch);  // rolled back: the refusal is its own entry
    }
    return refuse(ts, person, *current, to, decision->describe());
  }
  auto change = killSwitch_.set(*batch, ts, to, reason, KillSwitchSetter{actor, false});
  if (!change) return change.error();
  if (auto committed = batch->commit(); !committed) return committed.error();
  return PanelKillSwitchResult{PanelOutcome::kChanged, change->describe(), change->after,
                               change->seq};
}

}  // namespace atoms::policy
