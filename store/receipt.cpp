#include "store/receipt.h"

#include <array>
#include <initializer_list>
#include <set>
#include <string>
#include <string_view>

#include "base/bytes.h"
#include "base/digits.h"

namespace atoms {
namespace {

using json::Object;
using json::Value;

constexpr std::string_view kSig = "sig";

Error shapeError(const std::string& path, std::string_view what) {
  return makeError("receipt: " + path + " " + std::string(what));
}

// RFC 3339 date-time: YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM), uppercase T and Z.
bool isDateTime(std::string_view s) {
  if (s.size() < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':') {
    return false;
  }
  const int year = readDigits(s, 0, 4), month = readDigits(s, 5, 2), day = readDigits(s, 8, 2);
  const int hour = readDigits(s, 11, 2), minute = readDigits(s, 14, 2),
            second = readDigits(s, 17, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 ||
      minute > 59 || second < 0 || second > 60) {
    return false;
  }
  if (day > daysInMonth(year, month)) return false;
  std::size_t pos = 19;
  if (s[pos] == '.') {
    ++pos;
    const std::size_t start = pos;
    while (pos < s.size() && isDigit(s[pos])) ++pos;
    if (pos == start || pos - start > 9) return false;
  }
  if (pos == s.size()) return false;
  if (s[pos] == 'Z') return pos + 1 == s.size();
  if (s[pos] != '+' && s[pos] != '-') return false;
  if (s.size() != pos + 6 || s[pos + 3] != ':') return false;
  const int oh = readDigits(s, pos + 1, 2), om = readDigits(s, pos + 4, 2);
  return oh >= 0 && oh <= 23 && om >= 0 && om <= 59;
}

// "0", "1", "0.x{1,6}", "1.0{1,6}".
bool isConfidence(std::string_view s) {
  if (s == "0" || s == "1") return true;
  if (s.size() < 3 || s.size() > 8 || s[1] != '.') return false;
  if (s[0] != '0' && s[0] != '1') return false;
  for (std::size_t i = 2; i < s.size(); ++i) {
    if (!isDigit(s[i])) return false;
    if (s[0] == '1' && s[i] != '0') return false;
  }
  return true;
}

std::size_t wordCount(std::string_view s) {
  std::size_t words = 0;
  bool inWord = false;
  for (char c : s) {
    const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
    if (!space && !inWord) ++words;
    inWord = !space;
  }
  return words;
}

bool isExtensionName(std::string_view name) {
  if (name.empty() || name.size() > 64 || name[0] < 'a' || name[0] > 'z') return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c))) return false;
  }
  return true;
}

// Field access with a path for messages. Each check returns an Error on a mismatch.
class Fields {
 public:
  Fields(const Object& o, std::string path) : o_(o), path_(std::move(path)) {}

  std::string at(std::string_view key) const {
    return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
  }
  const Value* get(std::string_view key) const {
    auto it = o_.find(std::string(key));
    return it == o_.end() ? nullptr : &it->second;
  }

  // Rejects members not in `allowed`.
  Status only(std::initializer_list<std::string_view> allowed) const {
    for (const auto& [key, value] : o_) {
      bool known = false;
      for (std::string_view a : allowed) known = known || key == a;
      if (!known) return shapeError(at(key), "is not a known field");
    }
    return Status::success();
  }

  Result<const Value*> need(std::string_view key) const {
    const Value* v = get(key);
    if (v == nullptr) return shapeError(at(key), "is missing");
    return v;
  }

  Status string(std::string_view key, bool required, bool nonEmpty) const {
    const Value* v = get(key);
    if (v == nullptr) return required ? Status(shapeError(at(key), "is missing")) : Status();
    if (!v->isString()) return shapeError(at(key), "must be a string");
    if (nonEmpty && v->asString().empty()) return shapeError(at(key), "must not be empty");
    return Status::success();
  }

  Status dateTime(std::string_view key, bool required) const {
    if (Status s = string(key, required, true); !s) return s;
    const Value* v = get(key);
    if (v != nullptr && !isDateTime(v->asString())) {
      return shapeError(at(key), "must be an ISO date-time like 2026-09-07T06:02:00Z");
    }
    return Status::success();
  }

