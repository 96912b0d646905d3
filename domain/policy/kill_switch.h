// KillSwitch: the site's global kill-switch level L0-L3 (seed 001 section 7; operator page
// docs/policy-kill-switch.md), kept in the store (table kill_switch, migration 7; no row = L0).
//
// This is the state and its change rules only; what each level stops is the policy gate's job
// (issue 7), which reads current() before acting. Rules enforced here:
// - every change is audited (entry kind "killswitch.set", in the same transaction as the state);
// - a reason is required (seed: L2/L3 are reset "with a reason recorded"; asked of every change);
// - an automated process can only raise the level, never lower it;
// - setting the level it already has changes nothing and audits nothing.
//
// Threading: the owner thread of the Database and AuditLog (the engine thread). Holds references;
// both must outlive it. Several instances over one store agree (the state is only in the store).
// Errors: values, one line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "store/audit_log.h"
#include "store/database.h"

namespace atoms::policy {

enum class KillSwitchLevel { kL0 = 0, kL1 = 1, kL2 = 2, kL3 = 3 };

// "L0".."L3".
std::string killSwitchLevelName(KillSwitchLevel level);
// nullopt outside 0..3.
std::optional<KillSwitchLevel> killSwitchLevelFromInt(int level);

// Who asks for a change.
struct KillSwitchSetter {
  std::string actor;       // audit actor: "cloud:ops:ana", "panel:ana", "breaker:BRK-OUT", ...
  bool automated = false;  // a breaker, an integrity check, an "auto:" cloud process
};

struct KillSwitchState {
  KillSwitchLevel level = KillSwitchLevel::kL0;
  std::string setAt;  // audit-entry timestamp; empty while never set
  std::string setBy;  // the setter's actor
  std::string reason;
  bool automated = false;
};

struct KillSwitchChange {
  KillSwitchState before, after;
  bool changed = false;
  std::optional<std::uint64_t> seq;  // the killswitch.set entry, when changed
  // "kill switch raised from L0 to L1" / "... lowered ..." / "kill switch already at L1".
  std::string describe() const;
};

class KillSwitch {
 public:
  KillSwitch(AuditLog& log, Database& db) : log_(&log), db_(&db) {}

  // The stored state (L0 when never set).
  Result<KillSwitchState> current() const;

  // Sets the level inside the caller's batch (its rows and entry commit with the batch). `ts` is
  // the audit timestamp of the change. Errors: empty reason, an automated setter lowering the
  // level, the store's; nothing is written then.
  Result<KillSwitchChange> set(AuditLog::Batch& batch, std::string_view ts, KillSwitchLevel level,
                               std::string_view reason, const KillSwitchSetter& who);
  // The same in a batch of its own, committed before it returns.
  Result<KillSwitchChange> set(std::string_view ts, KillSwitchLevel level, std::string_view reason,
                               const KillSwitchSetter& who);

 private:
  AuditLog* log_;
  Database* db_;
};

}  // namespace atoms::policy
