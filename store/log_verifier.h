// End-to-end verification of an audit log (DESIGN.md section 4, `atoms-edge verify`): every leaf,
// the hash chain, every checkpoint signature and root, every receipt signature, with nothing but
// the site's verifier key. The building blocks (checkEntry, openCheckpoint) are shared with the
// segment verifier in sync/segment.h, so the box, the cloud and third parties apply one rule set.
//
// Pure functions over their inputs; thread-safe as long as each call has its own Database.
// Problems are reported, not returned as errors: the first one stops the check.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/bytes.h"
#include "base/result.h"
#include "store/checkpoint.h"
#include "store/database.h"
#include "store/signed_note.h"

namespace atoms {

struct VerifyReport {
  std::uint64_t entries = 0;      // entries checked and found good (in seq order from 0)
  std::uint64_t checkpoints = 0;  // checkpoints checked and found good
  std::uint64_t receipts = 0;     // receipt signatures checked and found good
  Hash32 root{};                  // root of the `entries` good entries
  // The first entry that is missing or wrong; unset when the problem is not an entry (a bad
  // checkpoint, an unreadable database) or when there is no problem.
  std::optional<std::uint64_t> firstBadSeq;
  std::string problem;  // one line, e.g. "seq 41: prev does not match the leaf hash of seq 40"

  bool ok() const { return problem.empty(); }
};

// Reads audit_entry and audit_checkpoint of `db` (any mode, ReadOnly is enough) in one pass in seq
// order and checks: rows contiguous from 0 (a missing seq is reported as that seq), each stored
// leaf_hash equals SHA-256(0x00 || entry), each entry passes checkEntry(), and each checkpoint
// passes openCheckpoint() with a size <= the entries and a root equal to the tree's root at that
// size (and to its root column). Memory is O(log n); cost is one hash per leaf plus one signature
// check per checkpoint and per receipt.
VerifyReport verifyDatabase(Database& db, const VerifierKey& key, std::string_view siteId);

struct CheckedEntry {
  Hash32 leaf{};         // SHA-256(0x00 || text)
  bool receipt = false;  // kind "receipt", signature verified
};

// One entry in a stream: parses (canonical, the seven fields, kMaxEntryBytes), carries `seq` and
// `site`, its prev equals `prev` (the previous leaf hash, zeros for seq 0), and a receipt's
// signature verifies with `key`. Error messages omit the "seq N: " prefix the caller adds.
Result<CheckedEntry> checkEntry(std::string_view text, std::uint64_t seq, std::string_view site,
                                const Hash32& prev, const VerifierKey& key);

// Verifies a checkpoint note: a signature line by `key` (same name and key id) that verifies, a
// tlog-checkpoint body, and origin == key.name(). Distinct errors: "not signed by the site key",
// "signature does not verify with the site key", "malformed note: ...", "body is not a
// checkpoint: ...", "origin is X, expected Y".
Result<Checkpoint> openCheckpoint(std::string_view note, const VerifierKey& key);

}  // namespace atoms
