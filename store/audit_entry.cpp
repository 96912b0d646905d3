#include "store/audit_entry.h"

#include <array>
#include <cstdio>

#include "base/digits.h"
#include "base/field_error.h"

namespace atoms {

namespace {

bool isLowerHex(char c) { return isDigit(c) || (c >= 'a' && c <= 'f'); }

}  // namespace

bool isValidKind(std::string_view kind) {
  if (kind.empty() || kind.size() > kMaxKindLength) return false;
  for (char c : kind) {
    if (!((c >= 'a' && c <= 'z') || isDigit(c) || c == '_' || c == '.')) return false;
  }
  return true;
}

namespace {

// Everything validateEntry checks except json::validate(body), which parse() already guarantees,
// and that the body is an object.
template <class E>
Status validateHead(const E& e) {
  if (e.seq > static_cast<std::uint64_t>(json::kMaxSafeInteger)) {
    return fieldError("entry", "seq", "is beyond 2^53-1");
  }
  if (!validateTimestamp(e.ts))
    return fieldError("entry", "ts", "must be a UTC time YYYY-MM-DDTHH:MM:SS.mmmZ");
  if (e.site.empty() || !json::isValidUtf8(e.site)) {
    return fieldError("entry", "site", "must be a non-empty UTF-8 string");
  }
  if (!isValidKind(e.kind))
    return fieldError("entry", "kind", "must be 1-64 characters of [a-z0-9_.]");
  if (!json::isValidUtf8(e.actor)) return fieldError("entry", "actor", "must be valid UTF-8");
  return Status::success();
}

Status validateFields(const Entry& e) {
  if (Status s = validateHead(e); !s) return s;
  if (!e.body.isObject()) return fieldError("entry", "body", "must be an object");
  return Status::success();
}

// prev as 64 lowercase hex characters into bytes.
bool readPrev(std::string_view hex, Hash32& prev) {
  if (hex.size() != 64) return false;
  for (std::size_t i = 0; i < 64; ++i) {
    const char c = hex[i];
    if (!isLowerHex(c)) return false;
    const int nibble = isDigit(c) ? c - '0' : c - 'a' + 10;
    prev[i / 2] = static_cast<std::uint8_t>(i % 2 == 0 ? nibble << 4 : prev[i / 2] | nibble);
  }
  return true;
}

// The one pass over a well-formed entry: the seven fields in the order canonical text has them
// (actor, body, kind, prev, seq, site, ts), each read in place. False for anything else, which
// parseEntry's general path then explains. The body is built into `body` unless it is null.
bool readCanonicalEntry(std::string_view text, EntryHead& h, json::Value* body) {
  json::CanonicalReader r(text);
  std::string_view prev;
  std::string_view ts;
  std::int64_t seq = 0;
  if (!r.expect(R"({"actor":)") || !r.readString(h.actor) || !r.expect(R"(,"body":)") ||
      r.peek() != '{') {
    return false;
  }
  const std::size_t bodyAt = r.position();
  if (!(body != nullptr ? r.readValue(*body, 1) : r.skipValue(1))) return false;
  h.body = text.substr(bodyAt, r.position() - bodyAt);
  if (!r.expect(R"(,"kind":)") || !r.readString(h.kind) || !r.expect(R"(,"prev":)") ||
      !r.readPlainString(prev) || !r.expect(R"(,"seq":)") || !r.readInteger(seq) ||
      !r.expect(R"(,"site":)") || !r.readString(h.site) || !r.expect(R"(,"ts":)") ||
      !r.readPlainString(ts) || !r.expect("}") || !r.atEnd()) {
    return false;
  }
  h.ts = ts;
  if (seq < 0 || !readPrev(prev, h.prev)) return false;
  h.seq = static_cast<std::uint64_t>(seq);
  return validateHead(h).ok();
}

Status checkSize(std::string_view text) {
  if (text.size() <= kMaxEntryBytes) return Status::success();
  return makeError("entry: " + std::to_string(text.size()) + " bytes, more than the limit of " +
                   std::to_string(kMaxEntryBytes));
}

// parseEntry's general path: any JSON, each problem named.
Result<Entry> parseEntryExplained(std::string_view text);

}  // namespace

Status validateEntry(const Entry& e) {
  if (Status s = validateFields(e); !s) return s;
  if (Status s = json::validate(e.body); !s)
    return fieldError("entry", "body", "is invalid: " + s.message());
  return Status::success();
}

std::string entryText(const Entry& e) {
  json::Object o;
  o.emplace("seq", static_cast<std::int64_t>(e.seq));
  o.emplace("ts", e.ts);
  o.emplace("site", e.site);
  o.emplace("kind", e.kind);
  o.emplace("actor", e.actor);
  o.emplace("body", e.body);
  o.emplace("prev", toHex(e.prev));
  return json::canonical(json::Value(std::move(o)));
}

Result<Entry> parseEntry(std::string_view text) {
  if (Status s = checkSize(text); !s) return s.error();
  EntryHead h;
  json::Value body;
  if (readCanonicalEntry(text, h, &body)) {
    return Entry{.seq = h.seq,
                 .ts = std::move(h.ts),
                 .site = std::move(h.site),
                 .kind = std::move(h.kind),
                 .actor = std::move(h.actor),
                 .body = std::move(body),
                 .prev = h.prev};
  }
  return parseEntryExplained(text);
}

Result<EntryHead> parseEntryHead(std::string_view text) {
  if (Status s = checkSize(text); !s) return s.error();
  EntryHead h;
  if (readCanonicalEntry(text, h, nullptr)) return h;
  auto explained = parseEntryExplained(text);
  if (!explained) return explained.error();
  // The one pass refused what the general path accepts: a bug in one of them, never an entry.
  return makeError("entry: the canonical reader refused an entry the parser accepts");
}

namespace {

Result<Entry> parseEntryExplained(std::string_view text) {
  Result<json::Value> parsed = json::parseCanonical(text);
  if (!parsed) return makeError("entry: " + parsed.message());
  if (!parsed->isObject()) return makeError("entry: not a JSON object");
  json::Object& o = parsed->asObject();

  static constexpr std::array<std::string_view, 7> kFields{"actor", "body", "kind", "prev",
                                                           "seq",   "site", "ts"};
  for (const auto& [key, value] : o) {
    bool known = false;
    for (std::string_view f : kFields) known = known || key == f;
    if (!known) return makeError("entry: unexpected field \"" + key + "\"");
  }
  for (std::string_view f : kFields) {
    if (o.find(std::string(f)) == o.end()) return fieldError("entry", f, "is missing");
  }

  Entry e;
  const json::Value& seq = o["seq"];
  if (!seq.isInt() || seq.asInt() < 0)
    return fieldError("entry", "seq", "must be a non-negative integer");
  e.seq = static_cast<std::uint64_t>(seq.asInt());
  for (auto [name, target] : {std::pair{"ts", &e.ts}, std::pair{"site", &e.site},
                              std::pair{"kind", &e.kind}, std::pair{"actor", &e.actor}}) {
    json::Value& v = o[name];
    if (!v.isString()) return fieldError("entry", name, "must be a string");
    *target = std::move(v.asString());
  }
  const json::Value& prev = o["prev"];
  if (!prev.isString() || !readPrev(prev.asString(), e.prev)) {
    return fieldError("entry", "prev", "must be 64 lowercase hex characters");
  }
  e.body = std::move(o["body"]);
  if (Status s = validateFields(e); !s) return s.error();
  return e;
}

}  // namespace

}  // namespace atoms