  Status oneOf(std::string_view key, std::initializer_list<std::string_view> values) const {
    if (Status s = string(key, true, false); !s) return s;
    const std::string& got = get(key)->asString();
    std::string list;
    for (std::string_view v : values) {
      if (got == v) return Status::success();
      list += list.empty() ? "" : ", ";
      list += v;
    }
    return shapeError(at(key), "must be one of " + list);
  }

  Result<const json::Array*> array(std::string_view key, bool required) const {
    const Value* v = get(key);
    if (v == nullptr) {
      if (required) return shapeError(at(key), "is missing");
      return static_cast<const json::Array*>(nullptr);
    }
    if (!v->isArray()) return shapeError(at(key), "must be an array");
    return &v->asArray();
  }

 private:
  const Object& o_;
  std::string path_;
};

std::string item(const std::string& path, std::size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

Result<const Object*> objectAt(const Value& v, const std::string& path) {
  if (!v.isObject()) return shapeError(path, "must be an object");
  return &v.asObject();
}

Status checkSources(const json::Array& sources) {
  if (sources.empty()) return shapeError("sources", "must have at least one source");
  std::set<std::int64_t> numbers;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const std::string path = item("sources", i);
    auto obj = objectAt(sources[i], path);
    if (!obj) return obj.error();
    Fields f(**obj, path);
    if (Status s = f.only({"n", "kind", "ref", "label", "asOf", "url"}); !s) return s;
    auto n = f.need("n");
    if (!n) return n.error();
    if (!(*n)->isInt() || (*n)->asInt() < 1)
      return shapeError(f.at("n"), "must be an integer >= 1");
    if (!numbers.insert((*n)->asInt()).second) {
      return shapeError(f.at("n"), "repeats number " + std::to_string((*n)->asInt()));
    }
    if (Status s = f.oneOf("kind",
                           {"org", "mirror", "memory", "service", "policy", "message", "decision"});
        !s) {
      return s;
    }
    if (Status s = f.string("ref", true, true); !s) return s;
    if (Status s = f.string("label", true, false); !s) return s;
    if (Status s = f.dateTime("asOf", true); !s) return s;
    if (Status s = f.string("url", false, true); !s) return s;
  }
  return Status::success();
}

Status checkSnapshot(const json::Array& snapshot) {
  for (std::size_t i = 0; i < snapshot.size(); ++i) {
    const std::string path = item("snapshot", i);
    auto obj = objectAt(snapshot[i], path);
    if (!obj) return obj.error();
    Fields f(**obj, path);
    if (Status s = f.only({"source", "asOf", "staleSince", "version"}); !s) return s;
    if (Status s = f.string("source", true, true); !s) return s;
    if (Status s = f.dateTime("asOf", true); !s) return s;
    if (Status s = f.dateTime("staleSince", false); !s) return s;
    if (const Value* v = f.get("version"); v != nullptr && !v->isInt()) {
      return shapeError(f.at("version"), "must be an integer");
    }
  }
  return Status::success();
}

Status checkRuleEvaluations(const json::Array& evaluations) {
  for (std::size_t i = 0; i < evaluations.size(); ++i) {
    const std::string path = item("ruleEvaluations", i);
    auto obj = objectAt(evaluations[i], path);
    if (!obj) return obj.error();
    Fields f(**obj, path);
    if (Status s = f.only({"ruleId", "input", "result", "detail"}); !s) return s;
    if (Status s = f.string("ruleId", true, true); !s) return s;
    auto input = f.need("input");
    if (!input) return input.error();
    if (!(*input)->isObject()) return shapeError(f.at("input"), "must be an object");
    if (Status s = f.oneOf("result", {"pass", "fail", "threshold_exceeded", "n/a"}); !s) return s;
    if (Status s = f.string("detail", true, false); !s) return s;
  }
  return Status::success();
}

Status checkModelCalls(const json::Array& calls) {
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const std::string path = item("modelCalls", i);
    auto obj = objectAt(calls[i], path);
    if (!obj) return obj.error();
    Fields f(**obj, path);
    if (Status s = f.only({"purpose", "tier", "requestHash"}); !s) return s;
    for (std::string_view key : {"purpose", "tier", "requestHash"}) {
      if (Status s = f.string(key, true, true); !s) return s;
    }
  }
  return Status::success();
}

// canonical(receipt without sig). Precondition: json::validate(receipt) holds.
std::string signedText(const Object& receipt) {
  Object copy = receipt;
  copy.erase(std::string(kSig));
  return json::canonical(Value(std::move(copy)));
}

}  // namespace

