#include "domain/labor/finding_input.h"

#include <algorithm>
#include <stdexcept>

namespace atoms::labor {

json::Value& FindingInput::operator[](std::string_view key) {
  for (Entry& e : entries_) {
    if (e.first == key) return e.second;
  }
  if (entries_.empty()) entries_.reserve(8);
  return entries_.emplace_back(key, nullptr).second;
}

FindingInput::const_iterator FindingInput::find(std::string_view key) const {
  return std::find_if(entries_.begin(), entries_.end(),
                      [key](const Entry& e) { return e.first == key; });
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
