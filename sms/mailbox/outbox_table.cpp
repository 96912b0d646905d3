#include "sms/mailbox/outbox_table.h"

#include "store/row_reader.h"

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

Result<OutboxRow> readRow(RowReader& r) {
  OutboxRow row;
  row.seq = r.int64();
  row.id = r.text();
  row.to = r.text();
  row.body = r.text();
  auto cls = parseMessageClass(r.text());
  if (!cls) return makeError("SMS outbox row " + row.id + " has an unknown class");
  row.messageClass = *cls;
  row.segments = r.int32();
  row.ref = r.text();
  auto state = parseOutboxState(r.text());
  if (!state) return makeError("SMS outbox row " + row.id + " has an unknown state");
  row.state = *state;
  row.attempts = r.int32();
  row.reconcileAttempts = r.int32();
  row.nextAttemptAt = r.time();
  row.expiresAt = r.optionalTime();
  row.gateway = r.text();
  row.providerId = r.text();
  row.errorCode = r.text();
  row.lastError = r.text();
  row.uncertain = r.text() == kUncertainFlag;
  row.holdReason = r.text();
  row.createdAt = r.time();
  row.updatedAt = r.time();
  row.firstAttemptAt = r.optionalTime();
  row.sentAt = r.optionalTime();
  row.finalAt = r.optionalTime();
  return row;
}

}  // namespace

Result<std::optional<OutboxRow>> OutboxTable::find(std::string_view id) {
  auto stmt = db_.cached(select("WHERE id = ?"));
  if (!stmt) return stmt.error();
  stmt->bind(1, id);
  return readFirst(*stmt, readRow);
}

Result<std::optional<OutboxRow>> OutboxTable::findByProvider(std::string_view gateway,
                                                             std::string_view providerId) {
  auto stmt = db_.cached(select("WHERE gateway = ? AND provider_id = ? ORDER BY seq LIMIT 1"));
  if (!stmt) return stmt.error();
  stmt->bind(1, gateway).bind(2, providerId);
  return readFirst(*stmt, readRow);
}

Result<std::int64_t> OutboxTable::insert(const OutboxRow& row) {
  auto stmt = db_.cached(
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
      .bindTime(10, row.nextAttemptAt)
      .bindTime(11, row.expiresAt)
      .bind(12, row.gateway)
      .bind(13, row.providerId)
      .bind(14, row.errorCode)
      .bind(15, row.lastError)
      .bind(16, row.uncertain ? kUncertainFlag : std::string_view())
      .bind(17, row.holdReason)
      .bindTime(18, row.createdAt)
      .bindTime(19, row.updatedAt)
      .bindTime(20, row.firstAttemptAt)
      .bindTime(21, row.sentAt)
      .bindTime(22, row.finalAt);
  if (auto s = stmt->run(); !s) return s.error();
  return db_.lastInsertRowid();
}

Status OutboxTable::update(const OutboxRow& row) {
  auto stmt = db_.cached(
      "UPDATE sms_outbox SET segments=?, state=?, attempts=?, reconcile_attempts=?,"
      " next_attempt_at=?, gateway=?, provider_id=?, error_code=?, last_error=?, flag=?,"
      " hold_reason=?, updated_at=?, first_attempt_at=?, sent_at=?, final_at=? WHERE seq=?");
  if (!stmt) return stmt.error();
  stmt->bind(1, std::int64_t{row.segments})
      .bind(2, outboxStateName(row.state))
      .bind(3, std::int64_t{row.attempts})
      .bind(4, std::int64_t{row.reconcileAttempts})
      .bindTime(5, row.nextAttemptAt)
      .bind(6, row.gateway)
      .bind(7, row.providerId)
      .bind(8, row.errorCode)
      .bind(9, row.lastError)
      .bind(10, row.uncertain ? kUncertainFlag : std::string_view())
      .bind(11, row.holdReason)
      .bindTime(12, row.updatedAt)
      .bindTime(13, row.firstAttemptAt)
      .bindTime(14, row.sentAt)
      .bindTime(15, row.finalAt)
      .bind(16, row.seq);
  if (auto s = stmt->run(); !s) return s;
  if (db_.changes() != 1) return makeError("SMS outbox row " + row.id + " is gone");
  return Status::success();
}

Result<std::optional<OutboxRow>> OutboxTable::firstDue(OutboxState state, TimePoint now) {
  auto stmt =
      db_.cached(select("WHERE state = ? AND next_attempt_at <= ?"
                        " ORDER BY class = 'safety' DESC, next_attempt_at, seq LIMIT 1"));
  if (!stmt) return stmt.error();
  stmt->bind(1, outboxStateName(state)).bindTime(2, now);
  return readFirst(*stmt, readRow);
}

Result<std::optional<TimePoint>> OutboxTable::earliestDue() {
  auto stmt = db_.cached(
      "SELECT min(next_attempt_at) FROM sms_outbox WHERE state IN ('queued', 'sending')");
  if (!stmt) return stmt.error();
  auto more = stmt->step();
  if (!more) return more.error();
  if (!*more) return std::optional<TimePoint>();
  return RowReader(*stmt).optionalTime();
}

Result<std::vector<OutboxRow>> OutboxTable::list(const OutboxQuery& query) {
  auto stmt =
      db_.cached(select("WHERE (?1 IS NULL OR state = ?1) AND (?2 = 0 OR flag = 'uncertain')"
                        " ORDER BY seq DESC LIMIT ?3"));
  if (!stmt) return stmt.error();
  if (query.state) {
    stmt->bind(1, outboxStateName(*query.state));
  } else {
    stmt->bindNull(1);
  }
  stmt->bind(2, std::int64_t{query.uncertainOnly ? 1 : 0})
      .bind(3, static_cast<std::int64_t>(query.limit));
  return readRows(*stmt, readRow);
}

Result<std::vector<OutboxRow>> OutboxTable::inState(OutboxState from,
                                                    std::optional<MessageClass> only) {
  auto stmt = db_.cached(select("WHERE state = ?1 AND (?2 IS NULL OR class = ?2) ORDER BY seq"));
  if (!stmt) return stmt.error();
  stmt->bind(1, outboxStateName(from));
  if (only) {
    stmt->bind(2, messageClassName(*only));
  } else {
    stmt->bindNull(2);
  }
  return readRows(*stmt, readRow);
}

Result<bool> OutboxTable::insertReport(std::string_view gateway,
                                       const drivers::DeliveryReport& report,
                                       TimePoint receivedAt) {
  auto stmt = db_.cached(
      "INSERT OR IGNORE INTO sms_delivery_report(gateway, provider_id, state, error_code,"
      " reported_at, received_at, applied) VALUES(?,?,?,?,?,?,0)");
  if (!stmt) return stmt.error();
  stmt->bind(1, gateway)
      .bind(2, report.providerId)
      .bind(3, drivers::deliveryStateName(report.state))
      .bind(4, report.errorCode)
      .bindTime(5, report.at)
      .bindTime(6, receivedAt);
  if (auto s = stmt->run(); !s) return s.error();
  return db_.changes() == 1;
}

Result<std::vector<StoredReport>> OutboxTable::unappliedReports(std::string_view gateway,
                                                                std::string_view providerId) {
  auto stmt = db_.cached(
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
  auto stmt = db_.cached(
      "UPDATE sms_delivery_report SET applied = 1"
      " WHERE gateway = ? AND provider_id = ? AND state = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, gateway)
      .bind(2, report.providerId)
      .bind(3, drivers::deliveryStateName(report.state));
  return stmt->run();
}

}  // namespace atoms::sms::mailbox
