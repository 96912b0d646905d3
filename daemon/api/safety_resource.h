// SafetyResource: the panel's Safety page (docs/api.md, "Safety"):
//   GET  /v1/safety                      {"now","incidents":[{"id","openedAt","category","state",
//                                         "rounds","nextReminderAt","reporter","alerted":[...],
//                                         "acknowledgedBy","acknowledgedAt"}],
//                                         "checklists":[{"id","name","dueAt","overdueAt","owner",
//                                         "temperature","state","done"}] or null}: the open
//                                         incidents first (oldest first), then the last
//                                         kRecentIncidents acknowledged (newest first). A person is
//                                         {"id","name"} when on the site, else {"phone"} masked;
//                                         phone numbers are always masked here.
//   POST /v1/safety/incidents/{id}/ack   {}: closes the incident through the same path as an
//                                         "ACK <id>" text (SafetyDesk::acknowledgeFromPanel): the
//                                         reporter and the people alerted are told who is on it,
//                                         audited "safety.acknowledge" with via "panel".
//                                         200 {"outcome":"acknowledged","message"}.
// "checklists" are today's (site day) with due times (sms/conversation/checklist_desk.h), in due
// order; "state" is "done", "overdue" (past due + grace), "due" or "upcoming"; "done" the first
// entry of the day {"at","by","readingTenthsF","inRange"} or null; null without checklists.
// Reading is for anyone of the site. Acknowledging is for owners, managers of record and leads
// (panel_roles.h kAcknowledgeAlert), whether or not they were texted: a person on the panel who
// takes it on is on it (docs/decisions/0024-panel-people-and-safety.md). 403 for anyone else
// (they acknowledge by text when alerted), 404 for no such incident, 409 when it was acknowledged
// already, 400 for a body other than {}, 503 when the SMS desk is not running.
//
// Threading: as ApiResource; every access function runs on the writer.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/time_point.h"
#include "daemon/api/api_resource.h"
#include "store/database.h"

namespace atoms::api {

inline constexpr char kSafetyPath[] = "/v1/safety";
inline constexpr int kRecentIncidents = 20;

enum class SafetyAckOutcome { kAcknowledged, kUnknown, kClosed };

// One checklist's due time today (ChecklistDesk::dueToday).
struct ChecklistToday {
  std::string id;
  std::string name;
  std::string day;  // site local, YYYY-MM-DD
  TimePoint dueAt{};
  TimePoint overdueAt{};
  std::string ownerPerson;  // one of these two
  std::string ownerStation;
  bool temperature = false;
};

struct SafetyAccess {
  RolesLookup roles;
  // Whether the person is a lead of the site (can work a station tagged shift_lead).
  std::function<Result<bool>(const std::string& person)> lead;
  std::function<Database&()> db;
  std::function<TimePoint()> now;
  // Today's checklists at `now`; nullopt (or a null function): the site has none, or the SMS
  // layer is not running.
  std::function<std::optional<std::vector<ChecklistToday>>(TimePoint now)> checklists;
  // Acknowledges `incident` for `person` in one audited transaction; nullopt when the SMS desk is
  // not running (nothing done). Null function: the same.
  std::function<Result<std::optional<SafetyAckOutcome>>(const std::string& person,
                                                        std::int64_t incident)>
      acknowledge;
};

class SafetyResource final : public ApiResource {
 public:
  explicit SafetyResource(SafetyAccess access) : access_(std::move(access)) {}
  std::vector<std::string> methods(std::string_view path) const override;
  ApiAnswer handle(const ApiRequest& request) override;

 private:
  ApiAnswer acknowledge(const ApiRequest& request, std::int64_t incident);

  SafetyAccess access_;
};

}  // namespace atoms::api
