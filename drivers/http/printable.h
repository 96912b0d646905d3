// How values from outside (a path, a header, a field of a request) appear in errors, refusal
// reasons and log lines: cut to maxBytes (then "...") with every byte outside printable ASCII
// replaced by '?', so they cannot forge log lines or carry invalid UTF-8 into the audit log.
// Pure; thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace atoms::drivers {

std::string printable(std::string_view text, std::size_t maxBytes = 40);

}  // namespace atoms::drivers
