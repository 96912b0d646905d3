// The figures a finding was computed from (RuleEvaluation::input): a handful of named JSON values
// per finding, in the order they were set. An evaluation makes about twenty findings of about six
// figures each, thousands of times a second when a call-out ranks candidates; a std::map node per
// figure was a third of an evaluation's time (docs/benchmarks.md, bench_labor), and a heap block
// per finding was still several percent of it, so the first kInline figures live inside the
// input itself and only a finding with more moves them all to the heap. Written out as a JSON
// object, keys sorted as canonical JSON wants, by toObject().
//
// A key is a name from the code ("weekMinutes"), never data: the input keeps a view of it, so it
// must be a string of static storage (a literal). Copying a key for every figure was a fifth of an
// evaluation's time.
#pragma once

#include <cstddef>
#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/canonical_json.h"

namespace atoms::labor {

class FindingInput {
 public:
  using Entry = std::pair<std::string_view, json::Value>;
  using const_iterator = const Entry*;

  FindingInput() = default;
  FindingInput(const FindingInput& other);
  FindingInput(FindingInput&& other) noexcept;
  FindingInput& operator=(const FindingInput& other);
  FindingInput& operator=(FindingInput&& other) noexcept;
  ~FindingInput() { clear(); }

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
    append(key, std::forward<T>(value));
  }
  const_iterator find(std::string_view key) const;
  // The value of `key`; throws std::out_of_range when there is none (as std::map::at).
  const json::Value& at(std::string_view key) const;
  const_iterator begin() const { return data(); }
  const_iterator end() const { return data() + size_; }
  bool empty() const { return size_ == 0; }

  json::Object toObject() const;
  // The same figures, whatever order they were set in.
  friend bool operator==(const FindingInput& a, const FindingInput& b) {
    return a.toObject() == b.toObject();
  }

 private:
  static constexpr std::size_t kInline = 8;  // figures of one finding, rarely more

  // The entries: in inline_ up to kInline of them, then all in spilled_.
  Entry* data() { return spilled_.empty() ? inlineEntries() : spilled_.data(); }
  const Entry* data() const { return spilled_.empty() ? inlineEntries() : spilled_.data(); }
  Entry* inlineEntries() { return std::launder(reinterpret_cast<Entry*>(inline_)); }
  const Entry* inlineEntries() const {
    return std::launder(reinterpret_cast<const Entry*>(inline_));
  }
  // The value of `key`, nullptr when there is none.
  json::Value* slot(std::string_view key);
  template <class T>
  json::Value& append(std::string_view key, T&& value) {
    if (spilled_.empty() && size_ < kInline) {
      Entry* e = new (inlineEntries() + size_) Entry(key, std::forward<T>(value));
      ++size_;
      return e->second;
    }
    if (spilled_.empty()) spill();
    Entry& e = spilled_.emplace_back(key, std::forward<T>(value));
    ++size_;
    return e.second;
  }
  void spill();                         // moves the inline entries to spilled_
  void moveInlineTo(FindingInput& to);  // appends them to `to` and clears this
  void clear();                         // destroys every entry

  std::size_t size_ = 0;
  std::vector<Entry> spilled_;
  alignas(Entry) unsigned char inline_[kInline * sizeof(Entry)];
};

}  // namespace atoms::labor
