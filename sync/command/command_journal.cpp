#include "sync/command/command_journal.h"

namespace atoms::sync::command {

Result<std::optional<DecidedCommand>> findDecidedCommand(Database& db, std::string_view id) {
  auto stmt = db.prepare(
      "SELECT kind, outcome, code, decided_at, audit_seq, result FROM sync_command WHERE id = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, id);
  auto row = stmt->step();
  if (!row) return row.error();
  if (!*row) return std::optional<DecidedCommand>();
  DecidedCommand d;
  d.id = std::string(id);
  d.kind = stmt->columnText(0);
  d.outcome = stmt->columnText(1);
  d.code = stmt->columnText(2);
  d.decidedAt = stmt->columnText(3);
  if (!stmt->columnIsNull(4)) d.auditSeq = static_cast<std::uint64_t>(stmt->columnInt64(4));
  d.result = stmt->columnText(5);
  return std::optional<DecidedCommand>(std::move(d));
}

Status recordDecidedCommand(Database& db, const DecidedCommand& d) {
  auto stmt = db.prepare(
      "INSERT INTO sync_command(id, kind, outcome, code, decided_at, audit_seq, result)"
      " VALUES(?, ?, ?, ?, ?, ?, ?)");
  if (!stmt) return stmt.error();
  stmt->bind(1, d.id).bind(2, d.kind).bind(3, d.outcome).bind(4, d.code).bind(5, d.decidedAt);
  if (d.auditSeq) {
    stmt->bind(6, static_cast<std::int64_t>(*d.auditSeq));
  } else {
    stmt->bindNull(6);
  }
  stmt->bind(7, d.result);
  if (auto done = stmt->step(); !done) {
    return makeError("cannot record command " + d.id + ": " + done.message());
  }
  return Status::success();
}

Result<std::uint64_t> countDecidedCommands(Database& db) {
  auto stmt = db.prepare("SELECT count(*) FROM sync_command");
  if (!stmt) return stmt.error();
  auto row = stmt->step();
  if (!row) return row.error();
  return static_cast<std::uint64_t>(stmt->columnInt64(0));
}

}  // namespace atoms::sync::command
