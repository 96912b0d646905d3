// Acks (docs/sync-protocol.md, "Acks"): what the cloud publishes on atoms/v1/<site>/ack once it
// has verified the site's log up to a size. One canonical JSON object with exactly
//   {"root":"<base64 of the 32-byte tree root>","site":"<site id>","size":N,"v":1}
// The box trusts nothing in it: it checks the size and root against its own tree
// (MqttUplink) before it marks anything synced. Pure functions, thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/bytes.h"
#include "base/result.h"

namespace atoms::sync {

inline constexpr std::int64_t kAckVersion = 1;
// Anything longer is not an ack (a canonical ack is well under 200 bytes).
inline constexpr std::size_t kMaxAckBytes = 1024;

struct Ack {
  std::string site;
  std::uint64_t size = 0;
  Hash32 root{};

  friend bool operator==(const Ack&, const Ack&) = default;
};

// The canonical text. Precondition: site is a valid site id, size <= 2^53-1.
std::string ackJson(const Ack& ack);

// Strict: at most kMaxAckBytes, canonical JSON, exactly the four fields, v == 1, site a non-empty
// string, size an integer >= 0, root base64 of 32 bytes. Errors name the field:
// "ack: field \"root\" must be base64 of a 32-byte hash".
Result<Ack> parseAck(std::string_view text);

}  // namespace atoms::sync
