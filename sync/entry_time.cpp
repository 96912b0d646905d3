#include "sync/entry_time.h"

#include <ctime>

#include "base/digits.h"
#include "store/audit_entry.h"

namespace atoms::sync {
Result<TimePoint> parseTimestamp(std::string_view ts) {
  if (Status s = validateTimestamp(ts); !s) return s.error();
  // system_clock counts nanoseconds in 64 bits: it ends in 2262. A valid-looking far date (an
  // expiry in 3026) must be an error, not an overflow.
  const int year = readDigits(ts, 0, 4);
  if (year < kMinYear || year > kMaxYear) {
    return makeError("timestamp " + std::string(ts) + ": the year must be " +
                     std::to_string(kMinYear) + " to " + std::to_string(kMaxYear));
  }
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = readDigits(ts, 5, 2) - 1;
  tm.tm_mday = readDigits(ts, 8, 2);
  tm.tm_hour = readDigits(ts, 11, 2);
  tm.tm_min = readDigits(ts, 14, 2);
  tm.tm_sec = readDigits(ts, 17, 2);
  const std::time_t seconds = ::timegm(&tm);
  return std::chrono::system_clock::from_time_t(seconds) +
         std::chrono::milliseconds(readDigits(ts, 20, 3));
}

Result<TimePoint> entryTime(const AuditLog& log, std::uint64_t seq) {
  auto text = log.entryText(seq);
  if (!text) return text.error();
  auto entry = parseEntry(*text);
  if (!entry) return makeError("seq " + std::to_string(seq) + ": " + entry.message());
  return parseTimestamp(entry->ts);
}

}  // namespace atoms::sync
