#include "drivers/terminal/punch_request.h"

#include <initializer_list>

#include "base/canonical_json.h"
#include "base/digits.h"
#include "base/name_table.h"
#include "base/one_line.h"
#include "base/timestamp.h"
#include "drivers/http/bearer_tokens.h"
#include "drivers/http/printable.h"

namespace atoms::drivers::terminal {
namespace {

constexpr NameTable<PunchKind, 4> kPunchKindNames{{{PunchKind::kClockIn, "clock_in"},
                                                   {PunchKind::kClockOut, "clock_out"},
                                                   {PunchKind::kBreakStart, "break_start"},
                                                   {PunchKind::kBreakEnd, "break_end"}}};
constexpr NameTable<PunchOutcomeKind, 3> kOutcomeNames{{{PunchOutcomeKind::kAccepted, "accepted"},
                                                        {PunchOutcomeKind::kDuplicate, "duplicate"},
                                                        {PunchOutcomeKind::kRefused, "refused"}}};

// The value as it appears in an error: a string quoted and cut, anything else by its type.
std::string shown(const json::Value& v) {
  switch (v.type()) {
    case json::Type::kString:
      return "'" + printable(v.asString()) + "'";
    case json::Type::kNull:
      return "null";
    case json::Type::kBool:
      return v.asBool() ? "true" : "false";
    case json::Type::kInt:
      return std::to_string(v.asInt());
    case json::Type::kArray:
      return "an array";
    case json::Type::kObject:
      return "an object";
  }
  return "a value";
}

Error fieldError(const std::string& field, const std::string& what) {
  return makeError(field + ": " + what);
}

// Refuses members other than `allowed`, naming the first one found.
Status onlyFields(const json::Object& object, const std::string& where,
                  std::initializer_list<std::string_view> allowed) {
  for (const auto& [key, value] : object) {
    bool known = false;
    for (std::string_view a : allowed) known = known || key == a;
    if (!known) {
      return makeError((where.empty() ? std::string() : where + ": ") + "unknown field '" +
                       printable(key) + "'");
    }
  }
  return Status::success();
}

Result<std::string> stringField(const json::Object& object, const std::string& where,
                                const std::string& key) {
  const std::string field = where.empty() ? key : where + "." + key;
  auto it = object.find(key);
  if (it == object.end()) return fieldError(field, "missing");
  if (!it->second.isString()) return fieldError(field, shown(it->second) + " is not a string");
  return it->second.asString();
}

Result<std::string> idField(const json::Object& object, const std::string& where,
                            const std::string& key) {
  auto s = stringField(object, where, key);
  if (!s) return s;
  if (!isValidTerminalId(*s)) {
    return fieldError(
        where.empty() ? key : where + "." + key,
        "'" + printable(*s) + "' is not 1-64 characters of letters, digits, '-', '_', '.'");
  }
  return s;
}

Result<Punch> parsePunch(const json::Value& v, const std::string& where) {
  if (!v.isObject()) return fieldError(where, shown(v) + " is not an object");
  const json::Object& o = v.asObject();
  if (Status s = onlyFields(o, where, {"id", "person", "kind", "at"}); !s) return s.error();
  Punch p;
  auto id = stringField(o, where, "id");
  if (!id) return id.error();
  if (id->empty() || id->size() > kMaxEventIdLength || !isPrintableAscii(*id)) {
    return fieldError(where + ".id",
                      "'" + printable(*id) + "' is not 1-128 characters of printable ASCII");
  }
  p.id = std::move(*id);
  auto person = idField(o, where, "person");
  if (!person) return person.error();
  p.person = std::move(*person);
  auto kind = stringField(o, where, "kind");
  if (!kind) return kind.error();
  auto parsedKind = parsePunchKind(*kind);
  if (!parsedKind) {
    return fieldError(where + ".kind", "'" + printable(*kind) +
                                           "' is not one of clock_in, clock_out, break_start, "
                                           "break_end");
  }
  p.kind = *parsedKind;
  auto at = stringField(o, where, "at");
  if (!at) return at.error();
  auto parsedAt = parsePunchTime(*at);
  if (!parsedAt) {
    return fieldError(where + ".at", "'" + printable(*at) +
                                         "' is not a UTC time YYYY-MM-DDTHH:MM:SSZ (optionally "
                                         "with .mmm)");
  }
  p.at = *parsedAt;
  return p;
}

}  // namespace

std::string_view punchKindName(PunchKind kind) { return nameOf(kPunchKindNames, kind); }

std::optional<PunchKind> parsePunchKind(std::string_view name) {
  return fromName(kPunchKindNames, name);
}

std::string_view punchOutcomeName(PunchOutcomeKind kind) { return nameOf(kOutcomeNames, kind); }

bool isValidTerminalId(std::string_view id) { return isValidTokenId(id); }

std::optional<PunchTime> parsePunchTime(std::string_view t) {
  // 01234567890123456789012
  // YYYY-MM-DDTHH:MM:SSZ / YYYY-MM-DDTHH:MM:SS.mmmZ
  if (t.size() != 20 && t.size() != 24) return std::nullopt;
  if (t[4] != '-' || t[7] != '-' || t[10] != 'T' || t[13] != ':' || t[16] != ':' ||
      t.back() != 'Z') {
    return std::nullopt;
  }
  int millis = 0;
  if (t.size() == 24) {
    if (t[19] != '.') return std::nullopt;
    millis = readDigits(t, 20, 3);
    if (millis < 0) return std::nullopt;
  }
  const int year = readDigits(t, 0, 4), month = readDigits(t, 5, 2), day = readDigits(t, 8, 2);
  const int hour = readDigits(t, 11, 2), minute = readDigits(t, 14, 2),
            second = readDigits(t, 17, 2);
  if (year < 1970 || month < 1 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 ||
      second < 0 || second > 59) {
    return std::nullopt;
  }
  using namespace std::chrono;
  const year_month_day date{std::chrono::year{year},
                            std::chrono::month{static_cast<unsigned>(month)},
                            std::chrono::day{static_cast<unsigned>(day)}};
  if (!date.ok()) return std::nullopt;
  return PunchTime{sys_days{date}} + hours{hour} + minutes{minute} + seconds{second} +
         milliseconds{millis};
}

std::string formatPunchTime(PunchTime at) {
  // The audit log's own timestamp form (store/audit_entry.h), which a punch's "at" round-trips.
  return formatTimestampMillis(at);
}

Result<PunchBatch> parsePunchRequest(std::string_view body) {
  if (body.size() > kMaxRequestBytes) {
    return makeError("body is over the limit of " + std::to_string(kMaxRequestBytes) + " bytes");
  }
  auto parsed = json::parse(body);
  if (!parsed) return makeError("body: " + printable(parsed.message(), 200));
  if (!parsed->isObject()) return makeError("body: " + shown(*parsed) + " is not an object");
  const json::Object& top = parsed->asObject();
  if (Status s = onlyFields(top, "", {"terminal", "punches"}); !s) return s.error();
  PunchBatch batch;
  auto terminal = idField(top, "", "terminal");
  if (!terminal) return terminal.error();
  batch.terminal = std::move(*terminal);
  auto it = top.find("punches");
  if (it == top.end()) return makeError("punches: missing");
  if (!it->second.isArray()) return makeError("punches: " + shown(it->second) + " is not an array");
  const json::Array& punches = it->second.asArray();
  if (punches.empty()) return makeError("punches: empty");
  if (punches.size() > kMaxPunchesPerRequest) {
    return makeError("punches: " + std::to_string(punches.size()) + " punches, at most " +
                     std::to_string(kMaxPunchesPerRequest) + " per request");
  }
  batch.punches.reserve(punches.size());
  for (std::size_t i = 0; i < punches.size(); ++i) {
    auto punch = parsePunch(punches[i], "punches[" + std::to_string(i) + "]");
    if (!punch) return punch.error();
    batch.punches.push_back(std::move(*punch));
  }
  return batch;
}

std::string encodePunchRequest(const PunchBatch& batch) {
  json::Array punches;
  punches.reserve(batch.punches.size());
  for (const Punch& p : batch.punches) {
    punches.emplace_back(json::Object{{"id", p.id},
                                      {"person", p.person},
                                      {"kind", std::string(punchKindName(p.kind))},
                                      {"at", formatPunchTime(p.at)}});
  }
  return json::canonical(
      json::Object{{"terminal", batch.terminal}, {"punches", std::move(punches)}});
}

std::string encodePunchResponse(const std::string& terminal,
                                const std::vector<PunchOutcome>& outcomes) {
  json::Array results;
  results.reserve(outcomes.size());
  for (const PunchOutcome& o : outcomes) {
    json::Object r{{"id", o.id}, {"outcome", std::string(punchOutcomeName(o.outcome))}};
    if (!o.reason.empty()) r["reason"] = o.reason;
    results.emplace_back(std::move(r));
  }
  return json::canonical(json::Object{{"terminal", terminal}, {"results", std::move(results)}});
}

Result<std::vector<PunchOutcome>> parsePunchResponse(std::string_view body) {
  auto parsed = json::parse(body);
  if (!parsed) return makeError("answer: " + printable(parsed.message(), 200));
  const json::Value* results = parsed->find("results");
  if (results == nullptr || !results->isArray()) return makeError("answer: no results array");
  std::vector<PunchOutcome> outcomes;
  for (std::size_t i = 0; i < results->asArray().size(); ++i) {
    const json::Value& r = results->asArray()[i];
    const std::string where = "answer: results[" + std::to_string(i) + "]";
    const json::Value* id = r.find("id");
    const json::Value* outcome = r.find("outcome");
    const json::Value* reason = r.find("reason");
    if (id == nullptr || !id->isString()) return makeError(where + " has no id");
    if (outcome == nullptr || !outcome->isString()) return makeError(where + " has no outcome");
    PunchOutcome o;
    o.id = id->asString();
    const auto kind = fromName(kOutcomeNames, outcome->asString());
    if (!kind)
      return makeError(where + ": unknown outcome '" + printable(outcome->asString()) + "'");
    o.outcome = *kind;
    if (reason != nullptr && reason->isString()) o.reason = reason->asString();
    outcomes.push_back(std::move(o));
  }
  return outcomes;
}

}  // namespace atoms::drivers::terminal
