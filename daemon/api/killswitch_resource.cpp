#include "daemon/api/killswitch_resource.h"

#include "daemon/api/approval_json.h"
#include "drivers/http/printable.h"

namespace atoms::api {
namespace {

using drivers::printable;

std::optional<policy::KillSwitchLevel> levelOf(const json::Value& value) {
  if (value.isInt()) {
    if (value.asInt() < 0 || value.asInt() > 3) return std::nullopt;
    return policy::killSwitchLevelFromInt(static_cast<int>(value.asInt()));
  }
  if (!value.isString()) return std::nullopt;
  const std::string& s = value.asString();
  if (s.size() != 2 || (s[0] != 'L' && s[0] != 'l') || s[1] < '0' || s[1] > '3') {
    return std::nullopt;
  }
  return policy::killSwitchLevelFromInt(s[1] - '0');
}

}  // namespace

Result<KillSwitchRequest> parseKillSwitchRequest(std::string_view body) {
  auto parsed = parseBodyObject(body);
  if (!parsed) return parsed.error();
  KillSwitchRequest request;
  bool hasLevel = false;
  for (const auto& [key, value] : *parsed) {
    if (key == "level") {
      auto level = levelOf(value);
      if (!level) return makeError("level: expected one of L0, L1, L2, L3");
      request.level = *level;
      hasLevel = true;
    } else if (key == "reason") {
      if (!value.isString()) return makeError("reason: not a string");
      if (auto problem = freeTextProblem("reason", value.asString(), kMaxKillSwitchReasonBytes)) {
        return makeError(*problem);
      }
      request.reason = value.asString();
    } else {
      return makeError("unknown field '" + printable(key) + "'");
    }
  }
  if (!hasLevel) return makeError("level: missing");
  if (request.reason.find_first_not_of(' ') == std::string::npos) {
    return makeError("reason: missing (say why, it goes on record)");
  }
  return request;
}

json::Value killSwitchJson(const policy::KillSwitchState& state) {
  const auto orNull = [](const std::string& s) {
    return s.empty() ? json::Value() : json::Value(s);
  };
  return json::Object{{"level", policy::killSwitchLevelName(state.level)},
                      {"setAt", orNull(state.setAt)},
                      {"setBy", orNull(state.setBy)},
                      {"reason", orNull(state.reason)},
                      {"automated", state.automated}};
}

std::vector<std::string> KillSwitchResource::methods(std::string_view path) const {
  if (path != kKillSwitchPath) return {};
  return {"GET", "POST"};
}

ApiAnswer KillSwitchResource::handle(const ApiRequest& request) {
  auto found = rolesOrRefusal(access_.roles, request.person);
  if (auto* refused = std::get_if<ApiAnswer>(&found)) return *refused;
  const policy::PanelRoles& who = std::get<policy::PanelRoles>(found);
  if (request.method == "GET") {
    auto current = access_.current();
    if (!current) return apiStoreFailed("read the kill switch", current.error());
    return apiOk(killSwitchJson(*current));
  }
  auto parsed = parseKillSwitchRequest(request.body);
  if (!parsed) return apiRefusal(400, parsed.message(), parsed.message());
  auto result = access_.set(request.person, who, *parsed);
  if (!result) return apiStoreFailed("change the kill switch", result.error());
  json::Object body{{"message", result->message}, {"killSwitch", killSwitchJson(result->state)}};
  switch (result->outcome) {
    case policy::PanelOutcome::kChanged:
      body["outcome"] = "changed";
      return apiOk(body);
    case policy::PanelOutcome::kUnchanged:
      body["outcome"] = "unchanged";
      return apiOk(body);
    case policy::PanelOutcome::kRefused:
      break;
  }
  body["error"] = result->message;
  return {403, json::canonical(body), "kill switch change refused", true};
}

}  // namespace atoms::api
