// PolicyCommandTarget: where verified cloud commands land in the daemon (the CommandTarget of
// sync/command/command_target.h).
// - kill_switch.set goes to the KillSwitch, as actor "cloud:<by>"; an "auto:" issuer is an
//   automated process and may only raise the level.
// - config.set changes only the whitelisted keys (cloudSettableConfigKeys()) with a value the
//   service's own validator accepts; the override is stored (sync/command/config_overrides.h),
//   audited ("config.change") and takes effect at the next start. Keys that decide how the box
//   reaches the cloud or whom it trusts (broker, TLS, credentials, sync.cloud_key) are never
//   settable remotely: a mistake there could cut the box off for good.
// The policy gate (issue 7) will classify these actions before they run; today they apply as
// described.
//
// Threading: the owner thread (inside the command's batch). Holds references to the KillSwitch
// and the Database; both must outlive it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "daemon/policy/kill_switch.h"
#include "store/database.h"
#include "sync/command/command_target.h"

namespace atoms::policy {

// The configuration keys a cloud config.set may override.
std::vector<std::string> cloudSettableConfigKeys();

// nullopt when `key` may be set from the cloud to `value`; otherwise why not (one line).
std::optional<std::string> checkCloudConfigValue(const std::string& key, const std::string& value);

class PolicyCommandTarget final : public sync::command::CommandTarget {
 public:
  PolicyCommandTarget(KillSwitch& killSwitch, Database& db) : killSwitch_(killSwitch), db_(db) {}

  Result<std::string> setKillSwitchLevel(AuditLog::Batch& batch,
                                         const sync::command::CommandContext& ctx, int level,
                                         const std::string& reason) override;
  Result<std::string> setConfig(AuditLog::Batch& batch, const sync::command::CommandContext& ctx,
                                const std::string& key,
                                const std::optional<std::string>& value) override;

 private:
  KillSwitch& killSwitch_;
  Database& db_;
};

}  // namespace atoms::policy
