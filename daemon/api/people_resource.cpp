#include "daemon/api/people_resource.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "base/timestamp.h"
#include "daemon/api/callout_json.h"
#include "daemon/api/offers_resource.h"
#include "domain/site/floor_board.h"
#include "domain/site/site_model.h"
#include "sms/mailbox/message_checks.h"

namespace atoms::api {
namespace {

struct PersonRow {
  std::string id;
  std::string name;
  std::string phone;
  std::string birthDate;
  bool minor = false;
  bool consent = false;
  std::string managerId;
};

// Runs `sql` (no parameters) and calls `row` for each result row.
template <typename Row>
Status eachRow(Database& db, std::string_view sql, Row row) {
  auto stmt = db.cached(sql);
  if (!stmt) return stmt.error();
  for (;;) {
    auto more = stmt->step();
    if (!more) return more.error();
    if (!*more) return Status::success();
    row(*stmt);
  }
}

using Days = std::chrono::sys_days;

// "ok", "expiring" or "expired" for a certification expiring on `expires` ("" never expires).
std::string certificationState(const std::string& expires, Days today) {
  if (expires.empty()) return "ok";
  const std::optional<site::Date> date = site::parseDate(expires);
  if (!date) return "ok";
  const Days until{*date};
  if (until < today) return "expired";
  if (until <= today + std::chrono::days(kCertificationWarningDays)) return "expiring";
  return "ok";
}

bool youngerThan18(const std::string& birthDate, Days today) {
  const std::optional<site::Date> born = site::parseDate(birthDate);
  if (!born) return false;
  const std::chrono::year adult = born->year() + std::chrono::years(18);
  site::Date eighteenth{adult, born->month(), born->day()};
  // Born on 29 February: 18 on 1 March of a common year.
  if (!eighteenth.ok()) eighteenth = site::Date{adult, std::chrono::March, std::chrono::day(1)};
  return today < Days{eighteenth};
}

struct PeopleTables {
  std::vector<PersonRow> people;
  std::map<std::string, std::string> stationNames;
  std::map<std::string, json::Array> stations;  // person -> [{"id","name"}]
  std::map<std::string, std::vector<std::array<std::string, 3>>> certs;  // id, name, expires
  std::set<std::string> optedOut;                                        // phones
  std::map<std::string, std::int64_t> paused;                            // phone -> paused_at (ms)
  std::map<std::string, std::string> accounts;  // person -> "active" | "disabled"
  std::set<std::string> managers;               // someone's manager of record
  std::set<std::string> leads;                  // can work a shift_lead station
};

Status readPeopleTables(Database& db, PeopleTables& t) {
  if (Status s = eachRow(db,
                         "SELECT id, name, phone, birth_date, minor, sms_consent, manager_id"
                         " FROM site_person ORDER BY position",
                         [&](Statement& r) {
                           t.people.push_back(PersonRow{
                               r.columnText(0), r.columnText(1), r.columnText(2), r.columnText(3),
                               r.columnInt64(4) != 0, r.columnInt64(5) != 0, r.columnText(6)});
                           if (!r.columnIsNull(6)) t.managers.insert(r.columnText(6));
                         });
      !s) {
    return s;
  }
  if (Status s = eachRow(db, "SELECT id, name FROM site_station",
                         [&](Statement& r) { t.stationNames[r.columnText(0)] = r.columnText(1); });
      !s) {
    return s;
  }
  if (Status s = eachRow(db,
                         "SELECT person_id, station_id FROM site_person_role"
                         " ORDER BY person_id, position",
                         [&](Statement& r) {
                           const std::string station = r.columnText(1);
                           auto name = t.stationNames.find(station);
                           t.stations[r.columnText(0)].push_back(json::Object{
                               {"id", station},
                               {"name", name == t.stationNames.end() ? station : name->second}});
                         });
      !s) {
    return s;
  }
  if (Status s = eachRow(db,
                         "SELECT pc.person_id, pc.certification_id, c.name, pc.expires"
                         " FROM site_person_certification pc LEFT JOIN site_certification c"
                         " ON c.id = pc.certification_id ORDER BY pc.person_id, pc.position",
                         [&](Statement& r) {
                           const std::string id = r.columnText(1);
                           t.certs[r.columnText(0)].push_back(
                               {id, r.columnIsNull(2) ? id : r.columnText(2), r.columnText(3)});
                         });
      !s) {
    return s;
  }
  if (Status s = eachRow(db, "SELECT phone FROM sms_contact_state WHERE opted_out = 1",
                         [&](Statement& r) { t.optedOut.insert(r.columnText(0)); });
      !s) {
    return s;
  }
  if (Status s = eachRow(db, "SELECT phone, paused_at FROM sms_offers_paused",
                         [&](Statement& r) { t.paused[r.columnText(0)] = r.columnInt64(1); });
      !s) {
    return s;
  }
  if (Status s = eachRow(db, "SELECT person_id, state FROM panel_account",
                         [&](Statement& r) { t.accounts[r.columnText(0)] = r.columnText(1); });
      !s) {
    return s;
  }
  return eachRow(db,
                 "SELECT DISTINCT r.person_id FROM site_person_role r JOIN site_station_tag t"
                 " ON t.station_id = r.station_id WHERE t.tag = 'shift_lead'",
                 [&](Statement& r) { t.leads.insert(r.columnText(0)); });
}

json::Value panelRoleOf(const PeopleTables& t, const std::vector<std::string>& owners,
                        const std::string& id) {
  if (std::find(owners.begin(), owners.end(), id) != owners.end()) return "owner";
  if (t.managers.count(id) != 0) return "manager";
  if (t.leads.count(id) != 0) return "lead";
  return json::Value();
}

}  // namespace

std::vector<std::string> PeopleResource::methods(std::string_view path) const {
  if (path == kPeoplePath) return {"GET"};
  return {};
}

ApiAnswer PeopleResource::handle(const ApiRequest& request) {
  auto found = rolesOrRefusal(access_.roles, request.person);
  if (auto* refused = std::get_if<ApiAnswer>(&found)) return *refused;
  const policy::PanelRoles& who = std::get<policy::PanelRoles>(found);
  const bool managerView = who.owner || who.managerOfRecord;
  Database& db = access_.db();
  const TimePoint now = access_.now();
  PeopleTables t;
  if (Status s = readPeopleTables(db, t); !s) return apiStoreFailed("read the people", s.error());
  auto names = peopleNames(db);
  if (!names) return apiStoreFailed("read the people", names.error());
  auto board = site::floorBoard(db, std::chrono::time_point_cast<std::chrono::seconds>(now),
                                access_.noShowGrace);
  if (!board) return apiStoreFailed("read the time clock", board.error());
  std::map<std::string, json::Array> today;
  for (const site::FloorShift& s : *board) {
    if (s.personId.empty()) continue;
    today[s.personId].push_back(
        json::Object{{"shift", s.shiftId},
                     {"station", s.stationId},
                     {"start", formatTimestamp(s.start)},
                     {"end", formatTimestamp(s.end)},
                     {"state", std::string(site::floorStateName(s.state))}});
  }
  const Days day = std::chrono::floor<std::chrono::days>(now);
  json::Array people;
  for (const PersonRow& p : t.people) {
    json::Object o{
        {"id", p.id}, {"name", p.name}, {"stations", t.stations[p.id]}, {"today", today[p.id]}};
    if (managerView) {
      json::Array certs;
      for (const auto& [id, name, expires] : t.certs[p.id]) {
        certs.push_back(
            json::Object{{"id", id},
                         {"name", name},
                         {"expires", expires.empty() ? json::Value() : json::Value(expires)},
                         {"state", certificationState(expires, day)}});
      }
      const bool ownManager = !p.managerId.empty() && p.managerId == request.person;
      json::Value paused;
      if (auto it = t.paused.find(p.phone); it != t.paused.end()) {
        paused = json::Object{
            {"since", formatTimestamp(TimePoint{std::chrono::milliseconds(it->second)})}};
      }
      auto account = t.accounts.find(p.id);
      o["certifications"] = std::move(certs);
      o["minor"] = p.minor || youngerThan18(p.birthDate, day);
      o["managerOfRecord"] = p.managerId.empty() ? json::Value() : personRef(*names, p.managerId);
      o["panelRole"] = panelRoleOf(t, access_.owners, p.id);
      o["panelAccount"] =
          account == t.accounts.end() ? json::Value() : json::Value(account->second);
      o["phone"] = who.owner || ownManager ? p.phone : sms::mailbox::maskNumber(p.phone);
      o["sms"] = json::Object{{"consent", p.consent}, {"optedOut", t.optedOut.count(p.phone) != 0}};
      o["mayResume"] = !paused.isNull() && (who.owner || ownManager);
      o["offersPaused"] = std::move(paused);
    }
    people.push_back(std::move(o));
  }
  return apiOk(json::Object{{"now", formatTimestamp(now)},
                            {"view", managerView ? "manager" : "lead"},
                            {"people", std::move(people)}});
}

}  // namespace atoms::api
