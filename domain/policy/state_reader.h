// StateReader: reads a policy state machine's stored JSON state strictly (the trust budget's
// trust_budget row, a breaker's breaker row): the first problem is kept and named ("trust budget
// state: state.hold field \"since\" must be an integer in 0..253402300799999"), later reads return
// defaults, and the caller checks error() once at the end, so nothing is half-loaded.
// Also the millisecond form the stored states use for instants (Unix milliseconds, UTC).
//
// Threading: none (a value used on one thread). Errors: error(), one line.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "base/canonical_json.h"
#include "base/clock.h"

namespace atoms::policy {

inline std::int64_t millis(TimePoint t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}
inline TimePoint fromMillis(std::int64_t ms) { return TimePoint(std::chrono::milliseconds(ms)); }

class StateReader {
 public:
  // `where` begins every error: "trust budget state: state", "breaker BRK-OUT state".
  StateReader(const json::Value& v, std::string where) : value_(&v), where_(std::move(where)) {
    if (!v.isObject()) fail("is not an object");
  }
  const std::string& error() const { return error_; }
  void fail(const std::string& what) {
    if (error_.empty()) error_ = where_ + " " + what;
  }
  // Takes over the first problem of a reader of one of this object's members.
  void adopt(const StateReader& member) {
    if (error_.empty()) error_ = member.error_;
  }
  StateReader member(std::string_view key, const json::Value& v) const {
    return StateReader(v, where_ + "." + std::string(key));
  }
  // Every field of the object must be one of `known`.
  void only(std::initializer_list<std::string_view> known) {
    if (!value_->isObject()) return;
    for (const auto& [key, value] : value_->asObject()) {
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        fail("has an unknown field \"" + key + "\"");
      }
    }
  }
  const json::Value* field(std::string_view key) {
    const json::Value* v = value_->find(key);
    if (!v && value_->isObject()) fail("lacks the field \"" + std::string(key) + "\"");
    return v;
  }
  std::int64_t integer(std::string_view key, std::int64_t lo, std::int64_t hi) {
    const json::Value* v = field(key);
    if (!v) return lo;
    if (!v->isInt() || v->asInt() < lo || v->asInt() > hi) {
      fail("field \"" + std::string(key) + "\" must be an integer in " + std::to_string(lo) + ".." +
           std::to_string(hi));
      return lo;
    }
    return v->asInt();
  }
  TimePoint time(std::string_view key) { return fromMillis(integer(key, 0, kMaxMillis)); }
  std::optional<TimePoint> optionalTime(std::string_view key) {
    const json::Value* v = field(key);
    if (!v || v->isNull()) return std::nullopt;
    return time(key);
  }
  std::string text(std::string_view key) {
    const json::Value* v = field(key);
    if (v && !v->isString()) fail("field \"" + std::string(key) + "\" must be a string");
    return v && v->isString() ? v->asString() : std::string();
  }
  std::deque<bool> window(std::string_view key, std::size_t limit) {
    const std::string s = text(key);
    std::deque<bool> out;
    if (s.size() > limit || s.find_first_not_of("01") != std::string::npos) {
      fail("field \"" + std::string(key) + "\" must be at most " + std::to_string(limit) +
           " characters 0 or 1");
      return out;
    }
    for (char c : s) out.push_back(c == '1');
    return out;
  }
  const json::Array& array(std::string_view key) {
    static const json::Array kEmpty;
    const json::Value* v = field(key);
    if (v && !v->isArray()) fail("field \"" + std::string(key) + "\" must be an array");
    return v && v->isArray() ? v->asArray() : kEmpty;
  }

  // The last millisecond of the year 9999: far beyond any real stored time.
  static constexpr std::int64_t kMaxMillis = 253402300799999;

 private:
  const json::Value* value_;
  std::string where_;
  std::string error_;
};

}  // namespace atoms::policy
