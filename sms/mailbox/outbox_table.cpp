#include "sms/mailbox/outbox_table.h"

namespace atoms::sms::mailbox {
namespace {

constexpr std::string_view kColumns =
    "seq, id, to_number, body, class, segments, ref, state, attempts, reconcile_attempts,"
    " next_attempt_at, expires_at, gateway, provider_id, error_code, last_error, flag,"
    " hold_reason, created_at, updated_at, first_attempt_at, sent_at, final_at";

constexpr std::string_view kUncertainFlag = "uncertain";

std::string select(std::string_view rest) {
  return "SELECT " + std::string(kColumns) + " FROM sms_outbox " + std::string(rest);
}

std::optional<TimePoint> optionalTime(const Statement& stmt, int column) {
  if (stmt.columnIsNull(column)) return std::nullopt;
  return fromUnixMillis(stmt.columnInt64(column));
}

Statement& bindOptionalTime(Statement& stmt, int index, const std::optional<TimePoint>& t) {
  return t ? stmt.bind(index, toUnixMillis(*t)) : stmt.bindNull(index);
}

Result<OutboxRow> readRow(const Statement& s) {
  OutboxRow row;
  row.seq = s.columnInt64(0);
  row.id = s.columnText(1);
  row.to = s.columnText(2);
  row.body = s.columnText(3);
  auto cls = parseMessageClass(s.columnText(4));
  if (!cls) return makeError("SMS outbox row " + row.id + " has an unknown class");
  row.messageClass = *cls;
  row.segments = static_cast<int>(s.columnInt64(5));
  row.ref = s.columnText(6);
  auto state = parseOutboxState(s.columnText(7));
  if (!state) return makeError("SMS outbox row " + row.id + " has an unknown state");
  row.state = *state;
  row.attempts = static_cast<int>(s.columnInt64(8));
  row.reconcileAttempts = static_cast<int>(s.columnInt64(9));
  row.nextAttemptAt = fromUnixMillis(s.columnInt64(10));
  row.expiresAt = optionalTime(s, 11);
  row.gateway = s.columnText(12);
  row.providerId = s.columnText(13);
  row.errorCode = s.columnText(14);
  row.lastError = s.columnText(15);
  row.uncertain = s.columnText(16) == kUncertainFlag;
  row.holdReason = s.columnText(17);
  row.createdAt = fromUnixMillis(s.columnInt64(18));
  row.updatedAt = fromUnixMillis(s.columnInt64(19));
  row.firstAttemptAt = optionalTime(s, 20);
  row.sentAt = optionalTime(s, 21);
  row.finalAt = optionalTime(s, 22);
  return row;
}

Result<std::vector<OutboxRow>> all(Statement& stmt) {
  std::vector<OutboxRow> rows;
  for (;;) {
    auto more = stmt.step();
    if (!more) return more.error();
    if (!*more) return rows;
    auto row = readRow(stmt);
    if (!row) return row.error();
    rows.push_back(std::move(*row));
  }
}

Status runToEnd(Statement& stmt) {
  auto done = stmt.step();
  if (!done) return done.error();
  return Status::success();
}

}  // namespace

Result<std::optional<OutboxRow>> OutboxTable::one(Statement& stmt) {
  auto more = stmt.step();
  if (!more) return more.error();
  if (!*more) return std::optional<OutboxRow>();
  auto row = readRow(stmt);
  if (!row) return row.error();
  return std::optional<OutboxRow>(std::move(*row));
}

Result<std::optional<OutboxRow>> OutboxTable::find(std::string_view id) {
  auto stmt = db_.prepare(select("WHERE id = ?"));
  if (!stmt) return stmt.error();
  stmt->bind(1, id);
  return one(*stmt);
}

Result<std::optional<OutboxRow>> OutboxTable::findByProvider(std::string_view gateway,
                                                             std::string_view providerId) {
  auto stmt = db_.prepare(select("WHERE gateway = ? AND provider_id = ? ORDER BY seq LIMIT 1"));
  if (!stmt) return stmt.error();
  stmt->bind(1, gateway).bind(2, providerId);
  return one(*stmt);
}

Result<std::int64_t> OutboxTable::insert(const OutboxRow& row) {
  auto stmt = db_.prepare(
      "INSERT INTO sms_outbox(id, to_number, body, class, segments, ref, state, attempts,"
      " reconcile_attempts, next_attempt_at, expires_at, gateway, provider_id, error_code,"
      " last_error, flag, hold_reason, created_at, updated_at, first_attempt_at, sent_at,"
      " final_at) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  if (!stmt) return stmt.error();
  stmt->bind(1, row.id)
      .bind(2, row.to)
      .bind(3, row.body)
      .bind(4, messageClassName(row.messageClass))
      .bind(5, std::int64_t{row.segments})
      .bind(6, row.ref)
      .bind(7, outboxStateName(row.state))
      .bind(8, std::int64_t{row.attempts})
      .bind(9, std::int64_t{row.reconcileAttempts})
      .bind(10, toUnixMillis(row.nextAttemptAt));
  bindOptionalTime(*stmt, 11, row.expiresAt)
      .bind(12, row.gateway)
      .bind(13, row.providerId)
      .bind(14, row.errorCode)
      .bind(15, row.lastError)
      .bind(16, row.uncertain ? kUncertainFlag : std::string_view())
      .bind(17, row.holdReason)
      .bind(18, toUnixMillis(row.createdAt))
      .bind(19, toUnixMillis(row.updatedAt));
  bindOptionalTime(*stmt, 20, row.firstAttemptAt);
  bindOptionalTime(*stmt, 21, row.sentAt);
  bindOptionalTime(*stmt, 22, row.finalAt);
  if (auto s = runToEnd(*stmt); !s) return s.error();
  return db_.lastInsertRowid();
}

Status OutboxTable::update(const OutboxRow& row) {
  auto stmt = db_.prepare(
      "UPDATE sms_outbox SET segments=?, state=?, attempts=?, reconcile_attempts=?,"
      " next_attempt_at=?, gateway=?, provider_id=?, error_code=?, last_error=?, flag=?,"
      " hold_reason=?, updated_at=?, first_attempt_at=?, sent_at=?, final_at=? WHERE seq=?");
  if (!stmt) return stmt.error();
  stmt->bind(1, std::int64_t{row.segments})
      .bind(2, outboxStateName(row.state))
      .bind(3, std::int64_t{row.attempts})
      .bind(4, std::int64_t{row.reconcileAttempts})
      .bind(5, toUnixMillis(row.nextAttemptAt))
      .bind(6, row.gateway)
      .bind(7, row.providerId)
      .bind(8, row.errorCode)
      .bind(9, row.lastError)
      .bind(10, row.uncertain ? kUncertainFlag : std::string_view())
      .bind(11, row.holdReason)
      .bind(12, toUnixMillis(row.updatedAt));
  bindOptionalTime(*stmt, 13, row.firstAttemptAt);
  bindOptionalTime(*stmt, 14, row.sentAt);
  bindOptionalTime(*stmt, 15, row.finalAt).bind(16, row.seq);
  if (auto s = runToEnd(*stmt); !s) return s;
  if (db_.changes() != 1) return makeError("SMS outbox row " + row.id + " is gone");
  return Status::success();
}

Result<std::optional<OutboxRow>> OutboxTable::firstDue(OutboxState state, TimePoint now) {
  auto stmt =
      db_.prepare(select("WHERE state = ? AND next_attempt_at <= ?"
                         " ORDER BY class = 'safety' DESC, next_attempt_at, seq LIMIT 1"));
  if (!stmt) return stmt.error();
  stmt->bind(1, outboxStateName(state)).bind(2, toUnixMillis(now));
  return one(*stmt);
}

Result<std::optional<TimePoint>> OutboxTable::earliestDue() {
  auto stmt = db_.prepare(
      "SELECT min(next_attempt_at) FROM sms_outbox WHERE state IN ('queued', 'sending')");
  if (!stmt) return stmt.error();
  auto more = stmt->step();
  if (!more) return more.error();
  if (!*more || stmt->columnIsNull(0)) return std::optional<TimePoint>();
  return std::optional<TimePoint>(fromUnixMillis(stmt->columnInt64(0)));
}

Result<std::vector<OutboxRow>> OutboxTable::list(const OutboxQuery& query) {
  auto stmt =
      db_.prepare(select("WHERE (?1 IS NULL OR state = ?1) AND (?2 = 0 OR flag = 'uncertain')"
                         " ORDER BY seq DESC LIMIT ?3"));
  if (!stmt) return stmt.error();
  if (query.state) {
    stmt->bind(1, outboxStateName(*query.state));
  } else {
    stmt->bindNull(1);
  }
  stmt->bind(2, std::int64_t{query.uncertainOnly ? 1 : 0})
      .bind(3, static_cast<std::int64_t>(query.limit));
  return all(*stmt);
}

Result<std::vector<OutboxRow>> OutboxTable::inState(OutboxState from,
                                                    std::optional<MessageClass> only) {
  auto stmt = db_.prepare(select("WHERE state = ?1 AND (?2 IS NULL OR class = ?2) ORDER BY seq"));
  if (!stmt) return stmt.error();
  stmt->bind(1, outboxStateName(from));
  if (only) {
    stmt->bind(2, messageClassName(*only));
  } else {
    stmt->bindNull(2);
  }
  return all(*stmt);
}

Result<bool> OutboxTable::insertReport(std::string_view gateway,
                                       const drivers::DeliveryReport& report,
                                       TimePoint receivedAt) {
  auto stmt = db_.prepare(
      "INSERT OR IGNORE INTO sms_delivery_report(gateway, provider_id, state, error_code,"
      " reported_at, received_at, applied) VALUES(?,?,?,?,?,?,0)");
  if (!stmt) return stmt.error();
  stmt->bind(1, gateway)
      .bind(2, report.providerId)
      .bind(3, drivers::deliveryStateName(report.state))
      .bind(4, report.errorCode)
      .bind(5, toUnixMillis(report.at))
      .bind(6, toUnixMillis(receivedAt));
  if (auto s = runToEnd(*stmt); !s) return s.error();
  return db_.changes() == 1;
}

Result<std::vector<StoredReport>> OutboxTable::unappliedReports(std::string_view gateway,
                                                                std::string_view providerId) {
  auto stmt = db_.prepare(
      "SELECT state, error_code, reported_at FROM sms_delivery_report"
      " WHERE gateway = ? AND provider_id = ? AND applied = 0 ORDER BY id");
  if (!stmt) return stmt.error();
  stmt->bind(1, gateway).bind(2, providerId);
  std::vector<StoredReport> reports;
  for (;;) {
    auto more = stmt->step();
    if (!more) return more.error();
    if (!*more) return reports;
    auto state = drivers::parseDeliveryState(stmt->columnText(0));
    if (!state) continue;  // written by this code only; an unknown state cannot apply
    StoredReport r;
    r.gateway = std::string(gateway);
    r.report.providerId = std::string(providerId);
    r.report.state = *state;
    r.report.errorCode = stmt->columnText(1);
    r.report.at = fromUnixMillis(stmt->columnInt64(2));
    reports.push_back(std::move(r));
  }
}

Status OutboxTable::markReportApplied(std::string_view gateway,
                                      const drivers::DeliveryReport& report) {
  auto stmt = db_.prepare(
      "UPDATE sms_delivery_report SET applied = 1"
      " WHERE gateway = ? AND provider_id = ? AND state = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, gateway)
      .bind(2, report.providerId)
      .bind(3, drivers::deliveryStateName(report.state));
  return runToEnd(*stmt);
}

}  // namespace atoms::sms::mailbox
