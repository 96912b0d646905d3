// The figures a finding was computed from (RuleEvaluation::input): a handful of named JSON values
// per finding, in a flat vector in the order they were set. An evaluation makes about twenty
// findings of about six figures each, thousands of times a second when a call-out ranks
// candidates; a std::map node per figure was a third of an evaluation's time (docs/benchmarks.md,
// bench_labor). Written out as a JSON object, keys sorted as canonical JSON wants, by toObject().
//
// A key is a name from the code ("weekMinutes"), never data: the input keeps a view of it, so it
// must be a string of static storage (a literal). Copying a key for every figure was a fifth of an
// evaluation's time.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/canonical_json.h"

namespace atoms::labor {

class FindingInput {
 public:
  using Entry = std::pair<std::string_view, json::Value>;
  using const_iterator = std::vector<Entry>::const_iterator;

  // The value of `key`, null when new (as std::map::operator[]). `key` must outlive the input (a
  // literal: see above).
  json::Value& operator[](std::string_view key);
  // Sets `key` to `value`, as `input[key] = value` does, but builds a new value in place rather
  // than a null that the value then replaces: findings set a few figures each, by the thousand.
  template <class T>
  void set(std::string_view key, T&& value) {
    if (json::Value* old = slot(key)) {
      *old = std::forward<T>(value);
      return;
    }
    if (entries_.empty()) entries_.reserve(kTypicalSize);
    entries_.emplace_back(key, std::forward<T>(value));
  }
  const_iterator find(std::string_view key) const;
  // The value of `key`; throws std::out_of_range when there is none (as std::map::at).
  const json::Value& at(std::string_view key) const;
  const_iterator begin() const { return entries_.begin(); }
  const_iterator end() const { return entries_.end(); }
  bool empty() const { return entries_.empty(); }

  json::Object toObject() const;
  // The same figures, whatever order they were set in.
  friend bool operator==(const FindingInput& a, const FindingInput& b) {
    return a.toObject() == b.toObject();
  }

 private:
  static constexpr std::size_t kTypicalSize = 8;  // figures of one finding, rarely more
  // The value of `key`, nullptr when there is none.
  json::Value* slot(std::string_view key);

  std::vector<Entry> entries_;
};

}  // namespace atoms::labor
