// Retention of synced audit data on the box (docs/decisions/0006-sync-retention.md).
//
// What can be pruned today: the stored checkpoint notes (audit_checkpoint rows, one per committed
// batch, about 200 bytes each, so on a box that commits one entry at a time nearly as much as the
// entries). Only notes that are both ACKED (below the cloud's verified size) and older than the
// retention are deleted; the note at the boundary, the acked size's and every later one stay, so
// the uplink can still start segments at the acked size, `atoms-edge verify` still checks every
// entry against the remaining notes, and the log still opens (it needs the newest note only).
// Entry texts are not pruned: the log design (every leaf loaded at open, `verify` from seq 0)
// needs them; the decision record describes what pruning them would take.
//
// Threading: the AuditLog's owner thread. Errors: the database's, one line.
#pragma once

#include <cstdint>

#include "base/result.h"
#include "store/audit_log.h"
#include "store/database.h"
#include "sync/entry_time.h"

namespace atoms::sync {

struct RetentionResult {
  std::uint64_t boundary = 0;  // notes of sizes below it were deleted (0: nothing was old enough)
  std::uint64_t pruned = 0;    // rows deleted by this call
};

// The largest signed size S <= ackedSize whose last entry (seq S-1) is at or before `cutoff`,
// then deletes the notes of sizes below S. Idempotent; deleting nothing is a success.
Result<RetentionResult> pruneSyncedCheckpoints(const AuditLog& log, Database& db,
                                               std::uint64_t ackedSize, TimePoint cutoff);

}  // namespace atoms::sync
