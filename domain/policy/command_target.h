// PolicyCommandTarget: where verified cloud commands land in the daemon (the CommandTarget of
// sync/command/command_target.h).
// - kill_switch.set goes to the KillSwitch, as actor "cloud:<by>"; an "auto:" issuer is an
//   automated process and may only raise the level.
// - config.set changes only the whitelisted keys (cloudSettableConfigKeys()) with a value the
//   service's own validator accepts; the override is stored (sync/command/config_overrides.h),
//   audited ("config.change") and takes effect at the next start. Keys that decide how the box
//   reaches the cloud or whom it trusts (broker, TLS, credentials, sync.cloud_key) are never
//   settable remotely: a mistake there could cut the box off for good.
// Both go through the policy gate first (policy_gate.h): kill_switch.set is the action
// "killswitch.set" (a person) or "killswitch.raise" (an "auto:" issuer), which pass at every level;
// config.set is "config.set", a write, frozen from L2 (record only) and denied at L3, and, asked by
// an automated issuer, bounded by the security_compliance function's graduation like anything else
// the box does alone. A decision other than execute refuses the command with the gate's rule as the
// reason. An applied command's batch also gets a "policy.decision" entry with the decision.
//
// Threading: the owner thread (inside the command's batch). Holds references to the gate, the
// KillSwitch and the Database; all must outlive it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "domain/policy/kill_switch.h"
#include "domain/policy/policy_gate.h"
#include "store/database.h"
#include "sync/command/command_target.h"

namespace atoms::policy {

// The configuration keys a cloud config.set may override.
std::vector<std::string> cloudSettableConfigKeys();

// The service's check of one configuration value against its schema (in `serve`,
// checkServiceConfigValue of daemon/service/config_schema.h): nullopt when `key` is a setting and
// `value` is acceptable for it; otherwise why not (one line).
using ConfigValueCheck =
    std::function<std::optional<std::string>(const std::string& key, const std::string& value)>;

// nullopt when `key` may be set from the cloud to `value` (a key of cloudSettableConfigKeys(),
// a value `check` accepts); otherwise why not (one line).
std::optional<std::string> checkCloudConfigValue(const std::string& key, const std::string& value,
                                                 const ConfigValueCheck& check);

class PolicyCommandTarget final : public sync::command::CommandTarget {
 public:
  // `checkValue` checks a config.set's value (checkCloudConfigValue). `state` is the policy state
  // besides the kill-switch level (graduations, breakers), read when a command arrives; the level
  // is read from the KillSwitch. `afterApply` (may be empty) runs after an applied command
  // committed: the daemon re-reads the level there.
  PolicyCommandTarget(const PolicyGate& gate, KillSwitch& killSwitch, Database& db,
                      ConfigValueCheck checkValue, std::function<PolicyState()> state,
                      std::function<void()> afterApply = {})
      : gate_(gate),
        killSwitch_(killSwitch),
        db_(db),
        checkValue_(std::move(checkValue)),
        state_(std::move(state)),
        afterApply_(std::move(afterApply)) {}

  Result<std::string> setKillSwitchLevel(AuditLog::Batch& batch,
                                         const sync::command::CommandContext& ctx, int level,
                                         const std::string& reason) override;
  Result<std::string> setConfig(AuditLog::Batch& batch, const sync::command::CommandContext& ctx,
                                const std::string& key,
                                const std::optional<std::string>& value) override;
  void applied(const sync::command::Command& command) override;

 private:
  // The gate's decision on `action` now; an Error (the refusal) unless it executes, else the
  // decision after its "policy.decision" entry was added to `batch`.
  Result<GateDecision> admit(AuditLog::Batch& batch, const sync::command::CommandContext& ctx,
                             ProposedAction action);

  const PolicyGate& gate_;
  KillSwitch& killSwitch_;
  Database& db_;
  ConfigValueCheck checkValue_;
  std::function<PolicyState()> state_;
  std::function<void()> afterApply_;
};

}  // namespace atoms::policy
