// PanelApi: the panel's JSON API (docs/api.md, "Panel"), served by PanelServer under /api/: signing
// in, and the box's JSON API resources under /api/v1/ (the same resources as the API port's
// /v1/, through the same router, daemon/api/api_router.h) for whoever is signed in. It turns
// requests into PanelAuth calls and their outcomes into JSON; the accounts, sessions, CSRF tokens
// and throttling are PanelAuth's (docs/panel-accounts.md).
//
//   GET    /api/events               live updates (server-sent events) for whoever is signed in:
//                                    "change" with {"size": N} each time the audit log grows
//                                    (at most one per eventSpacing), a comment every keepAlive,
//                                    "signed-out" and the end when the session has ended; 503
//                                    when too many streams are open (the page then polls)
//   GET|POST /api/v1/...             a resource, as the signed-in person: 401 without a session,
//                                    403 without the CSRF token and the panel's Origin on a POST
//                                    or below panelActionFor's role; then as on the API port
//
//   GET    /api/session              who is signed in: {person, role, csrf}; 401 when nobody
//   POST   /api/session              {login, password}: sign in (Set-Cookie); 401, 429
//   POST   /api/session/code         {login}: text a code; the same answer whether or not the
//                                    login is an account
//   POST   /api/session/code/verify  {login, code}: sign in with it; 401, 429
//   POST   /api/invite/accept        {token, password}: set the password, sign in; 401, 429
//   DELETE /api/session              sign out (also POST /api/session/end); needs CSRF
//
// Sign-in posts need the panel's own Origin (or Referer): PanelAuth::fromPanelOrigin (login CSRF).
// Every other state change needs the session's token in X-CSRF-Token and the panel's Origin
// (PanelAuth::checkStateChange). POST bodies: Content-Type application/json, at most
// kMaxBodyBytes, one object of the listed string fields and nothing else. Errors are
// {"error": "..."} with a line for the person. JSON out escapes <, > and & as \u00xx.
//
// Nothing here logs or echoes a password, code, token or cookie.
//
// Threading: handle() runs on the server's threads, concurrently; PanelAuth is thread-safe, the
// name lookup goes through the StoreRunner. Holds references: auth, store and clock must outlive
// it.
#pragma once

#include <Poco/Logger.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "daemon/api/api_router.h"
#include "daemon/panel/change_feed.h"
#include "daemon/panel/panel_auth.h"
#include "store/store_runner.h"

namespace atoms::panel {

// Where the JSON API's resources are served: "/api/v1/approvals" is the resource "/v1/approvals".
inline constexpr char kResourcePrefix[] = "/api/v1/";

struct PanelApiOptions {
  // The JSON API's resources (daemon/api/api_router.h), served under kResourcePrefix; null: none.
  api::ApiRouter* router = nullptr;
  // Live updates at /api/events; null: none (404).
  ChangeFeed* feed = nullptr;
  // Between two keep-alive comments of an event stream, and the least time between two events.
  std::chrono::milliseconds keepAlive{20'000};
  std::chrono::milliseconds eventSpacing{500};
  // Called for each resource request not answered 200 that no resource audited (thread-safe).
  std::function<void(const api::RefusedApiRequest&)> onRefused;
};

// The panel action a resource request needs at least (panel_roles.h): the audit log needs a
// manager, everything else anyone with a panel role; each resource checks its own actions on top.
PanelAction panelActionFor(std::string_view resourcePath);

class PanelApi {
 public:
  static constexpr std::size_t kMaxBodyBytes = 4096;

  // `logger`, when given, gets a warning for each request answered 503 (a store or engine error).
  PanelApi(PanelAuth& auth, StoreRunner& store, const Clock& clock, Poco::Logger* logger = nullptr,
           PanelApiOptions options = {})
      : auth_(auth), store_(store), clock_(clock), logger_(logger), options_(std::move(options)) {}
  PanelApi(const PanelApi&) = delete;
  PanelApi& operator=(const PanelApi&) = delete;

  // Whether `path` (as sent, no query) is the API's: "/api" or under "/api/".
  static bool isApiPath(std::string_view path);
  // Answers one request whose path isApiPath(); unknown paths 404, other methods 405.
  void handle(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response);

 private:
  void unavailable(Poco::Net::HTTPServerResponse& response, const std::string& why,
                   bool bodyRead = true);
  void handleEvents(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response);
  void handleResource(Poco::Net::HTTPServerRequest& request,
                      Poco::Net::HTTPServerResponse& response, const std::string& path);

  PanelAuth& auth_;
  StoreRunner& store_;
  const Clock& clock_;
  Poco::Logger* logger_;
  PanelApiOptions options_;
};

}  // namespace atoms::panel
