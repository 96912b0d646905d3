#pragma once
// One line of text for logs, audit entries and error messages that may quote what someone outside
// wrote (a field name, an id, a value from a file): control characters are written as \xNN, so a
// quoted value can neither break a line-based log nor forge a second line. Everything else is
// kept as it is, UTF-8 included.
//
// Contract: pure, thread-safe, never throws (beyond allocation).
#include <string>
#include <string_view>

namespace atoms {

std::string oneLine(std::string_view text);

// True when every byte is printable ASCII (0x20-0x7e): safe to quote anywhere as it is.
bool isPrintableAscii(std::string_view text);

}  // namespace atoms
