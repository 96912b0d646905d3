// One audit log entry (DESIGN.md section 4, "Entry"): the UTF-8 bytes of a canonical JSON object
// with exactly the fields seq, ts, site, kind, actor, body, prev. These bytes are what the leaf
// hash covers, so they are a wire format: the cloud and third parties parse them with
// parseEntry()'s rules. Byte-level rules (canonical JSON, leaf hash): docs/audit-format.md.
//
// Pure functions, thread-safe. Errors are one line naming the field.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/bytes.h"
#include "base/canonical_json.h"
#include "base/result.h"
#include "base/timestamp.h"

namespace atoms {

// Largest entry text (canonical JSON bytes) the log writes or accepts: 64 KiB. Bodies are
// summaries and receipts, never documents; the bound keeps segments and memory predictable.
inline constexpr std::size_t kMaxEntryBytes = 64 * 1024;
// Longest `kind` ([a-z0-9_.]).
inline constexpr std::size_t kMaxKindLength = 64;

struct Entry {
  std::uint64_t seq = 0;  // 0-based position in the log, <= json::kMaxSafeInteger
  std::string ts;         // UTC "YYYY-MM-DDTHH:MM:SS.mmmZ"
  std::string site;       // site id of the log
  std::string kind;       // [a-z0-9_.]{1,64}, e.g. "sms.in", "receipt"
  std::string actor;      // who caused it ("engine", "panel:ana", "cloud"...), valid UTF-8
  json::Value body;       // always an object
  Hash32 prev{};          // leaf hash of entry seq-1; all zeros for seq 0

  friend bool operator==(const Entry&, const Entry&) = default;
};

// Checks every field of a hand-built entry the way parseEntry() checks a parsed one (ts format and
// date, kind charset, site/actor valid UTF-8 and site non-empty, body an object that
// json::validate() accepts, seq within kMaxSafeInteger). Does not check the size bound.
Status validateEntry(const Entry& e);

// The canonical JSON text (prev as 64 lowercase hex). Precondition: validateEntry(e) succeeds.
std::string entryText(const Entry& e);

// Strict parse of an entry text: at most kMaxEntryBytes, canonical JSON, an object with exactly the
// seven fields and the right types, then validateEntry(). Errors name the field, e.g.
// "entry: field \"prev\" must be 64 lowercase hex characters".
Result<Entry> parseEntry(std::string_view text);

// An entry's fields without its body's tree: what a verifier needs of each entry.
struct EntryHead {
  std::uint64_t seq = 0;
  std::string ts;
  std::string site;
  std::string kind;
  std::string actor;
  Hash32 prev{};
  std::string_view body;  // the body's canonical text, a view into the text given to parse
};

// parseEntry()'s rules and errors, without building the body: the body is checked to be a
// canonical JSON object and left as text (json::parseCanonical(head.body) gives its value).
Result<EntryHead> parseEntryHead(std::string_view text);

// Kind charset and length check.
bool isValidKind(std::string_view kind);

}  // namespace atoms
