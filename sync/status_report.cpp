#include "sync/status_report.h"

#include <set>

#include "base/canonical_json.h"
#include "base/field_error.h"
#include "store/audit_entry.h"

namespace atoms::sync {

namespace {

Status exactFields(const json::Object& o, const std::set<std::string>& fields,
                   std::string_view where) {
  for (const auto& [key, value] : o) {
    if (fields.count(key) == 0) {
      return makeError("status: unexpected field \"" + key + "\"" + std::string(where));
    }
  }
  for (const std::string& f : fields) {
    if (o.find(f) == o.end()) return fieldError("status", f, "is missing");
  }
  return Status::success();
}

Result<std::uint64_t> count(const json::Object& o, const std::string& field) {
  const json::Value& v = o.at(field);
  if (!v.isInt() || v.asInt() < 0) return fieldError("status", field, "must be an integer >= 0");
  return static_cast<std::uint64_t>(v.asInt());
}

}  // namespace

std::string statusJson(const StatusReport& r) {
  if (!r.online) return offlineStatusJson(r.site);
  json::Object backlog;
  backlog.emplace("age_s", static_cast<std::int64_t>(r.backlogAgeSeconds));
  backlog.emplace("entries", static_cast<std::int64_t>(r.backlogEntries()));
  backlog.emplace("oldest", r.oldest ? json::Value(*r.oldest) : json::Value());
  json::Object o;
  o.emplace("acked", static_cast<std::int64_t>(r.acked));
  o.emplace("backlog", std::move(backlog));
  o.emplace("site", r.site);
  o.emplace("size", static_cast<std::int64_t>(r.size));
  o.emplace("state", "online");
  o.emplace("ts", r.ts);
  o.emplace("v", kStatusVersion);
  return json::canonical(json::Value(std::move(o)));
}

std::string offlineStatusJson(std::string_view site) {
  json::Object o;
  o.emplace("site", std::string(site));
  o.emplace("state", "offline");
  o.emplace("v", kStatusVersion);
  return json::canonical(json::Value(std::move(o)));
}

Result<StatusReport> parseStatus(std::string_view text) {
  auto parsed = json::parseCanonical(text);
  if (!parsed) return makeError("status: " + parsed.message());
  if (!parsed->isObject()) return makeError("status: not a JSON object");
  const json::Object& o = parsed->asObject();
  const json::Value* state = parsed->find("state");
  if (state == nullptr || !state->isString() ||
      (state->asString() != "online" && state->asString() != "offline")) {
    return fieldError("status", "state", "must be \"online\" or \"offline\"");
  }
  StatusReport r;
  r.online = state->asString() == "online";
  if (r.online) {
    if (auto s = exactFields(o, {"acked", "backlog", "site", "size", "state", "ts", "v"}, ""); !s) {
      return s.error();
    }
  } else if (auto s = exactFields(o, {"site", "state", "v"}, ""); !s) {
    return s.error();
  }
  if (!o.at("v").isInt() || o.at("v").asInt() != kStatusVersion) {
    return fieldError("status", "v", "must be " + std::to_string(kStatusVersion));
  }
  if (!o.at("site").isString() || o.at("site").asString().empty()) {
    return fieldError("status", "site", "must be a non-empty string");
  }
  r.site = o.at("site").asString();
  if (!r.online) return r;

  auto size = count(o, "size");
  if (!size) return size.error();
  auto acked = count(o, "acked");
  if (!acked) return acked.error();
  r.size = *size;
  r.acked = *acked;
  if (!o.at("ts").isString() || !validateTimestamp(o.at("ts").asString())) {
    return fieldError("status", "ts", "must be a timestamp YYYY-MM-DDTHH:MM:SS.mmmZ");
  }
  r.ts = o.at("ts").asString();
  if (!o.at("backlog").isObject()) return fieldError("status", "backlog", "must be an object");
  const json::Object& b = o.at("backlog").asObject();
  if (auto s = exactFields(b, {"age_s", "entries", "oldest"}, " in \"backlog\""); !s) {
    return s.error();
  }
  auto age = count(b, "age_s");
  if (!age) return age.error();
  auto entries = count(b, "entries");
  if (!entries) return entries.error();
  r.backlogAgeSeconds = *age;
  const json::Value& oldest = b.at("oldest");
  if (oldest.isString() && validateTimestamp(oldest.asString())) {
    r.oldest = oldest.asString();
  } else if (!oldest.isNull()) {
    return fieldError("status", "oldest", "must be a timestamp or null");
  }
  if (*entries != r.backlogEntries()) {
    return fieldError("status", "entries", "must be size - acked");
  }
  return r;
}

}  // namespace atoms::sync
