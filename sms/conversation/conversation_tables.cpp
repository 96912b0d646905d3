#include "sms/conversation/conversation_tables.h"

#include <array>

namespace atoms::sms::conversation {

namespace {

using atoms::fromUnixMillis;
using atoms::toUnixMillis;

constexpr std::string_view kLedgerColumns =
    "seq, id, phone, person_id, kind, urgent, body, ref, in_reply_to, sources, actor, not_after,"
    " why_reply, state, reason, hold_until, counts_cap, local_day, receipt_seq, decisions,"
    " created_at, updated_at";

constexpr std::array<MessageClass, 6> kClasses = {
    MessageClass::kThreadReply, MessageClass::kOptOutConfirmation,
    MessageClass::kSafetyAlert, MessageClass::kEscalation,
    MessageClass::kOffer,       MessageClass::kNotice};

std::optional<MessageClass> parseClass(std::string_view name) {
  for (MessageClass c : kClasses) {
    if (messageClassName(c) == name) return c;
  }
  return std::nullopt;
}

std::optional<TimePoint> optionalTime(const Statement& s, int column) {
  if (s.columnIsNull(column)) return std::nullopt;
  return fromUnixMillis(s.columnInt64(column));
}

std::optional<std::int64_t> optionalInt(const Statement& s, int column) {
  if (s.columnIsNull(column)) return std::nullopt;
  return s.columnInt64(column);
}

void bindTime(Statement& s, int index, const std::optional<TimePoint>& t) {
  if (t) {
    s.bind(index, toUnixMillis(*t));
  } else {
    s.bindNull(index);
  }
}

void bindInt(Statement& s, int index, const std::optional<std::int64_t>& v) {
  if (v) {
    s.bind(index, *v);
  } else {
    s.bindNull(index);
  }
}

Result<LedgerRow> readLedger(const Statement& s) {
  LedgerRow r;
  r.seq = s.columnInt64(0);
  r.id = s.columnText(1);
  r.phone = s.columnText(2);
  r.personId = s.columnText(3);
  auto kind = parseClass(s.columnText(4));
  if (!kind) return makeError("sms_outreach row " + r.id + " has an unknown kind");
  r.kind = *kind;
  r.urgent = s.columnInt64(5) != 0;
  r.body = s.columnText(6);
  r.ref = s.columnText(7);
  r.inReplyTo = optionalInt(s, 8);
  r.sources = s.columnText(9);
  r.actor = s.columnText(10);
  r.notAfter = optionalTime(s, 11);
  r.whyReply = s.columnInt64(12) != 0;
  auto state = parseLedgerState(s.columnText(13));
  if (!state) return makeError("sms_outreach row " + r.id + " has an unknown state");
  r.state = *state;
  r.reason = s.columnText(14);
  r.holdUntil = optionalTime(s, 15);
  r.countsCap = s.columnInt64(16) != 0;
  r.localDay = s.columnText(17);
  r.receiptSeq = optionalInt(s, 18);
  r.decisions = static_cast<int>(s.columnInt64(19));
  r.createdAt = fromUnixMillis(s.columnInt64(20));
  r.updatedAt = fromUnixMillis(s.columnInt64(21));
  return r;
}

}  // namespace

std::string_view ledgerStateName(LedgerState state) {
  switch (state) {
    case LedgerState::kQueued:
      return "queued";
    case LedgerState::kHeld:
      return "held";
    case LedgerState::kRefused:
      return "refused";
    case LedgerState::kWithdrawn:
      return "withdrawn";
  }
  return "refused";
}

std::optional<LedgerState> parseLedgerState(std::string_view name) {
  for (LedgerState s :
       {LedgerState::kQueued, LedgerState::kHeld, LedgerState::kRefused, LedgerState::kWithdrawn}) {
    if (ledgerStateName(s) == name) return s;
  }
  return std::nullopt;
}

Result<ContactState> ConversationTables::contactState(std::string_view phone) {
  auto stmt = db_.cached(
      "SELECT opted_out, opted_out_at, opt_out_keyword, opt_out_confirmed, last_inbound_at,"
      " unknown_reply_day FROM sms_contact_state WHERE phone = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, phone);
  auto row = stmt->step();
  if (!row) return row.error();
  ContactState state;
  state.phone = std::string(phone);
  if (!*row) return state;
  state.optedOut = stmt->columnInt64(0) != 0;
  state.optedOutAt = optionalTime(*stmt, 1);
  state.optOutKeyword = stmt->columnText(2);
  state.optOutConfirmed = stmt->columnInt64(3) != 0;
  state.lastInboundAt = optionalTime(*stmt, 4);
  state.unknownReplyDay = stmt->columnText(5);
  return state;
}

Result<std::vector<std::string>> ConversationTables::activeSince(TimePoint since) {
  auto stmt = db_.cached(
      "SELECT phone FROM sms_contact_state WHERE opted_out = 0 AND last_inbound_at >= ?"
      " ORDER BY last_inbound_at");
  if (!stmt) return stmt.error();
  stmt->bind(1, atoms::toUnixMillis(since));
  std::vector<std::string> out;
  for (;;) {
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row) return out;
    out.push_back(stmt->columnText(0));
  }
}

Status ConversationTables::saveContactState(const ContactState& state) {
  auto stmt = db_.cached(
      "INSERT OR REPLACE INTO sms_contact_state(phone, opted_out, opted_out_at, opt_out_keyword,"
      " opt_out_confirmed, last_inbound_at, unknown_reply_day) VALUES(?, ?, ?, ?, ?, ?, ?)");
  if (!stmt) return stmt.error();
  stmt->bind(1, state.phone).bind(2, std::int64_t{state.optedOut ? 1 : 0});
  bindTime(*stmt, 3, state.optedOutAt);
  stmt->bind(4, state.optOutKeyword).bind(5, std::int64_t{state.optOutConfirmed ? 1 : 0});
  bindTime(*stmt, 6, state.lastInboundAt);
  stmt->bind(7, state.unknownReplyDay);
  auto done = stmt->step();
  if (!done) return done.error();
  return Status::success();
}

Result<std::optional<LedgerRow>> ConversationTables::findMessage(std::string_view id) {
  auto stmt =
      db_.cached("SELECT " + std::string(kLedgerColumns) + " FROM sms_outreach WHERE id = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, id);
  auto found = rows(*stmt);
  if (!found) return found.error();
  if (found->empty()) return std::optional<LedgerRow>();
  return std::optional<LedgerRow>(std::move(found->front()));
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
      .bind(7, r.ref);
  bindInt(*stmt, 8, r.inReplyTo);
  stmt->bind(9, r.sources).bind(10, r.actor);
  bindTime(*stmt, 11, r.notAfter);
  stmt->bind(12, std::int64_t{r.whyReply ? 1 : 0})
      .bind(13, ledgerStateName(r.state))
      .bind(14, r.reason);
  bindTime(*stmt, 15, r.holdUntil);
  stmt->bind(16, std::int64_t{r.countsCap ? 1 : 0}).bind(17, r.localDay);
  bindInt(*stmt, 18, r.receiptSeq);
  stmt->bind(19, std::int64_t{r.decisions})
      .bind(20, toUnixMillis(r.createdAt))
      .bind(21, toUnixMillis(r.updatedAt));
  auto done = stmt->step();
  if (!done) return done.error();
  return db_.lastInsertRowid();
}

Status ConversationTables::updateMessage(const LedgerRow& r) {
  auto stmt = db_.cached(
      "UPDATE sms_outreach SET state = ?, reason = ?, hold_until = ?, counts_cap = ?,"
      " local_day = ?, receipt_seq = ?, decisions = ?, updated_at = ? WHERE seq = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, ledgerStateName(r.state)).bind(2, r.reason);
  bindTime(*stmt, 3, r.holdUntil);
  stmt->bind(4, std::int64_t{r.countsCap ? 1 : 0}).bind(5, r.localDay);
  bindInt(*stmt, 6, r.receiptSeq);
  stmt->bind(7, std::int64_t{r.decisions}).bind(8, toUnixMillis(r.updatedAt)).bind(9, r.seq);
  auto done = stmt->step();
  if (!done) return done.error();
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
  return rows(*stmt);
}

Result<std::optional<TimePoint>> ConversationTables::earliestHoldEnd() {
  auto stmt = db_.cached(
      "SELECT min(hold_until) FROM sms_outreach WHERE state = 'held' AND hold_until IS NOT NULL");
  if (!stmt) return stmt.error();
  auto row = stmt->step();
  if (!row) return row.error();
  return optionalTime(*stmt, 0);
}

Result<std::optional<LedgerRow>> ConversationTables::lastExplainable(std::string_view phone) {
  auto stmt = db_.cached("SELECT " + std::string(kLedgerColumns) +
                         " FROM sms_outreach WHERE phone = ? AND state = 'queued'"
                         " AND why_reply = 0 AND receipt_seq IS NOT NULL"
                         " ORDER BY updated_at DESC, seq DESC LIMIT 1");
  if (!stmt) return stmt.error();
  stmt->bind(1, phone);
  auto found = rows(*stmt);
  if (!found) return found.error();
  if (found->empty()) return std::optional<LedgerRow>();
  return std::optional<LedgerRow>(std::move(found->front()));
}

Result<std::vector<LedgerRow>> ConversationTables::list(std::string_view phone, std::size_t limit) {
  auto stmt = db_.cached("SELECT " + std::string(kLedgerColumns) +
                         " FROM sms_outreach WHERE ? = '' OR phone = ? ORDER BY seq DESC LIMIT ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, phone).bind(2, phone).bind(3, static_cast<std::int64_t>(limit));
  return rows(*stmt);
}

Result<std::vector<LedgerRow>> ConversationTables::rows(Statement& stmt) {
  std::vector<LedgerRow> out;
  for (;;) {
    auto more = stmt.step();
    if (!more) return more.error();
    if (!*more) return out;
    auto row = readLedger(stmt);
    if (!row) return row.error();
    out.push_back(std::move(*row));
  }
}

}  // namespace atoms::sms::conversation
