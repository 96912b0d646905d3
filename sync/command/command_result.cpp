#include "sync/command/command_result.h"

#include <array>

#include "base/canonical_json.h"

namespace atoms::sync::command {
namespace {

json::Value optionalString(const std::optional<std::string>& s) {
  return s ? json::Value(*s) : json::Value();
}

}  // namespace

std::string commandResultJson(const CommandResult& r) {
  json::Object o;
  o.emplace("at", r.at);
  o.emplace("code", r.code);
  o.emplace("id", optionalString(r.id));
  o.emplace("kind", optionalString(r.kind));
  o.emplace("message", r.message);
  o.emplace("outcome", r.outcome);
  o.emplace("payload_sha256", r.payloadSha256);
  o.emplace("seq", r.seq && *r.seq <= static_cast<std::uint64_t>(json::kMaxSafeInteger)
                       ? json::Value(static_cast<std::int64_t>(*r.seq))
                       : json::Value());
  o.emplace("site", r.site);
  o.emplace("v", 1);
  return json::canonical(json::Value(std::move(o)));
}

Result<CommandResult> parseCommandResult(std::string_view payload) {
  auto value = json::parseCanonical(payload);
  if (!value) return makeError("command result: " + value.message());
  if (!value->isObject()) return makeError("command result: not an object");
  const json::Object& o = value->asObject();
  static constexpr std::array<std::string_view, 10> kFields = {
      "at", "code", "id", "kind", "message", "outcome", "payload_sha256", "seq", "site", "v"};
  if (o.size() != kFields.size()) return makeError("command result: wrong set of fields");
  for (std::string_view f : kFields) {
    if (o.find(std::string(f)) == o.end()) {
      return makeError("command result: missing field \"" + std::string(f) + "\"");
    }
  }
  if (!o.at("v").isInt() || o.at("v").asInt() != 1) {
    return makeError("command result: field \"v\" must be 1");
  }
  CommandResult r;
  for (auto [field, target] :
       {std::pair{"at", &r.at}, std::pair{"code", &r.code}, std::pair{"message", &r.message},
        std::pair{"outcome", &r.outcome}, std::pair{"payload_sha256", &r.payloadSha256},
        std::pair{"site", &r.site}}) {
    const json::Value& v = o.at(field);
    if (!v.isString()) {
      return makeError("command result: field \"" + std::string(field) + "\" must be a string");
    }
    *target = v.asString();
  }
  for (auto [field, target] : {std::pair{"id", &r.id}, std::pair{"kind", &r.kind}}) {
    const json::Value& v = o.at(field);
    if (v.isString()) {
      *target = v.asString();
    } else if (!v.isNull()) {
      return makeError("command result: field \"" + std::string(field) +
                       "\" must be a string or null");
    }
  }
  const json::Value& seq = o.at("seq");
  if (seq.isInt() && seq.asInt() >= 0) {
    r.seq = static_cast<std::uint64_t>(seq.asInt());
  } else if (!seq.isNull()) {
    return makeError("command result: field \"seq\" must be a non-negative integer or null");
  }
  if (r.outcome != "applied" && r.outcome != "refused" && r.outcome != "failed") {
    return makeError("command result: field \"outcome\" must be applied, refused or failed");
  }
  return r;
}

}  // namespace atoms::sync::command
