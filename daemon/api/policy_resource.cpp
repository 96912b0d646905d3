#include "daemon/api/policy_resource.h"

#include "daemon/api/approval_json.h"
#include "drivers/http/printable.h"

namespace atoms::api {
namespace {

using drivers::printable;

enum class PolicyRoute { kTrust, kAdvance, kRegress, kIncident, kCloseIncident, kBreakers, kAck };

struct PolicyTarget {
  PolicyRoute route = PolicyRoute::kTrust;
  std::string name;      // the function or breaker
  std::string incident;  // kCloseIncident: the incident's id
};

bool validName(std::string_view s) {
  if (s.empty() || s.size() > 64) return false;
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

// "/v1/trust", "/v1/trust/x/advance", "/v1/trust/x/regress", "/v1/trust/x/incident",
// "/v1/trust/x/incident/y/close", "/v1/breakers", "/v1/breakers/X/ack"; nullopt for anything else.
std::optional<PolicyTarget> policyRoute(std::string_view path) {
  if (path == kTrustPath) return PolicyTarget{PolicyRoute::kTrust, ""};
  if (path == kBreakersPath) return PolicyTarget{PolicyRoute::kBreakers, ""};
  for (const auto& [base, isTrust] :
       {std::pair<std::string_view, bool>{kTrustPath, true}, {kBreakersPath, false}}) {
    if (path.size() <= base.size() + 1 || path.substr(0, base.size()) != base ||
        path[base.size()] != '/') {
      continue;
    }
    const std::string_view rest = path.substr(base.size() + 1);
    const std::size_t slash = rest.find('/');
    if (slash == std::string_view::npos) return std::nullopt;
    const std::string_view name = rest.substr(0, slash);
    const std::string_view verb = rest.substr(slash + 1);
    if (!validName(name)) return std::nullopt;
    if (isTrust && verb == "advance") return PolicyTarget{PolicyRoute::kAdvance, std::string(name)};
    if (isTrust && verb == "regress") return PolicyTarget{PolicyRoute::kRegress, std::string(name)};
    if (isTrust && verb == "incident")
      return PolicyTarget{PolicyRoute::kIncident, std::string(name), ""};
    constexpr std::string_view kIncidentPrefix = "incident/";
    constexpr std::string_view kCloseSuffix = "/close";
    if (isTrust && verb.size() > kIncidentPrefix.size() + kCloseSuffix.size() &&
        verb.substr(0, kIncidentPrefix.size()) == kIncidentPrefix &&
        verb.substr(verb.size() - kCloseSuffix.size()) == kCloseSuffix) {
      const std::string_view id = verb.substr(
          kIncidentPrefix.size(), verb.size() - kIncidentPrefix.size() - kCloseSuffix.size());
      if (!validName(id)) return std::nullopt;
      return PolicyTarget{PolicyRoute::kCloseIncident, std::string(name), std::string(id)};
    }
    if (!isTrust && verb == "ack") return PolicyTarget{PolicyRoute::kAck, std::string(name)};
    return std::nullopt;
  }
  return std::nullopt;
}

// An empty body or {}: the POSTs that carry nothing.
std::optional<std::string> emptyBodyProblem(const std::string& body) {
  if (body.find_first_not_of(" \t\r\n") == std::string::npos) return std::nullopt;
  auto parsed = parseBodyObject(body);
  if (!parsed) return parsed.message();
  if (!parsed->empty()) return "unknown field '" + printable(parsed->begin()->first) + "'";
  return std::nullopt;
}

ApiAnswer changed(const Result<std::string>& done, const std::string& what) {
  if (!done) return apiRefusal(409, done.message(), what + " refused: " + done.message(), true);
  return apiOk(json::Object{{"outcome", "changed"}, {"message", *done}});
}

}  // namespace

Result<RegressRequest> parseRegressRequest(std::string_view body) {
  auto parsed = parseBodyObject(body);
  if (!parsed) return parsed.error();
  RegressRequest request;
  for (const auto& [key, value] : *parsed) {
    if (key == "to") {
      if (!value.isString()) return makeError("to: not a string");
      if (value.asString() != "SHADOW" && value.asString() != "PROPOSE") {
        return makeError("to: expected SHADOW or PROPOSE");
      }
      request.to = value.asString();
    } else if (key == "reason") {
      if (!value.isString()) return makeError("reason: not a string");
      if (auto problem = freeTextProblem("reason", value.asString(), kMaxFreeTextBytes)) {
        return makeError(*problem);
      }
      request.reason = value.asString();
    } else {
      return makeError("unknown field '" + printable(key) + "'");
    }
  }
  if (request.to.empty()) return makeError("to: missing");
  if (request.reason.find_first_not_of(' ') == std::string::npos) {
    return makeError("reason: missing (say why, it goes on record)");
  }
  return request;
}

Result<IncidentRequest> parseIncidentRequest(std::string_view body) {
  auto parsed = parseBodyObject(body);
  if (!parsed) return parsed.error();
  IncidentRequest request;
  bool hasLevel = false;
  for (const auto& [key, value] : *parsed) {
    if (key == "id") {
      if (!value.isString() || !validName(value.asString())) {
        return makeError("id: expected 1 to 64 letters, digits, '_' or '-'");
      }
      request.id = value.asString();
    } else if (key == "level") {
      if (!value.isInt() || value.asInt() < 1 || value.asInt() > 4) {
        return makeError("level: expected a SEV level, 1 to 4");
      }
      request.level = static_cast<int>(value.asInt());
      hasLevel = true;
    } else {
      return makeError("unknown field '" + printable(key) + "'");
    }
  }
  if (request.id.empty()) return makeError("id: missing");
  if (!hasLevel) return makeError("level: missing");
  return request;
}

std::vector<std::string> PolicyResource::methods(std::string_view path) const {
  const std::optional<PolicyTarget> target = policyRoute(path);
  if (!target) return {};
  if (target->route == PolicyRoute::kTrust || target->route == PolicyRoute::kBreakers)
    return {"GET"};
  return {"POST"};
}

ApiAnswer PolicyResource::handle(const ApiRequest& request) {
  const std::optional<PolicyTarget> target = policyRoute(request.path);
  if (!target) return apiRefusal(404, "not found", "no such path");
  auto found = rolesOrRefusal(access_.roles, request.person);
  if (auto* refused = std::get_if<ApiAnswer>(&found)) return *refused;
  const policy::PanelRoles& who = std::get<policy::PanelRoles>(found);
  switch (target->route) {
    case PolicyRoute::kTrust: {
      auto trust = access_.trust();
      if (!trust) return apiStoreFailed("read the trust budgets", trust.error());
      return apiOk(*trust);
    }
    case PolicyRoute::kBreakers: {
      auto breakers = access_.breakers();
      if (!breakers) return apiStoreFailed("read the breakers", breakers.error());
      return apiOk(*breakers);
    }
    case PolicyRoute::kAdvance:
    case PolicyRoute::kRegress:
    case PolicyRoute::kIncident:
    case PolicyRoute::kCloseIncident: {
      if (!who.owner) {
        return apiRefusal(403, "only an owner of the site changes how far the box acts alone",
                          "not an owner");
      }
      if (target->route == PolicyRoute::kAdvance) {
        if (auto problem = emptyBodyProblem(request.body))
          return apiRefusal(400, *problem, *problem);
        return changed(access_.advance(target->name, request.person), "advance");
      }
      if (target->route == PolicyRoute::kIncident) {
        auto incident = parseIncidentRequest(request.body);
        if (!incident) return apiRefusal(400, incident.message(), incident.message());
        return changed(access_.incident(target->name, *incident, request.person), "incident");
      }
      if (target->route == PolicyRoute::kCloseIncident) {
        if (auto problem = emptyBodyProblem(request.body)) {
          return apiRefusal(400, *problem, *problem);
        }
        return changed(access_.closeIncident(target->name, target->incident, request.person),
                       "incident close");
      }
      auto parsed = parseRegressRequest(request.body);
      if (!parsed) return apiRefusal(400, parsed.message(), parsed.message());
      return changed(access_.regress(target->name, *parsed, request.person), "regress");
    }
    case PolicyRoute::kAck: {
      if (!who.owner && !who.managerOfRecord) {
        return apiRefusal(403, "only an owner of the site or a manager of record closes a breaker",
                          "not an owner or manager of record");
      }
      if (auto problem = emptyBodyProblem(request.body)) return apiRefusal(400, *problem, *problem);
      return changed(access_.acknowledge(target->name, request.person), "breaker ack");
    }
  }
  return apiRefusal(404, "not found", "no such path");
}

}  // namespace atoms::api
