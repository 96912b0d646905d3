// Alarms of the ingest (docs/sync-protocol.md section 10): what the cloud publishes, retained, on
// atoms/v1/<site>/alarm when a site's segments show a fork or were tampered with, so monitoring
// sees it without reading the ingest's log. One canonical JSON object:
//
//   {"detail":"...","evidence":7,"from":F|null,"kind":"fork"|"invalid","payload_sha256":"<hex>",
//    "site":"S","to":T|null,"ts":"YYYY-MM-DDTHH:MM:SS.mmmZ","v":1}
//
// `evidence` is the row id in the ingest store's ingest_evidence table. Retained: the newest
// alarm of a site stays on the topic until an operator clears it (an empty retained message).
// Pure functions, thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace atoms::sync::ingest {

inline constexpr std::int64_t kAlarmVersion = 1;

struct Alarm {
  std::string site;
  std::string kind;  // "fork" or "invalid"
  std::optional<std::uint64_t> from, to;
  std::int64_t evidence = 0;
  std::string payloadSha256;
  std::string detail;
  std::string ts;

  friend bool operator==(const Alarm&, const Alarm&) = default;
};

// atoms/v1/<site>/alarm. Precondition: site is a valid site id.
std::string alarmTopic(std::string_view site);

// The canonical text. Precondition: strings are valid UTF-8 (the ingest's own details are).
std::string alarmJson(const Alarm& alarm);

// Strict: canonical JSON, exactly the nine fields, v == 1. Errors name the field.
Result<Alarm> parseAlarm(std::string_view text);

}  // namespace atoms::sync::ingest
