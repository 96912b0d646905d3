// PanelKillSwitch: a person setting the site's kill switch from the panel or the JSON API
// (seed 001 section 7, "who can set"; operator page docs/policy-kill-switch.md). Signed cloud
// commands (ops) and automatic raises have their own paths (command_target.h, integrity_watch.h).
//
// Who may do what from the panel (panelKillSwitchRefusal):
// - an owner of the site (configuration policy.owners) sets any level, and lowers any level but
//   L3: a full stop is lifted by operations with a signed cloud command once the audit log checks
//   out (seed 001 section 7: "manual, ops-confirmed after integrity check passes");
// - a manager of record (someone's managerOfRecord in the site file) freezes outreach (L1) and
//   lifts that freeze; L2 and L3 are the owner's;
// - nobody else.
// Then the policy gate decides "killswitch.set" as a person's instruction (it passes at every
// level), and the change is made with a "policy.decision" entry in the same batch. A refusal
// changes nothing and is audited ("killswitch.refused": person, from, to, why), so an attempt is on
// record; setting the level it already has changes and audits nothing.
//
// Threading: the engine thread (it writes the store). Holds references; all must outlive it.
// Errors: the store's, as values; a refusal is an outcome, not an error.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "domain/policy/kill_switch.h"
#include "domain/policy/policy_gate.h"
#include "store/audit_log.h"

namespace atoms::policy {

struct PanelRoles {
  bool owner = false;
  bool managerOfRecord = false;
};

// nullopt when a person with `roles` may move the level from `from` to `to`; else why not, in
// plain words for the person ("only an owner of the site can set L2 or L3").
std::optional<std::string> panelKillSwitchRefusal(const PanelRoles& roles, KillSwitchLevel from,
                                                  KillSwitchLevel to);

enum class PanelOutcome { kChanged, kUnchanged, kRefused };

struct PanelKillSwitchResult {
  PanelOutcome outcome = PanelOutcome::kRefused;
  std::string message;               // "kill switch raised from L0 to L2", or the refusal
  KillSwitchState state;             // as it stands after the request
  std::optional<std::uint64_t> seq;  // the killswitch.set (changed) or killswitch.refused entry
};

class PanelKillSwitch {
 public:
  PanelKillSwitch(const PolicyGate& gate, KillSwitch& killSwitch, AuditLog& log,
                  std::function<PolicyState()> state)
      : gate_(gate), killSwitch_(killSwitch), log_(log), state_(std::move(state)) {}

  // `person` (a person id of the site, with `roles`) asks for `to` with `reason` (required) at
  // audit timestamp `ts`; the actor is "panel:<person>".
  Result<PanelKillSwitchResult> set(std::string_view ts, const std::string& person,
                                    const PanelRoles& roles, KillSwitchLevel to,
                                    std::string_view reason);

 private:
  Result<PanelKillSwitchResult> refuse(std::string_view ts, const std::string& person,
                                       const KillSwitchState& current, KillSwitchLevel to,
                                       std::string why);

  const PolicyGate& gate_;
  KillSwitch& killSwitch_;
  AuditLog& log_;
  std::function<PolicyState()> state_;
};

}  // namespace atoms::policy
