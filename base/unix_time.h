// Instants as the store keeps them: Unix milliseconds (UTC), and "now" as a function for code that
// is handed the time rather than a Clock (DESIGN.md section 2: time is injected, never read).
#pragma once

#include <cstdint>
#include <functional>

#include "base/time_point.h"

namespace atoms {

// Returns "now". Called from any thread of its user, so it must be thread-safe.
using NowFunction = std::function<TimePoint()>;

std::int64_t toUnixMillis(TimePoint t);
TimePoint fromUnixMillis(std::int64_t millis);

}  // namespace atoms
