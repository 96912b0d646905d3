#include "daemon/api/api_resource.h"

#include <algorithm>

#include "domain/site/site_repository.h"
#include "drivers/http/http_service.h"
#include "drivers/http/printable.h"

namespace atoms::api {

ApiAnswer apiOk(const json::Value& body) { return {200, json::canonical(body), "", false}; }

ApiAnswer apiRefusal(int status, const std::string& error, std::string reason, bool audited) {
  return {status, drivers::jsonError(error), std::move(reason), audited};
}

ApiAnswer apiStoreFailed(const std::string& what, const Error& error) {
  return apiRefusal(503, "the box could not " + what + "; try again",
                    "store: " + drivers::printable(error.message, 300));
}

Result<std::optional<policy::PanelRoles>> siteRoles(Database& db,
                                                    const std::vector<std::string>& owners,
                                                    const std::string& person) {
  auto standing = site::personStanding(db, person);
  if (!standing) return standing.error();
  if (!standing->onSite) return std::optional<policy::PanelRoles>();
  const bool owner = std::find(owners.begin(), owners.end(), person) != owners.end();
  return std::optional<policy::PanelRoles>(policy::PanelRoles{owner, standing->managerOfRecord});
}

std::variant<policy::PanelRoles, ApiAnswer> rolesOrRefusal(const RolesLookup& roles,
                                                           const std::string& person) {
  auto found = roles(person);
  if (!found) return apiStoreFailed("read the site", found.error());
  if (!*found) {
    return apiRefusal(403, "the token's person is not a person of this site",
                      "person '" + person + "' is not on the site");
  }
  return **found;
}

Result<std::map<std::string, std::string>> queryParameters(std::string_view query,
                                                           const std::vector<std::string>& names) {
  std::map<std::string, std::string> out;
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view item = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    const std::size_t eq = item.find('=');
    const std::string name(item.substr(0, eq));
    if (eq == std::string_view::npos ||
        std::find(names.begin(), names.end(), name) == names.end()) {
      return makeError("query: unexpected '" + drivers::printable(item, 40) + "'");
    }
    out[name] = std::string(item.substr(eq + 1));
  }
  return out;
}

Result<std::chrono::local_days> dayParameter(const std::string& field, const std::string& text) {
  const auto date = site::parseDate(text);
  if (!date) return makeError(field + ": '" + drivers::printable(text, 20) + "' is not YYYY-MM-DD");
  return std::chrono::local_days(*date);
}

std::optional<std::int64_t> parseIdSegment(std::string_view text) {
  if (text.empty() || text.size() > 15 || text.front() == '0' ||
      text.find_first_not_of("0123456789") != std::string_view::npos) {
    return std::nullopt;
  }
  return std::stoll(std::string(text));
}

std::optional<ItemTarget> itemRoute(std::string_view path, std::string_view base,
                                    std::string_view action) {
  if (path == base) return ItemTarget{ItemRoute::kList, 0};
  if (path.substr(0, base.size()) != base || path.size() <= base.size() + 1 ||
      path[base.size()] != '/') {
    return std::nullopt;
  }
  std::string_view rest = path.substr(base.size() + 1);
  const std::size_t slash = rest.find('/');
  const std::optional<std::int64_t> id = parseIdSegment(rest.substr(0, slash));
  if (!id) return std::nullopt;
  if (slash == std::string_view::npos) return ItemTarget{ItemRoute::kOne, *id};
  if (rest.substr(slash + 1) == action) return ItemTarget{ItemRoute::kAction, *id};
  return std::nullopt;
}

}  // namespace atoms::api
