#include "daemon/panel/panel_api.h"

#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/MediaType.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "base/canonical_json.h"
#include "daemon/api/site_json.h"
#include "daemon/log/log.h"
#include "daemon/panel/sessions.h"
#include "drivers/http/http_service.h"
#include "store/site_store.h"

namespace atoms::panel {
namespace {

using Request = Poco::Net::HTTPServerRequest;
using Response = Poco::Net::HTTPServerResponse;

constexpr char kBusy[] = "the box could not do that just now: try again";

// JSON text with <, > and & escaped (they occur only inside strings there), so no byte of a value
// can read as markup anywhere.
std::string withoutMarkup(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '>') {
      out += "\\u003e";
    } else if (c == '&') {
      out += "\\u0026";
    } else {
      out += c;
    }
  }
  return out;
}

void apiSendText(Response& response, int status, const std::string& json, bool bodyRead) {
  const std::string text = withoutMarkup(json);
  response.setStatusAndReason(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(status));
  response.set("Cache-Control", "no-store");
  if (!bodyRead) response.setKeepAlive(false);
  response.setContentType("application/json; charset=utf-8");
  response.setContentLength(static_cast<std::streamsize>(text.size()));
  response.send().write(text.data(), static_cast<std::streamsize>(text.size()));
}

void apiSend(Response& response, int status, const json::Value& body, bool bodyRead = true) {
  apiSendText(response, status, json::canonical(body), bodyRead);
}

void apiError(Response& response, int status, const std::string& text, bool bodyRead = true) {
  apiSend(response, status, json::Object{{"error", text}}, bodyRead);
}

// The fields of a JSON object body, all strings, exactly `names`; or the line saying what is wrong.
Result<std::vector<std::string>> apiFields(std::string_view body,
                                           const std::vector<std::string>& names) {
  auto parsed = json::parse(body);
  if (!parsed) return makeError("the body is not valid JSON", ErrorKind::kInvalid);
  if (!parsed->isObject()) return makeError("the body is not a JSON object", ErrorKind::kInvalid);
  const json::Object& object = parsed->asObject();
  for (const auto& entry : object) {
    if (std::find(names.begin(), names.end(), entry.first) == names.end()) {
      return makeError("unexpected field \"" + entry.first.substr(0, 40) + "\"",
                       ErrorKind::kInvalid);
    }
  }
  std::vector<std::string> values;
  for (const std::string& name : names) {
    const auto it = object.find(name);
    if (it == object.end() || !it->second.isString()) {
      return makeError("\"" + name + "\" must be a string", ErrorKind::kInvalid);
    }
    values.push_back(it->second.asString());
  }
  return values;
}

bool apiIsJson(const Request& request) {
  if (!request.has("Content-Type")) return false;
  try {
    const Poco::Net::MediaType type(request.getContentType());
    return type.matches("application", "json");
  } catch (const Poco::Exception&) {
    return false;
  }
}

// {person: {id, name}, role, method, csrf, site: {id, name, timeZone}}: what the page needs about
// who is signed in, and the site's time zone to show times in.
Result<json::Object> apiWhoBody(StoreRunner& store, const PanelSession& s) {
  std::string name;
  json::Value site;
  Status named = store.run([&](SiteStore& st) -> Status {
    auto stmt = st.db().cached("SELECT name FROM site_person WHERE id = ?");
    if (!stmt) return stmt.error();
    stmt->bind(1, s.personId);
    auto row = stmt->step();
    if (!row) return row.error();
    if (*row) name = stmt->columnText(0);
    auto info = api::siteJson(st.db());
    if (!info) return info.error();
    site = std::move(*info);
    return Status::success();
  });
  if (!named) return named.error();
  return json::Object{{"person", json::Object{{"id", s.personId}, {"name", name}}},
                      {"role", std::string(panelRoleName(s.role))},
                      {"method", s.method},
                      {"csrf", s.csrfToken},
                      {"site", std::move(site)}};
}

}  // namespace

PanelAction panelActionFor(std::string_view resourcePath) {
  // Approvals, the kill switch, breakers, packets, paused offers: each resource checks who may
  // change them (the approver named, owners, managers of record).
  return resourcePath.starts_with("/v1/audit") ? PanelAction::kViewAuditLog
                                               : PanelAction::kViewBoard;
}

void PanelApi::unavailable(Response& response, const std::string& why, bool bodyRead) {
  // Store and engine errors only: they hold no password, code, token or cookie.
  if (logger_ != nullptr) {
    logWarning(*logger_, "a panel sign-in request failed; answered 503", {{"error", why}});
  }
  response.set("Retry-After", "5");
  apiError(response, 503, kBusy, bodyRead);
}

bool PanelApi::isApiPath(std::string_view path) {
  return path == "/api" || path.starts_with("/api/");
}

