// Timestamps as the audit log writes them (DESIGN.md section 4): UTC "YYYY-MM-DDTHH:MM:SS.mmmZ".
// Pure functions, thread-safe.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "base/result.h"

namespace atoms {

// "YYYY-MM-DDTHH:MM:SS.mmmZ" in UTC, truncated to the millisecond (years 0000-9999).
std::string formatTimestamp(std::chrono::system_clock::time_point t);
// The same for a millisecond time, which reaches past the year 2262 where the clock's
// nanosecond time_point ends (a time read from outside input may).
std::string formatTimestampMillis(std::chrono::sys_time<std::chrono::milliseconds> t);

// Accepts exactly the format above with a real calendar date and time (no leap second, no 24:00).
Status validateTimestamp(std::string_view ts);

}  // namespace atoms
