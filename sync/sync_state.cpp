#include "sync/sync_state.h"

#include <algorithm>

#include "store/merkle.h"

namespace atoms::sync {

Result<AckedState> loadAckedState(Database& db) {
  auto stmt = db.cached("SELECT acked_size, acked_root FROM audit_sync WHERE id = 1");
  if (!stmt) return stmt.error();
  auto row = stmt->step();
  if (!row) return row.error();
  AckedState state;
  state.root = emptyRoot();
  if (!*row) return state;
  const std::int64_t size = stmt->columnInt64(0);
  const Bytes root = stmt->columnBlob(1);
  if (size < 0 || (size > 0 && root.size() != state.root.size())) {
    return makeError("audit_sync holds a malformed acked state (size " + std::to_string(size) +
                     ")");
  }
  state.size = static_cast<std::uint64_t>(size);
  if (size > 0) std::copy(root.begin(), root.end(), state.root.begin());
  return state;
}

Status saveAckedState(Database& db, const AckedState& state) {
  auto stmt =
      db.cached("INSERT OR REPLACE INTO audit_sync(id, acked_size, acked_root) VALUES(1, ?, ?)");
  if (!stmt) return stmt.error();
  stmt->bind(1, static_cast<std::int64_t>(state.size)).bindBlob(2, state.root);
  return stmt->run();
}

}  // namespace atoms::sync