void PanelApi::handleResource(Request& request, Response& response, const std::string& path) {
  const std::string resourcePath = path.substr(std::string_view("/api").size());  // "/v1/..."
  // The panel's own refusals below are not reported again: PanelAuth audits CSRF and role
  // refusals itself, and an expired session's page polling is not an event.
  const auto own = [](int status, const std::string& error) {
    return api::ApiAnswer{status, drivers::jsonError(error), "", true};
  };
  const auto busy = [&](const std::string& why) {
    if (logger_ != nullptr) {
      logWarning(*logger_, "a panel request failed; answered 503", {{"error", why}});
    }
    response.set("Retry-After", "5");
    return own(503, kBusy);
  };
  const api::FrontDoor door{"panel", apiSendText, options_.onRefused};
  options_.router->serve(
      request, response, resourcePath, door, [&](const api::ApiRoute&) -> api::ApiCaller {
        const std::string cookie = sessionValueFromCookieHeader(request.get("Cookie", ""));
        auto session = auth_.session(cookie);
        if (!session) return busy(session.message());
        if (!*session) {
          if (!cookie.empty()) response.set("Set-Cookie", clearedSessionCookie());
          return own(401, "not signed in");
        }
        const std::string& method = request.getMethod();
        if (method != "GET") {
          const ClientContext client{request.clientAddress().host().toString(), cookie};
          Status checked =
              auth_.checkStateChange(cookie, request.get("X-CSRF-Token", ""),
                                     request.get("Origin", ""), request.get("Referer", ""), client);
          if (!checked) {
            return checked.kind() == ErrorKind::kRefused
                       ? own(403, "refused: reload the page and try again")
                       : busy(checked.message());
          }
        }
        // The coarse gate by panel role; each resource checks its own actions on top.
        if (Status allowed = auth_.authorize(**session, panelActionFor(resourcePath)); !allowed) {
          return allowed.kind() == ErrorKind::kRefused ? own(403, allowed.message())
                                                       : busy(allowed.message());
        }
        return (*session)->personId;
      });
}

void PanelApi::handleEvents(Request& request, Response& response) {
  const bool bodyless = !request.getChunkedTransferEncoding() &&
                        (!request.hasContentLength() || request.getContentLength64() == 0);
  if (request.getMethod() != "GET") {
    response.set("Allow", "GET");
    return apiError(response, 405, "method not allowed", bodyless);
  }
  const std::string cookie = sessionValueFromCookieHeader(request.get("Cookie", ""));
  auto session = auth_.session(cookie);
  if (!session) return unavailable(response, session.message(), bodyless);
  if (!*session) return apiError(response, 401, "not signed in", bodyless);
  ChangeFeed& feed = *options_.feed;
  if (!feed.join()) {
    response.set("Retry-After", "30");
    return apiError(response, 503, "too many live pages open: this one updates every so often",
                    bodyless);
  }
  struct Leave {
    ChangeFeed& feed;
    ~Leave() { feed.leave(); }
  } leave{feed};
  response.setStatusAndReason(Poco::Net::HTTPResponse::HTTP_OK);
  response.setContentType("text/event-stream; charset=utf-8");
  response.set("Cache-Control", "no-store");
  response.setChunkedTransferEncoding(true);
  response.setKeepAlive(false);
  std::ostream& out = response.send();
  std::uint64_t seen = feed.size();
  out << "retry: 5000\n\n" << std::flush;
  using SteadyClock = std::chrono::steady_clock;
  while (out) {
    const std::optional<std::uint64_t> now =
        feed.waitPast(seen, SteadyClock::now() + options_.keepAlive);
    if (!now) break;  // the panel is stopping
    if (*now != seen) {
      seen = *now;
      out << "event: change\ndata: {\"size\":" << seen << "}\n\n" << std::flush;
      if (!feed.pauseUntil(SteadyClock::now() + options_.eventSpacing)) break;
      continue;
    }
    // Quiet for a while: is the session still on? (It ends at its idle limit like any other.)
    auto still = auth_.session(cookie);
    if (still && !*still) {
      out << "event: signed-out\ndata: {}\n\n" << std::flush;
      break;
    }
    out << ": still here\n\n" << std::flush;
  }
}

