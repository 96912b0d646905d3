// Segments (DESIGN.md section 4, "Segment"): the unit of audit log sync, one canonical JSON object
//   {"checkpoint":N,"entries":[...],"from":F,"proof":[...],"site":S,"to":T,"v":1}
// carrying the entry texts of leaves F..T-1, the RFC 9162 consistency proof from size F to size T
// (base64 hashes; empty when F is 0 or F == T) and the site's signed checkpoint note for size T.
// Segments are cut at signed sizes, so every segment ends at a checkpoint.
//
// buildSegments/buildNextSegment read an AuditLog (engine thread only). parseSegment, segmentJson
// and SegmentVerifier are pure and need nothing but the site's verifier key: the cloud ingest and
// third parties use them. Errors are one line each. Docs: docs/audit-log.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/bytes.h"
#include "base/result.h"
#include "store/audit_log.h"
#include "store/merkle_frontier.h"
#include "store/signed_note.h"

namespace atoms {

inline constexpr std::int64_t kSegmentVersion = 1;

struct Segment {
  std::string site;
  std::uint64_t from = 0, to = 0;
  std::vector<std::string> entries;  // entry texts of leaves from..to-1
  std::vector<Hash32> proof;         // consistency proof from size `from` to size `to`
  std::string checkpoint;            // signed note for size `to`

  friend bool operator==(const Segment&, const Segment&) = default;
};

// The canonical JSON text. Precondition: the strings are valid UTF-8 (true of anything the log
// stores or parseSegment returns).
std::string segmentJson(const Segment& s);

// Length of `s` as a canonical JSON string (quotes included), without building it: how
// buildNextSegment and the ingest's export size a segment before they cut it.
std::size_t jsonStringLength(std::string_view s);

// Strict: canonical JSON, exactly the seven fields, v == 1, from <= to <= 2^53-1, to - from entry
// strings, proof hashes base64 of 32 bytes (none when from is 0 or from == to). Nothing is verified
// cryptographically here: that is SegmentVerifier's job.
Result<Segment> parseSegment(std::string_view text);

// The segment starting at `from` (0 or a signed size) that ends at the largest signed size <= `to`
// whose segmentJson stays within maxBytes; when even the first signed size after `from` does not
// fit, the segment ends there anyway (one batch is never split). `to` must be a signed size. The
// checkpoint note is published (AuditLog::publishCheckpoint) before it is returned.
Result<Segment> buildNextSegment(AuditLog& log, std::uint64_t from, std::uint64_t to,
                                 std::size_t maxBytes);

// All segments covering [from, to), in order (buildNextSegment repeatedly). from == to gives one
// segment with no entries (a re-published checkpoint). Errors name the nearest signed sizes when
// `from` or `to` is not one.
Result<std::vector<Segment>> buildSegments(AuditLog& log, std::uint64_t from, std::uint64_t to,
                                           std::size_t maxBytes);

// Why a segment was refused. Gap and Duplicate are about order (the ingest asks for a resend or
// acks again); Fork means a correctly signed checkpoint that contradicts what was verified before
// (keep the evidence); Invalid is everything else (bad format, signature, chain, receipt).
enum class SegmentIssue { kNone, kGap, kDuplicate, kFork, kInvalid };
// "none", "gap", "duplicate", "fork", "invalid" (for logs and metrics).
std::string_view segmentIssueName(SegmentIssue issue);

// What the verifier holds between segments; persist it to resume after a restart.
struct VerifiedState {
  std::uint64_t size = 0;
  Hash32 root{};              // root of the first `size` leaves (emptyRoot() for 0)
  Hash32 lastLeaf{};          // leaf hash of entry size-1 (zeros for 0)
  std::vector<Hash32> peaks;  // MerkleFrontier peaks of the first `size` leaves
  std::string checkpoint;     // the last accepted checkpoint note ("" for 0)
};

struct AcceptedSegment {
  std::uint64_t from = 0, to = 0;
  Hash32 root{};
  std::uint64_t receipts = 0;  // receipt signatures checked
};

// Verifies a site's segments in order with nothing but its verifier key (named
// "atoms-edge/<site>"). accept() changes the state only when the whole segment is good. Not
// thread-safe (one per site stream); copyable.
class SegmentVerifier {
 public:
  explicit SegmentVerifier(VerifierKey key);
  // Resumes from a state saved by state(). Error when the state is inconsistent (peaks vs size
  // and root, or a checkpoint note that does not match it).
  static Result<SegmentVerifier> resume(VerifierKey key, VerifiedState state);

  // Checks, in this order: site == the key's site; from == verified size (else kGap or
  // kDuplicate); the checkpoint note (signature by the key, origin, size == to); each entry
  // (checkEntry: seq from..to-1, site, prev chain from the last verified leaf, receipt
  // signatures); the root of the verified tree plus the new leaves == the checkpoint root; and,
  // for from > 0, the consistency proof from the verified root to the checkpoint root.
  Result<AcceptedSegment> accept(const Segment& segment);

  // The issue behind the last failed accept() (kNone after a success).
  SegmentIssue lastIssue() const { return lastIssue_; }
  const VerifiedState& state() const { return state_; }
  const std::string& site() const { return site_; }

 private:
  Result<AcceptedSegment> refuse(SegmentIssue issue, std::string message);

  VerifierKey key_;
  std::string site_;
  VerifiedState state_;
  MerkleFrontier frontier_;
  SegmentIssue lastIssue_ = SegmentIssue::kNone;
};

}  // namespace atoms
