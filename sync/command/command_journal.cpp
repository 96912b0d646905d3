#include "sync/command/command_journal.h"

#include "store/row_reader.h"

namespace atoms::sync::command {

Result<std::optional<DecidedCommand>> findDecidedCommand(Database& db, std::string_view id) {
  auto stmt = db.cached(
      "SELECT kind, outcome, code, decided_at, audit_seq, result FROM sync_command WHERE id = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, id);
  auto row = stmt->step();
  if (!row) return row.error();
  if (!*row) return std::optional<DecidedCommand>();
  DecidedCommand d;
  RowReader r(*stmt);
  d.id = std::string(id);
  d.kind = r.text();
  d.outcome = r.text();
  d.code = r.text();
  d.decidedAt = r.text();
  if (auto seq = r.optionalInt64()) d.auditSeq = static_cast<std::uint64_t>(*seq);
  d.result = r.text();
  return std::optional<DecidedCommand>(std::move(d));
}

Status recordDecidedCommand(Database& db, const DecidedCommand& d) {
  auto stmt = db.cached(
      "INSERT INTO sync_command(id, kind, outcome, code, decided_at, audit_seq, result)"
      " VALUES(?, ?, ?, ?, ?, ?, ?)");
  if (!stmt) return stmt.error();
  std::optional<std::int64_t> auditSeq;
  if (d.auditSeq) auditSeq = static_cast<std::int64_t>(*d.auditSeq);
  stmt->bind(1, d.id)
      .bind(2, d.kind)
      .bind(3, d.outcome)
      .bind(4, d.code)
      .bind(5, d.decidedAt)
      .bindOptional(6, auditSeq)
      .bind(7, d.result);
  if (auto done = stmt->step(); !done) {
    return makeError("cannot record command " + d.id + ": " + done.message());
  }
  return Status::success();
}

Result<std::uint64_t> countDecidedCommands(Database& db) {
  auto stmt = db.cached("SELECT count(*) FROM sync_command");
  if (!stmt) return stmt.error();
  auto row = stmt->step();
  if (!row) return row.error();
  return static_cast<std::uint64_t>(stmt->columnInt64(0));
}

}  // namespace atoms::sync::command