Status validateReceipt(const json::Value& receipt) {
  if (!receipt.isObject()) return makeError("receipt: must be a JSON object");
  Fields f(receipt.asObject(), "");
  static constexpr std::array<std::string_view, 13> kKnown{
      "id",         "runId",           "tenantId",  "createdAt",  "sources",
      "snapshot",   "ruleEvaluations", "rationale", "confidence", "gaps",
      "modelCalls", "visibility",      "sig"};
  for (const auto& [key, value] : receipt.asObject()) {
    bool known = false;
    for (std::string_view k : kKnown) known = known || key == k;
    if (!known && !isExtensionName(key)) {
      return shapeError(key.empty() ? "\"\"" : "\"" + key + "\"",
                        "is not a receipt field (extensions are named [a-z][A-Za-z0-9]*)");
    }
  }
  if (Status s = f.string("id", true, true); !s) return s;
  if (Status s = f.string("runId", false, true); !s) return s;
  if (Status s = f.string("tenantId", false, true); !s) return s;
  if (Status s = f.dateTime("createdAt", true); !s) return s;

  auto sources = f.array("sources", true);
  if (!sources) return sources.error();
  if (Status s = checkSources(**sources); !s) return s;

  auto snapshot = f.array("snapshot", true);
  if (!snapshot) return snapshot.error();
  if (Status s = checkSnapshot(**snapshot); !s) return s;

  auto evaluations = f.array("ruleEvaluations", true);
  if (!evaluations) return evaluations.error();
  if (Status s = checkRuleEvaluations(**evaluations); !s) return s;

  if (Status s = f.string("rationale", true, false); !s) return s;
  if (wordCount(f.get("rationale")->asString()) > kMaxRationaleWords) {
    return shapeError("rationale", "has more than 120 words");
  }

  const Value* confidence = f.get("confidence");
  if (confidence == nullptr) return shapeError("confidence", "is missing");
  if (!confidence->isString() || !isConfidence(confidence->asString())) {
    return shapeError("confidence", "must be a decimal string from \"0\" to \"1\", like \"0.86\"");
  }

  auto gaps = f.array("gaps", true);
  if (!gaps) return gaps.error();
  for (std::size_t i = 0; i < (*gaps)->size(); ++i) {
    if (!(**gaps)[i].isString()) return shapeError(item("gaps", i), "must be a string");
  }

  auto calls = f.array("modelCalls", false);
  if (!calls) return calls.error();
  if (*calls != nullptr) {
    if (Status s = checkModelCalls(**calls); !s) return s;
  }

  return f.oneOf("visibility", {"self", "self_mor", "self_owner", "owner"});
}

Result<json::Value> signReceipt(json::Value receipt, const SigningKey& key) {
  if (Status s = json::validate(receipt); !s) return makeError("receipt: " + s.message());
  if (!receipt.isObject()) return makeError("receipt: must be a JSON object");
  if (receipt.find(kSig) != nullptr) {
    return makeError("receipt: already has a sig; sign a receipt exactly once");
  }
  if (Status s = validateReceipt(receipt); !s) return s.error();
  const std::string text = signedText(receipt.asObject());
  const auto sig = key.sign(asBytes(text));
  // Built as a fresh object: returning the by-value parameter trips a GCC 12 false
  // -Wmaybe-uninitialized inside std::variant.
  json::Object out = std::move(receipt.asObject());
  out.emplace(std::string(kSig), toBase64(sig));
  return json::Value(std::move(out));
}

Status verifyReceipt(const json::Value& body, const VerifierKey& key) {
  if (!body.isObject()) return makeError("receipt: must be a JSON object");
  const Value* sig = body.find(kSig);
  if (sig == nullptr) return makeError("receipt: missing sig");
  if (!sig->isString()) return makeError("receipt: sig must be a string");
  const auto raw = fromBase64(sig->asString());
  if (!raw || raw->size() != 64) return makeError("receipt: sig is not base64 of 64 bytes");
  if (Status s = json::validate(body); !s) return makeError("receipt: " + s.message());
  const std::string text = signedText(body.asObject());
  if (!key.verify(asBytes(text), *raw)) {
    return makeError("receipt: signature does not verify with the site key");
  }
  return validateReceipt(body);
}

}  // namespace atoms
