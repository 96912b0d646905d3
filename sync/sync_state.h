// The box's record of what the cloud has verified: the size and root of its last accepted ack,
// in the audit_sync table (store migration 2: one row, id = 1). Everything below that size is
// "synced"; the uplink resumes publishing from it after any restart or reconnect.
//
// Threading: the Database's (the owner thread's connection). Errors: the database's, one line.
#pragma once

#include <cstdint>

#include "base/bytes.h"
#include "base/result.h"
#include "store/database.h"

namespace atoms::sync {

struct AckedState {
  std::uint64_t size = 0;
  Hash32 root{};  // root of the first `size` leaves; emptyRoot() for 0
};

// The stored state; size 0 and the empty root when nothing was ever acked.
Result<AckedState> loadAckedState(Database& db);
// Replaces the stored state (one statement, atomic).
Status saveAckedState(Database& db, const AckedState& state);

}  // namespace atoms::sync
