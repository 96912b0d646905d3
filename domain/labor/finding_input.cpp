#include "domain/labor/finding_input.h"

#include <algorithm>
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

json::Value* FindingInput::slot(std::string_view key) {
  for (Entry& e : entries_) {
    if (sameFindingKey(e.first, key)) return &e.second;
  }
  return nullptr;
}

json::Value& FindingInput::operator[](std::string_view key) {
  if (json::Value* old = slot(key)) return *old;
  if (entries_.empty()) entries_.reserve(kTypicalSize);
  return entries_.emplace_back(key, nullptr).second;
}

FindingInput::const_iterator FindingInput::find(std::string_view key) const {
  return std::find_if(entries_.begin(), entries_.end(),
                      [key](const Entry& e) { return sameFindingKey(e.first, key); });
}

const json::Value& FindingInput::at(std::string_view key) const {
  const auto it = find(key);
  if (it == end()) throw std::out_of_range("no finding input '" + std::string(key) + "'");
  return it->second;
}

json::Object FindingInput::toObject() const {
  json::Object object;
  for (const Entry& e : entries_) object.emplace(std::string(e.first), e.second);
  return object;
}

}  // namespace atoms::labor
