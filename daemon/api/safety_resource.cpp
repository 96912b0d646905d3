#include "daemon/api/safety_resource.h"

#include <map>
#include <utility>

#include "base/timestamp.h"
#include "daemon/api/approval_json.h"
#include "daemon/api/callout_json.h"
#include "sms/mailbox/message_checks.h"

namespace atoms::api {
namespace {

constexpr std::string_view kIncidentsPrefix = "/v1/safety/incidents/";
constexpr std::string_view kAckSuffix = "/ack";

// "/v1/safety/incidents/12/ack": 12; nullopt for anything else.
std::optional<std::int64_t> ackRoute(std::string_view path) {
  if (!path.starts_with(kIncidentsPrefix) || !path.ends_with(kAckSuffix)) return std::nullopt;
  const std::string_view id = path.substr(
      kIncidentsPrefix.size(), path.size() - kIncidentsPrefix.size() - kAckSuffix.size());
  return parseIdSegment(id);
}

using PeopleByPhone = std::map<std::string, std::pair<std::string, std::string>>;  // id, name

Result<PeopleByPhone> peopleByPhone(Database& db) {
  auto stmt = db.cached("SELECT phone, id, name FROM site_person");
  if (!stmt) return stmt.error();
  PeopleByPhone out;
  for (;;) {
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row) return out;
    out[stmt->columnText(0)] = {stmt->columnText(1), stmt->columnText(2)};
  }
}

json::Value phoneRef(const PeopleByPhone& people, const std::string& phone) {
  if (auto it = people.find(phone); it != people.end()) {
    return json::Object{{"id", it->second.first}, {"name", it->second.second}};
  }
  return json::Object{{"phone", sms::mailbox::maskNumber(phone)}};
}

json::Value optionalTime(Statement& s, int column) {
  if (s.columnIsNull(column)) return json::Value();
  return formatTimestamp(TimePoint{std::chrono::milliseconds(s.columnInt64(column))});
}

Status incidentsWhere(Database& db, std::string_view sql, const PeopleByPhone& people,
                      json::Array& out) {
  auto stmt = db.cached(sql);
  if (!stmt) return stmt.error();
  for (;;) {
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row) return Status::success();
    Statement& s = *stmt;
    json::Array alerted;
    const std::string recipients = s.columnText(8);
    std::size_t from = 0;
    while (from < recipients.size()) {
      std::size_t comma = recipients.find(',', from);
      if (comma == std::string::npos) comma = recipients.size();
      if (comma > from) alerted.push_back(phoneRef(people, recipients.substr(from, comma - from)));
      from = comma + 1;
    }
    const std::string ackBy = s.columnText(9);
    const bool open = s.columnText(5) == "open";
    out.push_back(json::Object{
        {"id", s.columnInt64(0)},
        {"openedAt", optionalTime(s, 1)},
        {"reporter", phoneRef(people, s.columnText(2))},
        {"category", s.columnText(4)},
        {"state", open ? "open" : "acknowledged"},
        {"rounds", s.columnInt64(6)},
        {"nextReminderAt", open ? optionalTime(s, 7) : json::Value()},
        {"alerted", std::move(alerted)},
        {"acknowledgedBy", open || ackBy.empty() ? json::Value() : phoneRef(people, ackBy)},
        {"acknowledgedAt", optionalTime(s, 10)}});
  }
}

constexpr std::string_view kIncidentSelect =
    "SELECT id, opened_at, reporter, person_id, category, state, rounds, next_alert_at,"
    " recipients, acknowledged_by, acknowledged_at FROM safety_incident";

Result<json::Value> checklistsJson(Database& db, const std::vector<ChecklistToday>& lists,
                                   TimePoint now, const PeopleNames& names) {
  json::Array out;
  for (const ChecklistToday& c : lists) {
    auto stmt = db.cached(
        "SELECT at, person_id, temperature_tenths_f, in_range FROM checklist_entry"
        " WHERE checklist_id = ? AND local_day = ? ORDER BY at LIMIT 1");
    if (!stmt) return stmt.error();
    stmt->bind(1, c.id).bind(2, c.day);
    auto row = stmt->step();
    if (!row) return row.error();
    json::Value done;
    if (*row) {
      Statement& r = *stmt;
      done = json::Object{
          {"at", optionalTime(r, 0)},
          {"by", personRef(names, r.columnText(1))},
          {"readingTenthsF", r.columnIsNull(2) ? json::Value() : json::Value(r.columnInt64(2))},
          {"inRange", r.columnIsNull(3) ? json::Value() : json::Value(r.columnInt64(3) != 0)}};
    }
    std::string state = "upcoming";
    if (!done.isNull()) {
      state = "done";
    } else if (now >= c.overdueAt) {
      state = "overdue";
    } else if (now >= c.dueAt) {
      state = "due";
    }
    json::Value owner =
        c.ownerPerson.empty()
            ? json::Value(json::Object{{"station", c.ownerStation}})
            : json::Value(json::Object{{"person", personRef(names, c.ownerPerson)}});
    out.push_back(json::Object{{"id", c.id},
                               {"name", c.name},
                               {"dueAt", formatTimestamp(c.dueAt)},
                               {"overdueAt", formatTimestamp(c.overdueAt)},
                               {"owner", std::move(owner)},
                               {"temperature", c.temperature},
                               {"state", std::move(state)},
                               {"done", std::move(done)}});
  }
  return json::Value(std::move(out));
}

}  // namespace

