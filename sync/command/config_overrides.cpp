#include "sync/command/config_overrides.h"

#include "store/row_reader.h"

namespace atoms::sync::command {
namespace {

ConfigOverride readRow(RowReader& r) {
  return ConfigOverride{r.text(), r.text(), r.text(), r.text(), r.text()};
}

}  // namespace

Result<std::vector<ConfigOverride>> loadConfigOverrides(Database& db) {
  auto stmt =
      db.cached("SELECT key, value, set_at, set_by, command_id FROM config_override ORDER BY key");
  if (!stmt) return stmt.error();
  return readRows(*stmt, readRow);
}

Result<std::optional<ConfigOverride>> findConfigOverride(Database& db, std::string_view key) {
  auto stmt =
      db.cached("SELECT key, value, set_at, set_by, command_id FROM config_override WHERE key = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, key);
  return readFirst(*stmt, readRow);
}

Status saveConfigOverride(Database& db, const ConfigOverride& o) {
  auto stmt = db.cached(
      "INSERT OR REPLACE INTO config_override(key, value, set_at, set_by, command_id)"
      " VALUES(?, ?, ?, ?, ?)");
  if (!stmt) return stmt.error();
  stmt->bind(1, o.key).bind(2, o.value).bind(3, o.setAt).bind(4, o.setBy).bind(5, o.commandId);
  return stmt->run();
}

Status removeConfigOverride(Database& db, std::string_view key) {
  auto stmt = db.cached("DELETE FROM config_override WHERE key = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, key);
  return stmt->run();
}

}  // namespace atoms::sync::command
