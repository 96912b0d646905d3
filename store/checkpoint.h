// C2SP tlog-checkpoint bodies (https://c2sp.org/tlog-checkpoint): the text a log signs, as a
// signed note (store/signed_note.h), to commit to its size and root.
//
//   <origin>\n<tree size, decimal>\n<base64 root hash>\n[extension lines\n]
//
// Pure functions, thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/bytes.h"
#include "base/result.h"

namespace atoms {

struct Checkpoint {
  std::string origin;
  std::uint64_t size = 0;
  Hash32 root{};

  friend bool operator==(const Checkpoint&, const Checkpoint&) = default;
};

// origin "\n" size "\n" base64(root) "\n". Precondition: origin is non-empty with no control
// character (true of originForSite() of a valid site id).
std::string checkpointBody(const Checkpoint& c);

// Strict parse: non-empty origin without control characters, size in decimal without leading
// zeros (fits 64 bits), base64 of exactly 32 bytes, each line ending in '\n'. Extension lines
// after the root are allowed by the spec: they must be non-empty and are ignored.
Result<Checkpoint> parseCheckpointBody(std::string_view text);

// The origin line (and note key name) of a site's log: "atoms-edge/" + siteId.
std::string originForSite(std::string_view siteId);

}  // namespace atoms
