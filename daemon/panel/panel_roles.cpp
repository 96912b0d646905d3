#include "daemon/panel/panel_roles.h"

#include <algorithm>

namespace atoms::panel {
namespace {

constexpr std::string_view kShiftLeadTag = "shift_lead";

bool isOwner(const std::vector<std::string>& owners, std::string_view personId) {
  return std::find(owners.begin(), owners.end(), personId) != owners.end();
}

}  // namespace

std::string_view panelRoleName(PanelRole role) {
  switch (role) {
    case PanelRole::kLead:
      return "lead";
    case PanelRole::kManager:
      return "manager";
    case PanelRole::kOwner:
      return "owner";
  }
  return "lead";
}

std::string_view panelActionName(PanelAction action) {
  switch (action) {
    case PanelAction::kViewBoard:
      return "view_board";
    case PanelAction::kAcknowledgeAlert:
      return "acknowledge_alert";
    case PanelAction::kViewAuditLog:
      return "view_audit_log";
    case PanelAction::kApprove:
      return "approve";
    case PanelAction::kEditSchedule:
      return "edit_schedule";
    case PanelAction::kFreezeOutreach:
      return "freeze_outreach";
    case PanelAction::kInviteLead:
      return "invite_lead";
    case PanelAction::kStopSite:
      return "stop_site";
    case PanelAction::kInviteManager:
      return "invite_manager";
    case PanelAction::kManageAccounts:
      return "manage_accounts";
    case PanelAction::kChangePolicy:
      return "change_policy";
  }
  return "unknown";
}

PanelRole requiredRole(PanelAction action) {
  switch (action) {
    case PanelAction::kViewBoard:
    case PanelAction::kAcknowledgeAlert:
      return PanelRole::kLead;
    case PanelAction::kViewAuditLog:
    case PanelAction::kApprove:
    case PanelAction::kEditSchedule:
    case PanelAction::kFreezeOutreach:
    case PanelAction::kInviteLead:
      return PanelRole::kManager;
    case PanelAction::kStopSite:
    case PanelAction::kInviteManager:
    case PanelAction::kManageAccounts:
    case PanelAction::kChangePolicy:
      return PanelRole::kOwner;
  }
  return PanelRole::kOwner;  // an action nobody listed is the owner's
}

bool allows(PanelRole role, PanelAction action) {
  return static_cast<int>(role) >= static_cast<int>(requiredRole(action));
}

PanelAction inviteActionFor(PanelRole role) {
  return role == PanelRole::kLead ? PanelAction::kInviteLead : PanelAction::kInviteManager;
}

std::optional<PanelRole> panelRoleOf(const site::SiteModel& model,
                                     const std::vector<std::string>& owners,
                                     std::string_view personId) {
  const site::SiteIndex index(model);
  const site::Person* person = index.person(personId);
  if (person == nullptr) return std::nullopt;
  if (isOwner(owners, personId)) return PanelRole::kOwner;
  for (const site::Person& other : model.people) {
    if (other.managerOfRecord && *other.managerOfRecord == personId) return PanelRole::kManager;
  }
  for (const std::string& stationId : person->roles) {
    const site::Station* station = index.station(stationId);
    if (station == nullptr) continue;
    const auto& tags = station->tags;
    if (std::find(tags.begin(), tags.end(), kShiftLeadTag) != tags.end()) return PanelRole::kLead;
  }
  return std::nullopt;
}

Result<std::optional<PanelRole>> storedPanelRole(Database& db,
                                                 const std::vector<std::string>& owners,
                                                 std::string_view personId) {
  const auto exists = [&](std::string_view sql) -> Result<bool> {
    auto stmt = db.cached(sql);
    if (!stmt) return stmt.error();
    stmt->bind(1, personId);
    auto row = stmt->step();
    if (!row) return row.error();
    return *row;
  };
  auto onSite = exists("SELECT 1 FROM site_person WHERE id = ?");
  if (!onSite) return onSite.error();
  if (!*onSite) return std::optional<PanelRole>();
  if (isOwner(owners, personId)) return std::optional<PanelRole>(PanelRole::kOwner);
  auto manager = exists("SELECT 1 FROM site_person WHERE manager_id = ? LIMIT 1");
  if (!manager) return manager.error();
  if (*manager) return std::optional<PanelRole>(PanelRole::kManager);
  auto lead = exists(
      "SELECT 1 FROM site_person_role r JOIN site_station_tag t ON t.station_id = r.station_id"
      " WHERE r.person_id = ? AND t.tag = 'shift_lead' LIMIT 1");
  if (!lead) return lead.error();
  if (*lead) return std::optional<PanelRole>(PanelRole::kLead);
  return std::optional<PanelRole>();
}

}  // namespace atoms::panel
