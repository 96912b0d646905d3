#include "store/row_reader.h"

#include "base/unix_time.h"

namespace atoms {

TimePoint RowReader::time() { return fromUnixMillis(int64()); }

std::optional<std::int64_t> RowReader::optionalInt64() {
  if (nextIsNull()) {
    skip();
    return std::nullopt;
  }
  return int64();
}

std::optional<std::string> RowReader::optionalText() {
  if (nextIsNull()) {
    skip();
    return std::nullopt;
  }
  return text();
}

std::optional<TimePoint> RowReader::optionalTime() {
  auto millis = optionalInt64();
  if (!millis) return std::nullopt;
  return fromUnixMillis(*millis);
}

}  // namespace atoms
