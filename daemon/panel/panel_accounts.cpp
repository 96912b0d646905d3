#include "daemon/panel/panel_accounts.h"

#include "base/unix_time.h"

namespace atoms::panel {

Result<std::optional<AccountRow>> findAccount(Database& db, std::string_view personId) {
  auto stmt = db.cached(
      "SELECT person_id, password_hash, state, created_at, updated_at, password_set_at,"
      " failed_count, next_try_at FROM panel_account WHERE person_id = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, personId);
  auto row = stmt->step();
  if (!row) return row.error();
  if (!*row) return std::optional<AccountRow>();
  AccountRow a;
  a.personId = stmt->columnText(0);
  a.passwordHash = stmt->columnText(1);
  a.disabled = stmt->columnText(2) == "disabled";
  a.createdAt = fromUnixMillis(stmt->columnInt64(3));
  a.updatedAt = fromUnixMillis(stmt->columnInt64(4));
  a.passwordSetAt = fromUnixMillis(stmt->columnInt64(5));
  a.failedCount = static_cast<int>(stmt->columnInt64(6));
  a.nextTryAt = fromUnixMillis(stmt->columnInt64(7));
  return std::optional<AccountRow>(std::move(a));
}

Status saveAccount(Database& db, const AccountRow& row) {
  auto stmt = db.cached(
      "INSERT OR REPLACE INTO panel_account(person_id, password_hash, state, created_at,"
      " updated_at, password_set_at, failed_count, next_try_at) VALUES(?, ?, ?, ?, ?, ?, ?, ?)");
  if (!stmt) return stmt.error();
  stmt->bind(1, row.personId)
      .bind(2, row.passwordHash)
      .bind(3, row.disabled ? "disabled" : "active")
      .bindTime(4, row.createdAt)
      .bindTime(5, row.updatedAt)
      .bindTime(6, row.passwordSetAt)
      .bind(7, std::int64_t{row.failedCount})
      .bindTime(8, row.nextTryAt);
  return stmt->run();
}

Status saveFailures(Database& db, std::string_view personId, int failedCount, TimePoint nextTryAt,
                    TimePoint at) {
  auto stmt = db.cached(
      "UPDATE panel_account SET failed_count = ?, next_try_at = ?, updated_at = ?"
      " WHERE person_id = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, std::int64_t{failedCount}).bindTime(2, nextTryAt).bindTime(3, at).bind(4, personId);
  return stmt->run();
}

Status savePasswordHash(Database& db, std::string_view personId, const std::string& hash,
                        TimePoint at) {
  auto stmt =
      db.cached("UPDATE panel_account SET password_hash = ?, updated_at = ? WHERE person_id = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, hash).bindTime(2, at).bind(3, personId);
  return stmt->run();
}

}  // namespace atoms::panel
