#include "sync/command/config_overrides.h"

namespace atoms::sync::command {
namespace {

ConfigOverride readRow(const Statement& stmt) {
  return ConfigOverride{stmt.columnText(0), stmt.columnText(1), stmt.columnText(2),
                        stmt.columnText(3), stmt.columnText(4)};
}

}  // namespace

Result<std::vector<ConfigOverride>> loadConfigOverrides(Database& db) {
  auto stmt =
      db.prepare("SELECT key, value, set_at, set_by, command_id FROM config_override ORDER BY key");
  if (!stmt) return stmt.error();
  std::vector<ConfigOverride> out;
  for (;;) {
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row) break;
    out.push_back(readRow(*stmt));
  }
  return out;
}

Result<std::optional<ConfigOverride>> findConfigOverride(Database& db, std::string_view key) {
  auto stmt = db.prepare(
      "SELECT key, value, set_at, set_by, command_id FROM config_override WHERE key = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, key);
  auto row = stmt->step();
  if (!row) return row.error();
  if (!*row) return std::optional<ConfigOverride>();
  return std::optional<ConfigOverride>(readRow(*stmt));
}

Status saveConfigOverride(Database& db, const ConfigOverride& o) {
  auto stmt = db.prepare(
      "INSERT OR REPLACE INTO config_override(key, value, set_at, set_by, command_id)"
      " VALUES(?, ?, ?, ?, ?)");
  if (!stmt) return stmt.error();
  stmt->bind(1, o.key).bind(2, o.value).bind(3, o.setAt).bind(4, o.setBy).bind(5, o.commandId);
  if (auto done = stmt->step(); !done) return done.error();
  return Status::success();
}

Status removeConfigOverride(Database& db, std::string_view key) {
  auto stmt = db.prepare("DELETE FROM config_override WHERE key = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, key);
  if (auto done = stmt->step(); !done) return done.error();
  return Status::success();
}

}  // namespace atoms::sync::command
