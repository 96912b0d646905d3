#include "daemon/api/site_json.h"

namespace atoms::api {

Result<PeopleNames> peopleNames(Database& db) {
  auto stmt = db.cached("SELECT id, name FROM site_person");
  if (!stmt) return stmt.error();
  PeopleNames names;
  for (;;) {
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row) return names;
    names[stmt->columnText(0)] = stmt->columnText(1);
  }
}

json::Value personRef(const PeopleNames& names, const std::string& id) {
  if (id.empty()) return json::Value();
  const auto it = names.find(id);
  return json::Object{{"id", id}, {"name", it == names.end() ? std::string() : it->second}};
}

Result<json::Value> siteJson(Database& db) {
  auto stmt = db.cached("SELECT site_id, name, time_zone FROM site_info WHERE id = 1");
  if (!stmt) return stmt.error();
  auto row = stmt->step();
  if (!row) return row.error();
  if (!*row) return json::Value();
  json::Object site{{"id", stmt->columnText(0)},
                    {"name", stmt->columnText(1)},
                    {"timeZone", stmt->columnText(2)}};
  auto stations = db.cached("SELECT id, name FROM site_station ORDER BY position");
  if (!stations) return stations.error();
  json::Array list;
  for (;;) {
    auto next = stations->step();
    if (!next) return next.error();
    if (!*next) break;
    list.push_back(
        json::Object{{"id", stations->columnText(0)}, {"name", stations->columnText(1)}});
  }
  site.emplace("stations", std::move(list));
  return json::Value(std::move(site));
}

}  // namespace atoms::api
