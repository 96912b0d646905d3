#include "sync/retention.h"

#include <algorithm>

namespace atoms::sync {

Result<RetentionResult> pruneSyncedCheckpoints(const AuditLog& log, Database& db,
                                               std::uint64_t ackedSize, TimePoint cutoff) {
  const auto& sizes = log.signedSizes();
  // Candidates: signed sizes up to the acked one. Entry times only grow (one clock, appended in
  // order), so "old enough" holds for a prefix of them: binary search for its end.
  auto end = std::upper_bound(sizes.begin(), sizes.end(), ackedSize);
  auto lo = sizes.begin();
  auto hi = end;  // invariant: everything before lo is old enough, nothing from hi on is
  while (lo < hi) {
    auto mid = lo + (hi - lo) / 2;
    auto t = entryTime(log, *mid - 1);
    if (!t) return t.error();
    if (*t <= cutoff) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  RetentionResult result;
  if (lo == sizes.begin()) return result;
  result.boundary = *(lo - 1);
  auto stmt = db.cached("DELETE FROM audit_checkpoint WHERE size < ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, static_cast<std::int64_t>(result.boundary));
  auto done = stmt->step();
  if (!done) return done.error();
  result.pruned = static_cast<std::uint64_t>(db.changes());
  return result;
}

}  // namespace atoms::sync
