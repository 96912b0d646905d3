// Who may do what on the manager's panel (docs/panel-accounts.md, "Roles"). Three roles, each
// holding everything of the one below: owner ⊇ manager ⊇ lead.
// - owner: a person id listed in the configuration's policy.owners;
// - manager: a manager of record (someone's managerOfRecord in the site file);
// - lead: a person who can work a station tagged shift_lead (domain/site/station_tag.h).
// A person of the site with none of these gets no account; someone not on the site neither.
//
// Threading: the functions are pure except storedPanelRole, which reads the caller's Database
// (single writer or a reader connection, store/database.h). Errors: the store's, as values.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "domain/site/site_model.h"
#include "store/database.h"

namespace atoms::panel {

enum class PanelRole { kLead = 1, kManager = 2, kOwner = 3 };
std::string_view panelRoleName(PanelRole role);  // "lead", "manager", "owner"

// What the panel lets a person do; each needs a least role (requiredRole), documented in
// docs/panel-accounts.md. The HTTPS server maps each of its state-changing routes to one.
enum class PanelAction {
  kViewBoard,         // lead: today's board, schedule, open call-outs, alerts, findings
  kAcknowledgeAlert,  // lead: acknowledge a safety alert
  kViewAuditLog,      // manager: the audit log and receipts
  kApprove,           // manager: PROPOSE_CONFIRM items (overtime...), call-out decisions
  kEditSchedule,      // manager: shifts and assignments
  kFreezeOutreach,    // manager: kill switch L1 and lifting it
  kInviteLead,        // manager: panel invites for leads
  kStopSite,          // owner: kill switch L2/L3
  kInviteManager,     // owner: panel invites for managers and owners
  kManageAccounts,    // owner: disable accounts, end someone's sessions
  kChangePolicy,      // owner: graduation, breakers, configuration, sync
};
std::string_view panelActionName(PanelAction action);  // "view_board", ...
PanelRole requiredRole(PanelAction action);
// Whether `role` may do `action` (role >= requiredRole(action)).
bool allows(PanelRole role, PanelAction action);
// The action of inviting a person of `role`: kInviteLead for a lead, else kInviteManager.
PanelAction inviteActionFor(PanelRole role);

// The role of `personId` in `model` with `owners` (policy.owners); nullopt when the person is not
// on the site or has none of the three roles.
std::optional<PanelRole> panelRoleOf(const site::SiteModel& model,
                                     const std::vector<std::string>& owners,
                                     std::string_view personId);
// The same from the stored site (a few point queries, no model load).
Result<std::optional<PanelRole>> storedPanelRole(Database& db,
                                                 const std::vector<std::string>& owners,
                                                 std::string_view personId);

}  // namespace atoms::panel
