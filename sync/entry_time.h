// Reading the time of an audit entry back: for the backlog age on the status topic and for
// retention. Entry timestamps are UTC "YYYY-MM-DDTHH:MM:SS.mmmZ" (store/audit_entry.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <string_view>

#include "base/result.h"
#include "store/audit_log.h"

namespace atoms::sync {

using TimePoint = std::chrono::system_clock::time_point;

// The years parseTimestamp accepts (system_clock's range ends in 2262).
inline constexpr int kMinYear = 1970;
inline constexpr int kMaxYear = 2200;

// Exactly the entry format, a real date in [kMinYear, kMaxYear]; millisecond precision. Pure,
// thread-safe.
Result<TimePoint> parseTimestamp(std::string_view ts);

// The ts of entry `seq` (one SELECT and a parse). Error when seq >= log.size(). Owner thread.
Result<TimePoint> entryTime(const AuditLog& log, std::uint64_t seq);

}  // namespace atoms::sync
