#include "sync/ack.h"

#include <algorithm>
#include <array>

#include "base/canonical_json.h"
#include "base/field_error.h"

namespace atoms::sync {

std::string ackJson(const Ack& ack) {
  json::Object o;
  o.emplace("root", toBase64(ack.root));
  o.emplace("site", ack.site);
  o.emplace("size", static_cast<std::int64_t>(ack.size));
  o.emplace("v", kAckVersion);
  return json::canonical(json::Value(std::move(o)));
}

Result<Ack> parseAck(std::string_view text) {
  if (text.size() > kMaxAckBytes) {
    return makeError("ack: " + std::to_string(text.size()) + " bytes, more than " +
                     std::to_string(kMaxAckBytes));
  }
  auto parsed = json::parseCanonical(text);
  if (!parsed) return makeError("ack: " + parsed.message());
  if (!parsed->isObject()) return makeError("ack: not a JSON object");
  const json::Object& o = parsed->asObject();
  static constexpr std::array<std::string_view, 4> kFields{"root", "site", "size", "v"};
  for (const auto& [key, value] : o) {
    if (std::find(kFields.begin(), kFields.end(), key) == kFields.end()) {
      return makeError("ack: unexpected field \"" + key + "\"");
    }
  }
  for (std::string_view f : kFields) {
    if (o.find(std::string(f)) == o.end()) return fieldError("ack", f, "is missing");
  }
  const json::Value& v = o.at("v");
  if (!v.isInt() || v.asInt() != kAckVersion) {
    return fieldError("ack", "v", "must be " + std::to_string(kAckVersion));
  }
  Ack ack;
  const json::Value& site = o.at("site");
  if (!site.isString() || site.asString().empty()) {
    return fieldError("ack", "site", "must be a non-empty string");
  }
  ack.site = site.asString();
  const json::Value& size = o.at("size");
  if (!size.isInt() || size.asInt() < 0)
    return fieldError("ack", "size", "must be an integer >= 0");
  ack.size = static_cast<std::uint64_t>(size.asInt());
  const json::Value& root = o.at("root");
  const auto raw = root.isString() ? fromBase64(root.asString()) : std::nullopt;
  if (!raw || raw->size() != ack.root.size()) {
    return fieldError("ack", "root", "must be base64 of a 32-byte hash");
  }
  std::copy(raw->begin(), raw->end(), ack.root.begin());
  return ack;
}

}  // namespace atoms::sync
