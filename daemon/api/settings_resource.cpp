#include "daemon/api/settings_resource.h"

#include <algorithm>

#include "base/timestamp.h"
#include "daemon/api/callout_json.h"
#include "daemon/panel/panel_roles.h"
#include "sync/sync_state.h"

namespace atoms::api {
namespace {

Result<json::Value> settingsSyncJson(SiteStore& store, bool configured) {
  auto acked = sync::loadAckedState(store.db());
  if (!acked) return acked.error();
  const std::uint64_t size = store.log().size();
  return json::Value(
      json::Object{{"brokerConfigured", configured},
                   {"logSize", static_cast<std::int64_t>(size)},
                   {"ackedSize", static_cast<std::int64_t>(acked->size)},
                   {"backlog", static_cast<std::int64_t>(size - std::min(size, acked->size))}});
}

// {"on": false, "ids": []} when there is no `ids` (the terminals are off), else the ids.
Result<json::Value> terminalIdsJson(const std::function<Result<std::vector<std::string>>()>& ids) {
  if (!ids) return json::Value(json::Object{{"on", false}, {"ids", json::Array{}}});
  auto read = ids();
  if (!read) return read.error();
  json::Array out;
  for (const std::string& id : *read) out.push_back(id);
  return json::Value(json::Object{{"on", true}, {"ids", std::move(out)}});
}

Result<json::Array> accountsJson(Database& db, const std::vector<std::string>& owners,
                                 const PeopleNames& names) {
  struct Row {
    std::string person;
    std::string state;
    std::optional<std::int64_t> lastSignIn;
  };
  std::vector<Row> rows;
  {
    auto stmt = db.cached(
        "SELECT a.person_id, a.state, (SELECT MAX(s.created_at) FROM panel_session s"
        " WHERE s.person_id = a.person_id) FROM panel_account a ORDER BY a.person_id");
    if (!stmt) return stmt.error();
    for (;;) {
      auto row = stmt->step();
      if (!row) return row.error();
      if (!*row) break;
      rows.push_back(
          Row{stmt->columnText(0), stmt->columnText(1),
              stmt->columnIsNull(2) ? std::nullopt : std::optional(stmt->columnInt64(2))});
    }
  }
  json::Array out;
  for (const Row& r : rows) {
    auto role = panel::storedPanelRole(db, owners, r.person);
    if (!role) return role.error();
    json::Value last;
    if (r.lastSignIn) last = formatTimestamp(TimePoint{std::chrono::milliseconds(*r.lastSignIn)});
    out.push_back(json::Object{
        {"person", personRef(names, r.person)},
        {"role", *role ? json::Value(std::string(panel::panelRoleName(**role))) : json::Value()},
        {"state", r.state},
        {"lastSignInAt", std::move(last)}});
  }
  return out;
}

}  // namespace

std::vector<std::string> SettingsResource::methods(std::string_view path) const {
  if (path == kSettingsPath) return {"GET"};
  return {};
}

ApiAnswer SettingsResource::handle(const ApiRequest& request) {
  auto found = rolesOrRefusal(access_.roles, request.person);
  if (auto* refused = std::get_if<ApiAnswer>(&found)) return *refused;
  const policy::PanelRoles& who = std::get<policy::PanelRoles>(found);
  if (!who.owner && !who.managerOfRecord) {
    return apiRefusal(403, "the settings are for the owners and managers of the site",
                      "not an owner or manager");
  }
  SiteStore& store = access_.store();
  auto names = peopleNames(store.db());
  if (!names) return apiStoreFailed("read the site", names.error());
  auto sync = settingsSyncJson(store, access_.syncConfigured);
  if (!sync) return apiStoreFailed("read the sync state", sync.error());
  auto terminals = terminalIdsJson(access_.terminalIds);
  if (!terminals) return apiRefusal(503, terminals.message(), terminals.message());
  json::Object apiTokens{{"on", false}, {"people", json::Array{}}};
  if (access_.apiTokenPeople) {
    auto ids = access_.apiTokenPeople();
    if (!ids) return apiRefusal(503, ids.message(), ids.message());
    json::Array people;
    for (const std::string& id : *ids) people.push_back(personRef(*names, id));
    apiTokens = json::Object{{"on", true}, {"people", std::move(people)}};
  }
  auto accounts = accountsJson(store.db(), access_.owners, *names);
  if (!accounts) return apiStoreFailed("read the panel accounts", accounts.error());
  return apiOk(json::Object{
      {"sms", json::Object{{"driver", access_.smsDriver},
                           {"connection",
                            access_.smsConnection ? access_.smsConnection() : json::Value()}}},
      {"sync", std::move(*sync)},
      {"terminals", std::move(*terminals)},
      {"apiTokens", std::move(apiTokens)},
      {"pos", access_.pos ? access_.pos() : json::Value(json::Object{{"on", false}})},
      {"panelAccounts", std::move(*accounts)}});
}

}  // namespace atoms::api
