#include "sms/conversation/parked_messages.h"

#include "sms/conversation/conversation_tables.h"

namespace atoms::sms::conversation {

std::string parkedReplyId(std::int64_t inboxId) {
  return "parked:inbox-" + std::to_string(inboxId);
}

Status ParkedMessages::park(std::int64_t inboxId, atoms::TimePoint at) {
  auto stmt = db_.cached("INSERT OR IGNORE INTO sms_parked(inbox_id, parked_at) VALUES(?, ?)");
  if (!stmt) return stmt.error();
  stmt->bind(1, inboxId).bind(2, atoms::toUnixMillis(at));
  auto done = stmt->step();
  if (!done) return done.error();
  return Status::success();
}

Result<std::vector<ParkedMessage>> ParkedMessages::all() {
  auto stmt = db_.cached("SELECT inbox_id, parked_at FROM sms_parked ORDER BY inbox_id");
  if (!stmt) return stmt.error();
  std::vector<ParkedMessage> out;
  while (true) {
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row) break;
    out.push_back({stmt->columnInt64(0), atoms::fromUnixMillis(stmt->columnInt64(1))});
  }
  return out;
}

Status ParkedMessages::remove(std::int64_t inboxId) {
  auto stmt = db_.cached("DELETE FROM sms_parked WHERE inbox_id = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, inboxId);
  auto done = stmt->step();
  if (!done) return done.error();
  return Status::success();
}

Result<bool> ParkedMessages::wasParked(std::int64_t inboxId) {
  auto answer = ConversationTables(db_).findMessage(parkedReplyId(inboxId));
  if (!answer) return answer.error();
  return answer->has_value();
}

}  // namespace atoms::sms::conversation
