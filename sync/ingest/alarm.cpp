#include "sync/ingest/alarm.h"

#include <algorithm>
#include <array>

#include "base/canonical_json.h"
#include "base/field_error.h"
#include "sync/topics.h"

namespace atoms::sync::ingest {

namespace {

json::Value optionalSize(const std::optional<std::uint64_t>& n) {
  return n ? json::Value(static_cast<std::int64_t>(*n)) : json::Value(nullptr);
}

}  // namespace

std::string alarmTopic(std::string_view site) {
  return std::string(kTopicRoot) + std::string(site) + "/alarm";
}

std::string alarmJson(const Alarm& a) {
  json::Object o;
  o.emplace("detail", a.detail);
  o.emplace("evidence", a.evidence);
  o.emplace("from", optionalSize(a.from));
  o.emplace("kind", a.kind);
  o.emplace("payload_sha256", a.payloadSha256);
  o.emplace("site", a.site);
  o.emplace("to", optionalSize(a.to));
  o.emplace("ts", a.ts);
  o.emplace("v", kAlarmVersion);
  return json::canonical(json::Value(std::move(o)));
}

Result<Alarm> parseAlarm(std::string_view text) {
  auto parsed = json::parseCanonical(text);
  if (!parsed) return makeError("alarm: " + parsed.message());
  if (!parsed->isObject()) return makeError("alarm: not a JSON object");
  const json::Object& o = parsed->asObject();
  static constexpr std::array<std::string_view, 9> kFields{
      "detail", "evidence", "from", "kind", "payload_sha256", "site", "to", "ts", "v"};
  for (const auto& [key, value] : o) {
    if (std::find(kFields.begin(), kFields.end(), key) == kFields.end()) {
      return makeError("alarm: unexpected field \"" + key + "\"");
    }
  }
  for (std::string_view f : kFields) {
    if (o.find(std::string(f)) == o.end()) return fieldError("alarm", f, "is missing");
  }
  if (!o.at("v").isInt() || o.at("v").asInt() != kAlarmVersion) {
    return fieldError("alarm", "v", "must be " + std::to_string(kAlarmVersion));
  }
  Alarm a;
  for (auto [name, target] : {std::pair{"detail", &a.detail}, std::pair{"kind", &a.kind},
                              std::pair{"payload_sha256", &a.payloadSha256},
                              std::pair{"site", &a.site}, std::pair{"ts", &a.ts}}) {
    if (!o.at(name).isString()) return fieldError("alarm", name, "must be a string");
    *target = o.at(name).asString();
  }
  if (!o.at("evidence").isInt()) return fieldError("alarm", "evidence", "must be an integer");
  a.evidence = o.at("evidence").asInt();
  for (auto [name, target] : {std::pair{"from", &a.from}, std::pair{"to", &a.to}}) {
    const json::Value& n = o.at(name);
    if (n.isNull()) continue;
    if (!n.isInt() || n.asInt() < 0)
      return fieldError("alarm", name, "must be null or an integer >= 0");
    *target = static_cast<std::uint64_t>(n.asInt());
  }
  return a;
}

}  // namespace atoms::sync::ingest
