// TimePoint: an instant as every part of the box passes it (UTC, std::chrono::system_clock).
#pragma once

#include <chrono>

namespace atoms {

using TimePoint = std::chrono::system_clock::time_point;

}  // namespace atoms
