#include "daemon/api/shadow_resource.h"

#include <optional>

#include "daemon/api/approval_json.h"
#include "drivers/http/printable.h"

namespace atoms::api {
namespace {

// The call-out id of "/v1/trust/staffing_scheduling/shadow/{id}"; nullopt for anything else.
std::optional<std::int64_t> verdictTarget(std::string_view path) {
  const std::string_view base = kShadowPath;
  if (path.size() <= base.size() + 1 || path.substr(0, base.size()) != base ||
      path[base.size()] != '/') {
    return std::nullopt;
  }
  return parseIdSegment(path.substr(base.size() + 1));
}

}  // namespace

Result<bool> parseShadowVerdict(std::string_view body) {
  auto parsed = parseBodyObject(body);
  if (!parsed) return parsed.error();
  std::optional<bool> agree;
  for (const auto& [key, value] : *parsed) {
    if (key != "agree") return makeError("unknown field '" + drivers::printable(key) + "'");
    if (!value.isBool()) return makeError("agree: expected true or false");
    agree = value.asBool();
  }
  if (!agree) return makeError("agree: missing");
  return *agree;
}

std::vector<std::string> ShadowResource::methods(std::string_view path) const {
  if (path == kShadowPath) return {"GET"};
  if (verdictTarget(path)) return {"POST"};
  return {};
}

ApiAnswer ShadowResource::handle(const ApiRequest& request) {
  const bool list = request.path == kShadowPath;
  const std::optional<std::int64_t> id = verdictTarget(request.path);
  if (!list && !id) return apiRefusal(404, "not found", "no such path");
  auto found = rolesOrRefusal(access_.roles, request.person);
  if (auto* refused = std::get_if<ApiAnswer>(&found)) return *refused;
  const policy::PanelRoles& who = std::get<policy::PanelRoles>(found);
  if (!who.owner && !who.managerOfRecord) {
    return apiRefusal(403,
                      "only an owner of the site or a manager of record judges shadow decisions",
                      "not an owner or manager of record");
  }
  if (list) {
    auto awaiting = access_.awaiting();
    if (!awaiting) return apiStoreFailed("read the shadow decisions", awaiting.error());
    return apiOk(*awaiting);
  }
  auto agree = parseShadowVerdict(request.body);
  if (!agree) return apiRefusal(400, agree.message(), agree.message());
  auto judged = access_.judge(*id, *agree, request.person);
  if (!judged) return apiStoreFailed("record the verdict", judged.error());
  switch (*judged) {
    case ShadowJudgement::kJudged:
      return apiOk(json::Object{
          {"outcome", "judged"}, {"callout", *id}, {"verdict", *agree ? "agreed" : "disagreed"}});
    case ShadowJudgement::kUnknown:
      return apiRefusal(404, "no such call-out", "unknown call-out");
    case ShadowJudgement::kNotShadow:
      return apiRefusal(409, "this call-out was not decided in shadow", "not a shadow decision");
    case ShadowJudgement::kAlreadyJudged:
      return apiRefusal(409, "this shadow decision was judged already", "judged already");
  }
  return apiRefusal(404, "not found", "no such path");
}

}  // namespace atoms::api
