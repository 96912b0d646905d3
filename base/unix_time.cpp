#include "base/unix_time.h"

namespace atoms {

std::int64_t toUnixMillis(TimePoint t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

TimePoint fromUnixMillis(std::int64_t millis) {
  return TimePoint(
      std::chrono::duration_cast<TimePoint::duration>(std::chrono::milliseconds(millis)));
}

}  // namespace atoms
