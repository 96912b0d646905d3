#include "domain/policy/command_target.h"

#include <algorithm>

#include "base/canonical_json.h"
#include "sync/command/config_overrides.h"

namespace atoms::policy {
namespace {

std::string actorOf(const sync::command::CommandContext& ctx) { return "cloud:" + ctx.command.by; }

}  // namespace

std::vector<std::string> cloudSettableConfigKeys() {
  // Tuning of the uplink only: each is read by the sync subsystem at start, none can stop the
  // box from reconnecting.
  return {"sync.ack_timeout_s",  "sync.max_segment_bytes", "sync.poll_interval_ms",
          "sync.retention_days", "sync.status_interval_s", "sync.window"};
}

std::optional<std::string> checkCloudConfigValue(const std::string& key, const std::string& value,
                                                 const ConfigValueCheck& check) {
  const auto keys = cloudSettableConfigKeys();
  if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
    return "config key " + key + " cannot be set from the cloud";
  }
  return check(key, value);
}

Result<GateDecision> PolicyCommandTarget::admit(AuditLog::Batch& batch,
                                                const sync::command::CommandContext& ctx,
                                                ProposedAction action) {
  auto current = killSwitch_.current();
  if (!current) return current.error();
  auto decision = admitAction(batch, ctx.ts, gate_, state_ ? state_() : PolicyState{},
                              current->level, action, json::Object{{"command", ctx.command.id}});
  if (!decision) return decision;
  if (!decision->executes()) {
    return makeError("refused by the policy gate: " + decision->describe());
  }
  return decision;
}

Result<std::string> PolicyCommandTarget::setKillSwitchLevel(
    AuditLog::Batch& batch, const sync::command::CommandContext& ctx, int level,
    const std::string& reason) {
  auto wanted = killSwitchLevelFromInt(level);
  if (!wanted) return makeError("kill-switch level " + std::to_string(level) + " does not exist");
  const bool automated = ctx.command.automated();
  ProposedAction action{automated ? "killswitch.raise" : "killswitch.set", actorOf(ctx), automated,
                        "", *wanted};
  if (auto admitted = admit(batch, ctx, std::move(action)); !admitted) return admitted.error();
  auto change = killSwitch_.set(batch, ctx.ts, *wanted, reason,
                                KillSwitchSetter{actorOf(ctx), ctx.command.automated()});
  if (!change) return change.error();
  return change->describe();
}

Result<std::string> PolicyCommandTarget::setConfig(AuditLog::Batch& batch,
                                                   const sync::command::CommandContext& ctx,
                                                   const std::string& key,
                                                   const std::optional<std::string>& value) {
  if (value) {
    if (auto why = checkCloudConfigValue(key, *value, checkValue_)) return makeError(*why);
  } else {
    const auto keys = cloudSettableConfigKeys();
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      return makeError("config key " + key + " cannot be set from the cloud");
    }
  }
  ProposedAction action{"config.set", actorOf(ctx), ctx.command.automated(), "", std::nullopt};
  if (auto admitted = admit(batch, ctx, std::move(action)); !admitted) return admitted.error();
  auto previous = sync::command::findConfigOverride(db_, key);
  if (!previous) return previous.error();
  if (!value && !*previous) return key + " has no cloud override; nothing changed";
  if (value && *previous && (*previous)->value == *value) {
    return key + " is already " + *value + " (from the next start)";
  }
  Status written = value ? sync::command::saveConfigOverride(
                               db_, sync::command::ConfigOverride{key, *value, ctx.ts, actorOf(ctx),
                                                                  ctx.command.id})
                         : sync::command::removeConfigOverride(db_, key);
  if (!written) return written.error();

  json::Object body;
  body.emplace("key", key);
  body.emplace("value", value ? json::Value(*value) : json::Value());
  body.emplace("previous", *previous ? json::Value((*previous)->value) : json::Value());
  body.emplace("command", ctx.command.id);
  body.emplace("effective", "next start");
  auto seq = batch.add(ctx.ts, "config.change", actorOf(ctx), json::Value(std::move(body)));
  if (!seq) return seq.error();
  if (!value)
    return key + " override removed: the configuration file's value applies from the next start";
  return key + " = " + *value + " from the next start of the service";
}

void PolicyCommandTarget::applied(const sync::command::Command& /*command*/) {
  if (afterApply_) afterApply_();
}

}  // namespace atoms::policy
