#include "sms/conversation/conversation_tables.h"

#include "base/name_table.h"
#include "store/row_reader.h"

namespace atoms::sms::conversation {

namespace {

using atoms::toUnixMillis;

constexpr std::string_view kLedgerColumns =
    "seq, id, phone, person_id, kind, urgent, body, ref, in_reply_to, sources, actor, not_after,"
    " why_reply, state, reason, hold_until, counts_cap, local_day, receipt_seq, decisions,"
    " created_at, updated_at";

constexpr NameTable<LedgerState, 4> kLedgerStates{{{LedgerState::kQueued, "queued"},
                                                   {LedgerState::kHeld, "held"},
                                                   {LedgerState::kRefused, "refused"},
                                                   {LedgerState::kWithdrawn, "withdrawn"}}};

Result<LedgerRow> readLedger(RowReader& r) {
  LedgerRow row;
  row.seq = r.int64();
  row.id = r.text();
  row.phone = r.text();
  row.personId = r.text();
  auto kind = messageClassFromName(r.text());
  if (!kind) return makeError("sms_outreach row " + row.id + " has an unknown kind");
  row.kind = *kind;
  row.urgent = r.flag();
  row.body = r.text();
  row.ref = r.text();
  row.inReplyTo = r.optionalInt64();
  row.sources = r.text();
  row.actor = r.text();
  row.notAfter = r.optionalTime();
  row.whyReply = r.flag();
  auto state = r.named(kLedgerStates);
  if (!state) return makeError("sms_outreach row " + row.id + " has an unknown state");
  row.state = *state;
  row.reason = r.text();
  row.holdUntil = r.optionalTime();
  row.countsCap = r.flag();
  row.localDay = r.text();
  row.receiptSeq = r.optionalInt64();
  row.decisions = r.int32();
  row.createdAt = r.time();
  row.updatedAt = r.time();
  return row;
}

}  // namespace

std::string_view ledgerStateName(LedgerState state) { return nameOf(kLedgerStates, state); }

std::optional<LedgerState> parseLedgerState(std::string_view name) {
  return fromName(kLedgerStates, name);
}

Result<ContactState> ConversationTables::contactState(std::string_view phone) {
  auto stmt = db_.cached(
      "SELECT opted_out, opted_out_at, opt_out_keyword, opt_out_confirmed, last_inbound_at,"
      " unknown_reply_day FROM sms_contact_state WHERE phone = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, phone);
  auto found = readFirst(*stmt, [&phone](RowReader& r) {
    ContactState state;
    state.phone = std::string(phone);
    state.optedOut = r.flag();
    state.optedOutAt = r.optionalTime();
    state.optOutKeyword = r.text();
    state.optOutConfirmed = r.flag();
    state.lastInboundAt = r.optionalTime();
    state.unknownReplyDay = r.text();
    return state;
  });
  if (!found) return found.error();
  if (*found) return std::move(**found);
  ContactState fresh;  // nobody wrote from this number yet
  fresh.phone = std::string(phone);
  return fresh;
}

Result<std::vector<std::string>> ConversationTables::activeSince(TimePoint since) {
  auto stmt = db_.cached(
      "SELECT phone FROM sms_contact_state WHERE opted_out = 0 AND last_inbound_at >= ?"
      " ORDER BY last_inbound_at");
  if (!stmt) return stmt.error();
  stmt->bind(1, atoms::toUnixMillis(since));
  return readRows(*stmt, [](RowReader& r) { return r.text(); });
}

Status ConversationTables::saveContactState(const ContactState& state) {
  auto stmt = db_.cached(
      "INSERT OR REPLACE INTO sms_contact_state(phone, opted_out, opted_out_at, opt_out_keyword,"
      " opt_out_confirmed, last_inbound_at, unknown_reply_day) VALUES(?, ?, ?, ?, ?, ?, ?)");
  if (!stmt) return stmt.error();
  return stmt->bind(1, state.phone)
      .bind(2, std::int64_t{state.optedOut ? 1 : 0})
      .bindTime(3, state.optedOutAt)
      .bind(4, state.optOutKeyword)
      .bind(5, std::int64_t{state.optOutConfirmed ? 1 : 0})
      .bindTime(6, state.lastInboundAt)
      .bind(7, state.unknownReplyDay)
      .run();
}

Result<std::optional<LedgerRow>> ConversationTables::findMessage(std::string_view id) {
  auto stmt =
      db_.cached("SELECT " + std::string(kLedgerColumns) + " FROM sms_outreach WHERE id = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, id);
  return readFirst(*stmt, readLedger);
}

Result<std::int64_t> ConversationTables::insertMessage(const LedgerRow& r) {
  auto stmt = db_.cached(
      "INSERT INTO sms_outreach(id, phone, person_id, kind, urgent, body, ref, in_reply_to,"
      " sources, actor, not_after, why_reply, state, reason, hold_until, counts_cap, local_day,"
      " receipt_seq, decisions, created_at, updated_at)"
      " VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  if (!stmt) return stmt.error();
  stmt->bind(1, r.id)
      .bind(2, r.phone)
      .bind(3, r.personId)
      .bind(4, messageClassName(r.kind))
      .bind(5, std::int64_t{r.urgent ? 1 : 0})
      .bind(6, r.body)
      .bind(7, r.ref)
      .bindOptional(8, r.inReplyTo)
      .bind(9, r.sources)
      .bind(10, r.actor)
      .bindTime(11, r.notAfter)
      .bind(12, std::int64_t{r.whyReply ? 1 : 0})
      .bind(13, ledgerStateName(r.state))
      .bind(14, r.reason)
      .bindTime(15, r.holdUntil)
      .bind(16, std::int64_t{r.countsCap ? 1 : 0})
      .bind(17, r.localDay)
      .bindOptional(18, r.receiptSeq)
      .bind(19, std::int64_t{r.decisions})
      .bindTime(20, r.createdAt)
      .bindTime(21, r.updatedAt);
  if (Status s = stmt->run(); !s) return s.error();
  return db_.lastInsertRowid();
}

Status ConversationTables::updateMessage(const LedgerRow& r) {
  auto stmt = db_.cached(
      "UPDATE sms_outreach SET state = ?, reason = ?, hold_until = ?, counts_cap = ?,"
      " local_day = ?, receipt_seq = ?, decisions = ?, updated_at = ? WHERE seq = ?");
  if (!stmt) return stmt.error();
  Status done = stmt->bind(1, ledgerStateName(r.state))
                    .bind(2, r.reason)
                    .bindTime(3, r.holdUntil)
                    .bind(4, std::int64_t{r.countsCap ? 1 : 0})
                    .bind(5, r.localDay)
                    .bindOptional(6, r.receiptSeq)
                    .bind(7, std::int64_t{r.decisions})
                    .bindTime(8, r.updatedAt)
                    .bind(9, r.seq)
                    .run();
  if (!done) return done;
  if (db_.changes() != 1) return makeError("sms_outreach has no row " + std::to_string(r.seq));
  return Status::success();
}

Result<int> ConversationTables::countQueued(std::string_view phone, std::string_view day,
                                            std::optional<MessageClass> kind) {
  auto stmt =
      db_.cached(kind ? "SELECT count(*) FROM sms_outreach WHERE phone = ? AND local_day = ?"
                        " AND state = 'queued' AND kind = ?"
                      : "SELECT count(*) FROM sms_outreach WHERE phone = ? AND local_day = ?"
                        " AND state = 'queued' AND counts_cap = 1");
  if (!stmt) return stmt.error();
  stmt->bind(1, phone).bind(2, day);
  if (kind) stmt->bind(3, messageClassName(*kind));
  auto row = stmt->step();
  if (!row) return row.error();
  return static_cast<int>(stmt->columnInt64(0));
}

Result<std::vector<LedgerRow>> ConversationTables::dueHeld(TimePoint now, bool withFrozen,
                                                           std::size_t limit) {
  auto stmt = db_.cached("SELECT " + std::string(kLedgerColumns) +
                         " FROM sms_outreach WHERE state = 'held' AND ((hold_until IS NOT NULL"
                         " AND hold_until <= ?) OR (hold_until IS NULL AND ? = 1))"
                         " ORDER BY seq LIMIT ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, toUnixMillis(now))
      .bind(2, std::int64_t{withFrozen ? 1 : 0})
      .bind(3, static_cast<std::int64_t>(limit));
  return readRows(*stmt, readLedger);
}

Result<std::optional<TimePoint>> ConversationTables::earliestHoldEnd() {
  auto stmt = db_.cached(
      "SELECT min(hold_until) FROM sms_outreach WHERE state = 'held' AND hold_until IS NOT NULL");
  if (!stmt) return stmt.error();
  auto earliest = readFirst(*stmt, [](RowReader& r) { return r.optionalTime(); });
  if (!earliest) return earliest.error();
  return earliest->value_or(std::nullopt);  // min() of no rows is one NULL row
}

Result<std::optional<LedgerRow>> ConversationTables::lastExplainable(std::string_view phone) {
  auto stmt = db_.cached("SELECT " + std::string(kLedgerColumns) +
                         " FROM sms_outreach WHERE phone = ? AND state = 'queued'"
                         " AND why_reply = 0 AND receipt_seq IS NOT NULL"
                         " ORDER BY updated_at DESC, seq DESC LIMIT 1");
  if (!stmt) return stmt.error();
  stmt->bind(1, phone);
  return readFirst(*stmt, readLedger);
}

Result<std::vector<LedgerRow>> ConversationTables::list(std::string_view phone, std::size_t limit) {
  auto stmt = db_.cached("SELECT " + std::string(kLedgerColumns) +
                         " FROM sms_outreach WHERE ? = '' OR phone = ? ORDER BY seq DESC LIMIT ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, phone).bind(2, phone).bind(3, static_cast<std::int64_t>(limit));
  return readRows(*stmt, readLedger);
}

}  // namespace atoms::sms::conversation
