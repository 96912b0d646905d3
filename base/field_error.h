#pragma once
// The error for a record read from outside (a wire message, a stored entry) whose field is missing
// or wrong, in one form for every reader: RECORD: field "FIELD" WHAT.

#include <string>
#include <string_view>

#include "base/result.h"

namespace atoms {

inline Error fieldError(std::string_view record, std::string_view field, std::string_view what) {
  return makeError(std::string(record) + ": field \"" + std::string(field) + "\" " +
                   std::string(what));
}

}  // namespace atoms
