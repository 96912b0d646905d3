// ApiResource: one more resource of the box's JSON API (docs/api.md) beside the approvals, served
// by the same server (approvals_server.h) on the same port with the same bearer tokens. The server
// does the common part for every resource: routing by path, the allowed methods (405 with Allow),
// the token (401), the body limit (413), running the work on the writer with a deadline (503) and
// reporting every answer but a 200 for the refusal audit. A resource says which paths it serves
// and answers one request on the writer.
//
// Threading: methods() is called from the server's threads (it must only look at the path);
// handle() runs on the writer (the engine thread), one request at a time.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "base/canonical_json.h"
#include "base/result.h"
#include "domain/policy/panel_kill_switch.h"
#include "store/database.h"

namespace atoms::api {

struct ApiRequest {
  std::string method;  // "GET", "POST"
  std::string path;    // without the query
  std::string query;   // after '?', as sent; empty when none
  std::string person;  // the caller's person id (the token's, or the panel session's)
  std::string body;    // POST: the body (at most the server's limit); else empty
};

// What the writer hands back to the server thread.
struct ApiAnswer {
  int status = 503;
  std::string body;
  std::string reason;    // for the refusal audit; empty on 200
  bool audited = false;  // the handler audited the refusal itself
};

// 200 with the canonical JSON of `body`.
ApiAnswer apiOk(const json::Value& body);
// `status` with {"error": error}; `reason` goes to the refusal audit.
ApiAnswer apiRefusal(int status, const std::string& error, std::string reason,
                     bool audited = false);
// 503 "the box could not <what>; try again" for an error of the store (its text to the audit).
ApiAnswer apiStoreFailed(const std::string& what, const Error& error);

// A person's roles on the site read from `db`: owner when in `owners` (policy.owners), manager of
// record when someone's managerOfRecord; nullopt when the person is not on the site.
Result<std::optional<policy::PanelRoles>> siteRoles(Database& db,
                                                    const std::vector<std::string>& owners,
                                                    const std::string& person);

// A person's roles on the site (policy.owners, managers of record); nullopt when the person is
// not on the site. Called on the writer.
using RolesLookup =
    std::function<Result<std::optional<policy::PanelRoles>>(const std::string& person)>;
// The roles of `person`, or the answer to give instead: 503 when the site cannot be read, 403 when
// the token's person is not a person of the site.
std::variant<policy::PanelRoles, ApiAnswer> rolesOrRefusal(const RolesLookup& roles,
                                                           const std::string& person);

// "a=1&b=2" as names and values (as sent, not decoded), only `names` allowed; otherwise the line
// saying what is wrong ("query: unexpected 'x=1'").
Result<std::map<std::string, std::string>> queryParameters(std::string_view query,
                                                           const std::vector<std::string>& names);

// A query or body field that is a day, "YYYY-MM-DD" (a real date); otherwise the line naming the
// field ("from: 'x' is not YYYY-MM-DD").
Result<std::chrono::local_days> dayParameter(const std::string& field, const std::string& text);

// A path segment that is an id: 1..15 decimal digits without a leading zero; nullopt otherwise.
std::optional<std::int64_t> parseIdSegment(std::string_view text);

// The routes of a collection of numbered items: `base`, `base`/{id}, `base`/{id}/`action`.
enum class ItemRoute { kList, kOne, kAction };
struct ItemTarget {
  ItemRoute route = ItemRoute::kList;
  std::int64_t id = 0;
};
// Which of them `path` is; nullopt for anything else (an id that is not parseIdSegment's, another
// action).
std::optional<ItemTarget> itemRoute(std::string_view path, std::string_view base,
                                    std::string_view action);

class ApiResource {
 public:
  virtual ~ApiResource() = default;
  // The methods `path` takes ("GET", "POST"), empty when the path is not this resource's.
  virtual std::vector<std::string> methods(std::string_view path) const = 0;
  // Whether `path` takes a query; the router answers 400 to a query on a path that does not.
  virtual bool takesQuery(std::string_view /*path*/) const { return false; }
  // Whether handle() runs on the writer (the default) or on the caller's thread, for long reads
  // that must not hold the engine (checking the whole audit log). For one that runs off the
  // writer, admit() runs on the writer first: a refusal it returns is the answer.
  virtual bool onWriter(std::string_view /*path*/) const { return true; }
  virtual std::optional<ApiAnswer> admit(const ApiRequest& /*request*/) { return std::nullopt; }
  virtual ApiAnswer handle(const ApiRequest& request) = 0;
};

}  // namespace atoms::api
