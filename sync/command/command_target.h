// CommandTarget: what a verified, fresh, never-seen cloud command acts on. The daemon implements
// it (domain/policy/command_target.h: the kill switch and the configuration whitelist); tests
// substitute their own.
//
// Contract: each method runs on the owner thread inside the command's audit batch. It writes its
// domain rows on the batch's Database and adds its audit entries to `batch`; they commit
// atomically with the command's own entry and its replay-guard row, or not at all. It returns a
// one-line description of what changed (for the result), or an Error naming why the box will not
// apply the command (not whitelisted, a value out of range, a policy refusal): the processor then
// drops the batch, so nothing the method wrote stays, and records a refusal instead. No
// exceptions.
#pragma once

#include <optional>
#include <string>

#include "base/result.h"
#include "store/audit_log.h"
#include "sync/command/command.h"

namespace atoms::sync::command {

struct CommandContext {
  const Command& command;
  std::string ts;  // the box's time of the decision, audit-entry format
};

class CommandTarget {
 public:
  virtual ~CommandTarget() = default;

  // kill_switch.set. level 0..kMaxKillSwitchLevel; command.automated() says who set it.
  virtual Result<std::string> setKillSwitchLevel(AuditLog::Batch& batch, const CommandContext& ctx,
                                                 int level, const std::string& reason) = 0;
  // config.set. value nullopt: remove the override.
  virtual Result<std::string> setConfig(AuditLog::Batch& batch, const CommandContext& ctx,
                                        const std::string& key,
                                        const std::optional<std::string>& value) = 0;
  // Called on the owner thread after the batch of an applied command has committed: the place to
  // act on what changed (the daemon tells the SMS layer the kill switch moved). Not called for a
  // refused command or when the commit failed. Must not throw.
  virtual void applied(const Command& /*command*/) {}
};

}  // namespace atoms::sync::command
