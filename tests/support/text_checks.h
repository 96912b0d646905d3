// Checks on text that tests make again and again.
#pragma once

#include <string_view>

namespace atoms::testing {

// Whether `part` occurs in `text`.
inline bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

}  // namespace atoms::testing
