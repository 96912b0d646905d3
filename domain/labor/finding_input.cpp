#include "domain/labor/finding_input.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace atoms::labor {

namespace {

// Keys are literals, so the same key is usually the same pointer; different keys mostly differ
// in length or first letter, which spares a call to memcmp.
bool sameFindingKey(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  if (a.data() == b.data()) return true;
  return a.empty() || (a.front() == b.front() && a == b);
}

}  // namespace

FindingInput::FindingInput(const FindingInput& other) {
  try {
    for (const Entry& e : other) append(e.first, e.second);
  } catch (...) {
    clear();  // a constructor that throws runs no destructor
    throw;
  }
}

FindingInput::FindingInput(FindingInput&& other) noexcept {
  if (!other.spilled_.empty()) {
    spilled_ = std::move(other.spilled_);
    size_ = other.size_;
    other.spilled_.clear();
    other.size_ = 0;
    return;
  }
  other.moveInlineTo(*this);
}

FindingInput& FindingInput::operator=(const FindingInput& other) {
  if (this == &other) return *this;
  clear();
  for (const Entry& e : other) append(e.first, e.second);
  return *this;
}

FindingInput& FindingInput::operator=(FindingInput&& other) noexcept {
  if (this == &other) return *this;
  clear();
  if (!other.spilled_.empty()) {
    spilled_ = std::move(other.spilled_);
    size_ = other.size_;
    other.spilled_.clear();
    other.size_ = 0;
    return *this;
  }
  other.moveInlineTo(*this);
  return *this;
}

void FindingInput::moveInlineTo(FindingInput& to) {
  Entry* entries = inlineEntries();
  for (std::size_t i = 0; i < size_; ++i) to.append(entries[i].first, std::move(entries[i].second));
  clear();
}

void FindingInput::spill() {
  spilled_.reserve(2 * kInline);
  Entry* entries = inlineEntries();
  for (std::size_t i = 0; i < size_; ++i) spilled_.push_back(std::move(entries[i]));
  std::destroy_n(entries, size_);
}

void FindingInput::clear() {
  if (spilled_.empty()) {
    std::destroy_n(inlineEntries(), size_);
  } else {
    spilled_.clear();
  }
  size_ = 0;
}

json::Value* FindingInput::slot(std::string_view key) {
  Entry* entries = data();
  for (std::size_t i = 0; i < size_; ++i) {
    if (sameFindingKey(entries[i].first, key)) return &entries[i].second;
  }
  return nullptr;
}

json::Value& FindingInput::operator[](std::string_view key) {
  if (json::Value* old = slot(key)) return *old;
  return append(key, nullptr);
}

FindingInput::const_iterator FindingInput::find(std::string_view key) const {
  return std::find_if(begin(), end(),
                      [key](const Entry& e) { return sameFindingKey(e.first, key); });
}

const json::Value& FindingInput::at(std::string_view key) const {
  const auto it = find(key);
  if (it == end()) throw std::out_of_range("no finding input '" + std::string(key) + "'");
  return it->second;
}

json::Object FindingInput::toObject() const {
  json::Object object;
  for (const Entry& e : *this) object.emplace(std::string(e.first), e.second);
  return object;
}

}  // namespace atoms::labor