void PanelApi::handle(Request& request, Response& response) {
  const std::string uri = request.getURI();
  const std::string path = uri.substr(0, uri.find_first_of("?#"));
  if (options_.router != nullptr && path.starts_with(kResourcePrefix)) {
    return handleResource(request, response, path);
  }
  if (options_.feed != nullptr && path == "/api/events") return handleEvents(request, response);
  const std::string& method = request.getMethod();
  const bool isPost = method == Poco::Net::HTTPRequest::HTTP_POST;
  // Whether no body is left unread when answering without reading it (else the connection closes).
  const bool bodyless = !request.getChunkedTransferEncoding() &&
                        (!request.hasContentLength() || request.getContentLength64() == 0);

  enum class Route { kSession, kSessionEnd, kCode, kCodeVerify, kInviteAccept };
  std::optional<Route> route;
  std::string allow = "POST";
  if (path == "/api/session") {
    route = Route::kSession;
    allow = "GET, POST, DELETE";
  } else if (path == "/api/session/end") {
    route = Route::kSessionEnd;
  } else if (path == "/api/session/code") {
    route = Route::kCode;
  } else if (path == "/api/session/code/verify") {
    route = Route::kCodeVerify;
  } else if (path == "/api/invite/accept") {
    route = Route::kInviteAccept;
  }
  if (!route) return apiError(response, 404, "no such API path", bodyless);
  // /api/session takes GET, POST and DELETE; every other path POST only.
  const bool allowed =
      isPost || (*route == Route::kSession && (method == "GET" || method == "DELETE"));
  if (!allowed) {
    response.set("Allow", allow);
    return apiError(response, 405, "method not allowed", bodyless);
  }

  const std::string cookie = sessionValueFromCookieHeader(request.get("Cookie", ""));
  const ClientContext client{request.clientAddress().host().toString(), cookie};
  const std::string origin = request.get("Origin", "");
  const std::string referer = request.get("Referer", "");

  // Who is signed in.
  if (*route == Route::kSession && method == "GET") {
    auto session = auth_.session(cookie);
    if (!session) return unavailable(response, session.message(), bodyless);
    if (!*session) {
      if (!cookie.empty()) response.set("Set-Cookie", clearedSessionCookie());
      return apiError(response, 401, "not signed in", bodyless);
    }
    auto who = apiWhoBody(store_, **session);
    if (!who) return unavailable(response, who.message(), bodyless);
    return apiSend(response, 200, *who, bodyless);
  }

  // Sign-out: a state change like any other, so CSRF first.
  if ((*route == Route::kSession && method == "DELETE") || *route == Route::kSessionEnd) {
    Status checked =
        auth_.checkStateChange(cookie, request.get("X-CSRF-Token", ""), origin, referer, client);
    if (!checked) {
      if (checked.kind() == ErrorKind::kRefused) {
        return apiError(response, 403, "refused: reload the page and try again", bodyless);
      }
      return unavailable(response, checked.message(), bodyless);
    }
    if (Status s = auth_.signOut(cookie, client); !s) {
      return unavailable(response, s.message(), bodyless);
    }
    response.set("Set-Cookie", clearedSessionCookie());
    return apiSend(response, 200, json::Object{{"signedOut", true}}, bodyless);
  }

  // The sign-in forms: no session yet, so the Origin is the CSRF check (login CSRF).
  if (!auth_.fromPanelOrigin(origin, referer)) {
    return apiError(response, 403, "refused: open the panel from its own address", bodyless);
  }
  if (!apiIsJson(request)) {
    return apiError(response, 415, "send the body as application/json", bodyless);
  }
  std::optional<std::string> body = drivers::readRequestBody(request, kMaxBodyBytes);
  if (!body) {
    return apiError(response, 413, "the body is over " + std::to_string(kMaxBodyBytes) + " bytes",
                    false);
  }

  std::vector<std::string> names;
  switch (*route) {
    case Route::kSession:
      names = {"login", "password"};
      break;
    case Route::kCode:
      names = {"login"};
      break;
    case Route::kCodeVerify:
      names = {"login", "code"};
      break;
    default:
      names = {"token", "password"};
      break;
  }
  auto fields = apiFields(*body, names);
  if (!fields) return apiError(response, 400, fields.message());
  const std::vector<std::string>& f = *fields;

  if (*route == Route::kCode) {
    if (Status s = auth_.startCodeSignIn(f[0], client); !s)
      return unavailable(response, s.message());
    return apiSend(
        response, 200,
        json::Object{{"message", "if that login has an account, a code is on its way by text"}});
  }
  Result<SignInResult> result =
      *route == Route::kSession      ? auth_.signInWithPassword(f[0], f[1], client)
      : *route == Route::kCodeVerify ? auth_.signInWithCode(f[0], f[1], client)
                                     : auth_.acceptInvite(f[0], f[1], client);
  if (!result) return unavailable(response, result.message());
  switch (result->outcome) {
    case SignInOutcome::kSignedIn: {
      response.set("Set-Cookie", result->setCookie);
      // Signed in already: a failed name lookup must not lose the cookie, so it answers
      // without the name (GET /api/session has it).
      auto who = apiWhoBody(store_, result->session);
      return apiSend(
          response, 200,
          who ? json::Value(*who)
              : json::Value(json::Object{{"person", json::Object{{"id", result->session.personId}}},
                                         {"role", std::string(panelRoleName(result->session.role))},
                                         {"csrf", result->session.csrfToken}}));
    }
    case SignInOutcome::kThrottled: {
      const auto wait = result->retryAfter ? *result->retryAfter - clock_.now()
                                           : std::chrono::milliseconds(60'000);
      const auto seconds = std::max<std::int64_t>(
          1, (std::chrono::duration_cast<std::chrono::milliseconds>(wait).count() + 999) / 1000);
      response.set("Retry-After", std::to_string(seconds));
      return apiError(response, 429, result->message);
    }
    case SignInOutcome::kRefused:
      break;
  }
  return apiError(response, 401, result->message);
}

}  // namespace atoms::panel
