// Time and randomness as the mailbox receives them (DESIGN.md section 2: injected, never read by
// the mailbox itself). sms/ may not depend on daemon/, so the engine's Clock is handed in as a
// function; tests hand in a simulated one. The store keeps instants as Unix milliseconds (UTC).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>

namespace atoms::sms::mailbox {

using TimePoint = std::chrono::system_clock::time_point;
// Returns "now". Called from any mailbox thread, so it must be thread-safe.
using NowFunction = std::function<TimePoint()>;
// Returns a number uniformly distributed in [0, 1); used for retry jitter. Called only inside
// store operations, which the StoreRunner runs one at a time, so it needs no lock of its own.
using UnitRandom = std::function<double()>;

std::int64_t toUnixMillis(TimePoint t);
TimePoint fromUnixMillis(std::int64_t millis);

}  // namespace atoms::sms::mailbox