std::vector<std::string> SafetyResource::methods(std::string_view path) const {
  if (path == kSafetyPath) return {"GET"};
  if (ackRoute(path)) return {"POST"};
  return {};
}

ApiAnswer SafetyResource::handle(const ApiRequest& request) {
  auto found = rolesOrRefusal(access_.roles, request.person);
  if (auto* refused = std::get_if<ApiAnswer>(&found)) return *refused;
  if (const std::optional<std::int64_t> id = ackRoute(request.path)) {
    const policy::PanelRoles& who = std::get<policy::PanelRoles>(found);
    if (!who.owner && !who.managerOfRecord) {
      auto lead = access_.lead(request.person);
      if (!lead) return apiStoreFailed("read the site", lead.error());
      if (!*lead) {
        return apiRefusal(403,
                          "only an owner, a manager or a shift lead acknowledges safety alerts on "
                          "the panel; if you were texted the alert, reply ACK " +
                              std::to_string(*id),
                          "not an owner, manager or lead");
      }
    }
    return acknowledge(request, *id);
  }
  Database& db = access_.db();
  auto people = peopleByPhone(db);
  if (!people) return apiStoreFailed("read the site", people.error());
  json::Array incidents;
  if (Status s =
          incidentsWhere(db, std::string(kIncidentSelect) + " WHERE state = 'open' ORDER BY id",
                         *people, incidents);
      !s) {
    return apiStoreFailed("read the safety incidents", s.error());
  }
  if (Status s = incidentsWhere(db,
                                std::string(kIncidentSelect) +
                                    " WHERE state = 'acknowledged' ORDER BY id DESC LIMIT " +
                                    std::to_string(kRecentIncidents),
                                *people, incidents);
      !s) {
    return apiStoreFailed("read the safety incidents", s.error());
  }
  const TimePoint now = access_.now();
  json::Value checklists;
  const std::optional<std::vector<ChecklistToday>> due =
      access_.checklists ? access_.checklists(now) : std::nullopt;
  if (due) {
    auto names = peopleNames(db);
    if (!names) return apiStoreFailed("read the site", names.error());
    auto lists = checklistsJson(db, *due, now, *names);
    if (!lists) return apiStoreFailed("read the checklists", lists.error());
    checklists = std::move(*lists);
  }
  return apiOk(json::Object{{"now", formatTimestamp(now)},
                            {"incidents", std::move(incidents)},
                            {"checklists", std::move(checklists)}});
}

ApiAnswer SafetyResource::acknowledge(const ApiRequest& request, std::int64_t incident) {
  auto body = parseBodyObject(request.body);
  if (!body) return apiRefusal(400, body.message(), body.message());
  if (!body->empty()) return apiRefusal(400, "the body must be {}", "the body must be {}");
  if (!access_.acknowledge) {
    return apiRefusal(503,
                      "the SMS desk is not running; reply ACK " + std::to_string(incident) +
                          " by text, or try again",
                      "no safety desk");
  }
  auto done = access_.acknowledge(request.person, incident);
  if (!done) return apiStoreFailed("acknowledge the alert", done.error());
  if (!*done) {
    return apiRefusal(503,
                      "the SMS desk is not running; reply ACK " + std::to_string(incident) +
                          " by text, or try again",
                      "no safety desk");
  }
  const std::string id = std::to_string(incident);
  switch (**done) {
    case SafetyAckOutcome::kUnknown:
      return apiRefusal(404, "no safety incident " + id, "no such incident");
    case SafetyAckOutcome::kClosed:
      return apiRefusal(409, "safety incident " + id + " was acknowledged already",
                        "acknowledged already");
    case SafetyAckOutcome::kAcknowledged:
      break;
  }
  return apiOk(json::Object{
      {"outcome", "acknowledged"},
      {"message", "Thank you: you are on safety alert " + id +
                      ". The person who reported it and the people alerted are told."}});
}

}  // namespace atoms::api
