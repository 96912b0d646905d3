// Status reports (docs/sync-protocol.md, "Status"): the retained message on
// atoms/v1/<site>/status. Online (the birth message, refreshed while connected):
//   {"acked":A,"backlog":{"age_s":N,"entries":E,"oldest":"<ts>"|null},"site":S,"size":Z,
//    "state":"online","ts":"<ts>","v":1}
// Offline (the last will, and what a box publishes when it stops cleanly):
//   {"site":S,"state":"offline","v":1}
// Canonical JSON, timestamps as in audit entries. Pure functions, thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace atoms::sync {

inline constexpr std::int64_t kStatusVersion = 1;

struct StatusReport {
  std::string site;
  bool online = true;
  // Online only:
  std::string ts;                       // when the report was made
  std::uint64_t size = 0;               // entries in the box's log
  std::uint64_t acked = 0;              // entries the cloud has verified and acked
  std::optional<std::string> oldest;    // ts of the oldest unacked entry (none when in sync)
  std::uint64_t backlogAgeSeconds = 0;  // ts - oldest, 0 when in sync

  std::uint64_t backlogEntries() const { return size >= acked ? size - acked : 0; }
  friend bool operator==(const StatusReport&, const StatusReport&) = default;
};

// The canonical text (online or offline form per report.online).
std::string statusJson(const StatusReport& report);
// The offline form for site (the last will).
std::string offlineStatusJson(std::string_view site);

// Strict parse of either form. Errors name the field.
Result<StatusReport> parseStatus(std::string_view text);

}  // namespace atoms::sync
