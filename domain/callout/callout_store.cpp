#include "domain/callout/callout_store.h"

#include <algorithm>
#include <array>
#include <functional>
#include <utility>

namespace atoms::callout {

using atoms::fromUnixMillis;
using atoms::toUnixMillis;

namespace {

constexpr std::array<std::string_view, 4> kCalloutStates{"open", "covered", "withdrawn", "expired"};
constexpr std::array<std::string_view, 3> kOrigins{"lead_report", "self", "no_show"};
constexpr std::array<std::string_view, 6> kOfferStates{
    "open", "accepted", "declined", "awaiting_approval", "closed", "not_sent"};
constexpr std::array<std::string_view, 5> kApprovalStates{"pending", "approved", "denied",
                                                          "expired", "withdrawn"};

template <typename Enum, std::size_t N>
std::optional<Enum> parseName(const std::array<std::string_view, N>& names, std::string_view s) {
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i] == s) return static_cast<Enum>(i);
  }
  return std::nullopt;
}

void bindTime(Statement& s, int index, const std::optional<TimePoint>& t) {
  if (t) {
    s.bind(index, toUnixMillis(*t));
  } else {
    s.bindNull(index);
  }
}

std::optional<TimePoint> columnTime(Statement& s, int index) {
  if (s.columnIsNull(index)) return std::nullopt;
  return fromUnixMillis(s.columnInt64(index));
}

Status stepDone(Statement& s) {
  auto done = s.step();
  if (!done) return done.error();
  return Status::success();
}

template <typename Row>
Result<std::vector<Row>> collect(Database& db, const std::string& sql,
                                 const std::function<void(Statement&)>& bind,
                                 const std::function<Result<Row>(Statement&)>& read) {
  auto stmt = db.prepare(sql);
  if (!stmt) return stmt.error();
  bind(*stmt);
  std::vector<Row> out;
  while (true) {
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row) break;
    auto parsed = read(*stmt);
    if (!parsed) return parsed.error();
    out.push_back(std::move(*parsed));
  }
  return out;
}

constexpr std::string_view kCalloutColumns =
    "id, shift_id, station_id, absent_id, reporter_id, reporter_phone, origin, inbox_id,"
    " opened_at, shift_start, shift_end, state, waves, next_wave_at, escalate_at, escalated_at,"
    " covered_by, closed_at";

Result<CalloutRow> readCallout(Statement& s) {
  CalloutRow r;
  r.id = s.columnInt64(0);
  r.shiftId = s.columnText(1);
  r.stationId = s.columnText(2);
  r.absentId = s.columnText(3);
  r.reporterId = s.columnText(4);
  r.reporterPhone = s.columnText(5);
  auto origin = parseName<CalloutOrigin>(kOrigins, s.columnText(6));
  auto state = parseName<CalloutState>(kCalloutStates, s.columnText(11));
  if (!origin || !state) return makeError("callout " + std::to_string(r.id) + ": bad state");
  r.origin = *origin;
  if (!s.columnIsNull(7)) r.inboxId = s.columnInt64(7);
  r.openedAt = fromUnixMillis(s.columnInt64(8));
  r.shiftStart = fromUnixMillis(s.columnInt64(9));
  r.shiftEnd = fromUnixMillis(s.columnInt64(10));
  r.state = *state;
  r.waves = static_cast<int>(s.columnInt64(12));
  r.nextWaveAt = columnTime(s, 13);
  r.escalateAt = columnTime(s, 14);
  r.escalatedAt = columnTime(s, 15);
  r.coveredBy = s.columnText(16);
  r.closedAt = columnTime(s, 17);
  return r;
}

constexpr std::string_view kOfferColumns =
    "id, callout_id, person_id, phone, code, wave, rank, state, offered_at, answered_at,"
    " premium_minutes, premium_cents";

Result<OfferRow> readOffer(Statement& s) {
  OfferRow r;
  r.id = s.columnInt64(0);
  r.calloutId = s.columnInt64(1);
  r.personId = s.columnText(2);
  r.phone = s.columnText(3);
  r.code = s.columnText(4);
  r.wave = static_cast<int>(s.columnInt64(5));
  r.rank = static_cast<int>(s.columnInt64(6));
  auto state = parseName<OfferState>(kOfferStates, s.columnText(7));
  if (!state) return makeError("callout_offer " + std::to_string(r.id) + ": bad state");
  r.state = *state;
  r.offeredAt = fromUnixMillis(s.columnInt64(8));
  r.answeredAt = columnTime(s, 9);
  r.premiumMinutes = s.columnInt64(10);
  r.premiumCents = s.columnInt64(11);
  return r;
}

constexpr std::string_view kApprovalColumns =
    "id, kind, callout_id, offer_id, subject_id, approver_id, approver_phone, summary,"
    " requested_at, expires_at, state, decided_by, decided_at, remark, receipt_seq";

Result<ApprovalRow> readApproval(Statement& s) {
  ApprovalRow r;
  r.id = s.columnInt64(0);
  r.kind = s.columnText(1);
  r.calloutId = s.columnInt64(2);
  if (!s.columnIsNull(3)) r.offerId = s.columnInt64(3);
  r.subjectId = s.columnText(4);
  r.approverId = s.columnText(5);
  r.approverPhone = s.columnText(6);
  r.summary = s.columnText(7);
  r.requestedAt = fromUnixMillis(s.columnInt64(8));
  r.expiresAt = fromUnixMillis(s.columnInt64(9));
  auto state = parseName<ApprovalState>(kApprovalStates, s.columnText(10));
  if (!state) return makeError("approval " + std::to_string(r.id) + ": bad state");
  r.state = *state;
  r.decidedBy = s.columnText(11);
  r.decidedAt = columnTime(s, 12);
  r.remark = s.columnText(13);
  if (!s.columnIsNull(14)) r.receiptSeq = static_cast<std::uint64_t>(s.columnInt64(14));
  return r;
}

const auto kNoBind = [](Statement&) {};

// The first row, or none.
template <typename Row>
Result<std::optional<Row>> first(Result<std::vector<Row>> rows) {
  if (!rows) return rows.error();
  if (rows->empty()) return std::optional<Row>();
  return std::optional<Row>(std::move(rows->front()));
}

}  // namespace

std::string_view calloutStateName(CalloutState s) { return kCalloutStates[static_cast<int>(s)]; }
std::string_view calloutOriginName(CalloutOrigin o) { return kOrigins[static_cast<int>(o)]; }
std::string_view offerStateName(OfferState s) { return kOfferStates[static_cast<int>(s)]; }
std::string_view approvalStateName(ApprovalState s) { return kApprovalStates[static_cast<int>(s)]; }

Result<std::int64_t> CalloutStore::insertCallout(const CalloutRow& r) {
  auto s = db_.prepare(
      "INSERT INTO callout(shift_id, station_id, absent_id, reporter_id, reporter_phone, origin,"
      " inbox_id, opened_at, shift_start, shift_end, state, waves, next_wave_at, escalate_at,"
      " escalated_at, covered_by, closed_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  if (!s) return s.error();
  s->bind(1, std::string_view(r.shiftId))
      .bind(2, std::string_view(r.stationId))
      .bind(3, std::string_view(r.absentId))
      .bind(4, std::string_view(r.reporterId))
      .bind(5, std::string_view(r.reporterPhone))
      .bind(6, calloutOriginName(r.origin));
  if (r.inboxId) {
    s->bind(7, *r.inboxId);
  } else {
    s->bindNull(7);
  }
  s->bind(8, toUnixMillis(r.openedAt))
      .bind(9, toUnixMillis(r.shiftStart))
      .bind(10, toUnixMillis(r.shiftEnd))
      .bind(11, calloutStateName(r.state))
      .bind(12, std::int64_t{r.waves});
  bindTime(*s, 13, r.nextWaveAt);
  bindTime(*s, 14, r.escalateAt);
  bindTime(*s, 15, r.escalatedAt);
  s->bind(16, std::string_view(r.coveredBy));
  bindTime(*s, 17, r.closedAt);
  if (Status done = stepDone(*s); !done) return done.error();
  return db_.lastInsertRowid();
}

Status CalloutStore::updateCallout(const CalloutRow& r) {
  auto s = db_.prepare(
      "UPDATE callout SET state = ?, waves = ?, next_wave_at = ?, escalate_at = ?,"
      " escalated_at = ?, covered_by = ?, closed_at = ? WHERE id = ?");
  if (!s) return s.error();
  s->bind(1, calloutStateName(r.state)).bind(2, std::int64_t{r.waves});
  bindTime(*s, 3, r.nextWaveAt);
  bindTime(*s, 4, r.escalateAt);
  bindTime(*s, 5, r.escalatedAt);
  s->bind(6, std::string_view(r.coveredBy));
  bindTime(*s, 7, r.closedAt);
  s->bind(8, r.id);
  return stepDone(*s);
}

Result<std::optional<CalloutRow>> CalloutStore::callout(std::int64_t id) {
  return first(collect<CalloutRow>(
      db_, "SELECT " + std::string(kCalloutColumns) + " FROM callout WHERE id = ?",
      [id](Statement& s) { s.bind(1, id); }, readCallout));
}

Result<std::optional<CalloutRow>> CalloutStore::openCalloutForShift(std::string_view shiftId) {
  return first(collect<CalloutRow>(
      db_,
      "SELECT " + std::string(kCalloutColumns) +
          " FROM callout WHERE shift_id = ? AND state = "
          "'open'",
      [shiftId](Statement& s) { s.bind(1, shiftId); }, readCallout));
}

Result<std::optional<CalloutRow>> CalloutStore::latestCalloutForShift(std::string_view shiftId) {
  return first(collect<CalloutRow>(
      db_,
      "SELECT " + std::string(kCalloutColumns) +
          " FROM callout WHERE shift_id = ? ORDER BY id DESC LIMIT 1",
      [shiftId](Statement& s) { s.bind(1, shiftId); }, readCallout));
}

Result<std::vector<CalloutRow>> CalloutStore::openCallouts() {
  return collect<CalloutRow>(
      db_,
      "SELECT " + std::string(kCalloutColumns) + " FROM callout WHERE state = 'open' ORDER BY id",
      kNoBind, readCallout);
}

Result<std::vector<CalloutRow>> CalloutStore::calloutsFor(std::string_view absentId,
                                                          std::size_t limit) {
  return collect<CalloutRow>(
      db_,
      "SELECT " + std::string(kCalloutColumns) +
          " FROM callout WHERE absent_id = ? ORDER BY id DESC LIMIT ?",
      [&](Statement& s) { s.bind(1, absentId).bind(2, static_cast<std::int64_t>(limit)); },
      readCallout);
}

Result<std::int64_t> CalloutStore::insertOffer(const OfferRow& r) {
  auto s = db_.prepare(
      "INSERT INTO callout_offer(callout_id, person_id, phone, code, wave, rank, state,"
      " offered_at, answered_at, premium_minutes, premium_cents) VALUES (?,?,?,?,?,?,?,?,?,?,?)");
  if (!s) return s.error();
  s->bind(1, r.calloutId)
      .bind(2, std::string_view(r.personId))
      .bind(3, std::string_view(r.phone))
      .bind(4, std::string_view(r.code))
      .bind(5, std::int64_t{r.wave})
      .bind(6, std::int64_t{r.rank})
      .bind(7, offerStateName(r.state))
      .bind(8, toUnixMillis(r.offeredAt));
  bindTime(*s, 9, r.answeredAt);
  s->bind(10, r.premiumMinutes).bind(11, r.premiumCents);
  if (Status done = stepDone(*s); !done) return done.error();
  return db_.lastInsertRowid();
}

Status CalloutStore::updateOffer(const OfferRow& r) {
  auto s = db_.prepare("UPDATE callout_offer SET state = ?, answered_at = ? WHERE id = ?");
  if (!s) return s.error();
  s->bind(1, offerStateName(r.state));
  bindTime(*s, 2, r.answeredAt);
  s->bind(3, r.id);
  return stepDone(*s);
}

Result<std::vector<OfferRow>> CalloutStore::offers(std::int64_t calloutId) {
  return collect<OfferRow>(
      db_,
      "SELECT " + std::string(kOfferColumns) +
          " FROM callout_offer WHERE callout_id = ? ORDER BY id",
      [calloutId](Statement& s) { s.bind(1, calloutId); }, readOffer);
}

Result<std::vector<OfferRow>> CalloutStore::liveOffersTo(std::string_view personId) {
  return collect<OfferRow>(
      db_,
      "SELECT " + std::string(kOfferColumns) +
          " FROM callout_offer WHERE person_id = ? AND state IN ('open','awaiting_approval')"
          " ORDER BY id",
      [personId](Statement& s) { s.bind(1, personId); }, readOffer);
}

Result<bool> CalloutStore::outBetween(std::string_view personId, TimePoint from, TimePoint to) {
  auto s = db_.prepare(
      "SELECT 1 FROM callout WHERE absent_id = ? AND shift_start >= ? AND shift_start <= ?"
      " AND state != 'withdrawn' LIMIT 1");
  if (!s) return s.error();
  s->bind(1, personId).bind(2, toUnixMillis(from)).bind(3, toUnixMillis(to));
  return s->step();
}

Result<int> CalloutStore::offersSince(std::string_view personId, TimePoint since) {
  auto s = db_.prepare(
      "SELECT count(*) FROM callout_offer WHERE person_id = ? AND offered_at >= ?"
      " AND state != 'not_sent'");
  if (!s) return s.error();
  s->bind(1, personId).bind(2, toUnixMillis(since));
  auto row = s->step();
  if (!row) return row.error();
  return static_cast<int>(s->columnInt64(0));
}

Result<std::vector<std::string>> CalloutStore::codesSince(std::string_view personId,
                                                          TimePoint since) {
  auto s = db_.prepare("SELECT code FROM callout_offer WHERE person_id = ? AND offered_at >= ?");
  if (!s) return s.error();
  s->bind(1, personId).bind(2, toUnixMillis(since));
  std::vector<std::string> out;
  while (true) {
    auto row = s->step();
    if (!row) return row.error();
    if (!*row) break;
    out.push_back(s->columnText(0));
  }
  return out;
}

Result<std::int64_t> CalloutStore::insertApproval(const ApprovalRow& r) {
  auto s = db_.prepare(
      "INSERT INTO approval(kind, callout_id, offer_id, subject_id, approver_id, approver_phone,"
      " summary, requested_at, expires_at, state, decided_by, decided_at, remark)"
      " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)");
  if (!s) return s.error();
  s->bind(1, std::string_view(r.kind)).bind(2, r.calloutId);
  if (r.offerId) {
    s->bind(3, *r.offerId);
  } else {
    s->bindNull(3);
  }
  s->bind(4, std::string_view(r.subjectId))
      .bind(5, std::string_view(r.approverId))
      .bind(6, std::string_view(r.approverPhone))
      .bind(7, std::string_view(r.summary))
      .bind(8, toUnixMillis(r.requestedAt))
      .bind(9, toUnixMillis(r.expiresAt))
      .bind(10, approvalStateName(r.state))
      .bind(11, std::string_view(r.decidedBy));
  bindTime(*s, 12, r.decidedAt);
  s->bind(13, std::string_view(r.remark));
  if (Status done = stepDone(*s); !done) return done.error();
  return db_.lastInsertRowid();
}

Status CalloutStore::updateApproval(const ApprovalRow& r) {
  auto s = db_.prepare(
      "UPDATE approval SET state = ?, decided_by = ?, decided_at = ?, remark = ?, receipt_seq = ?"
      " WHERE id = ?");
  if (!s) return s.error();
  s->bind(1, approvalStateName(r.state)).bind(2, std::string_view(r.decidedBy));
  bindTime(*s, 3, r.decidedAt);
  s->bind(4, std::string_view(r.remark));
  if (r.receiptSeq) {
    s->bind(5, static_cast<std::int64_t>(*r.receiptSeq));
  } else {
    s->bindNull(5);
  }
  s->bind(6, r.id);
  return stepDone(*s);
}

Result<std::optional<ApprovalRow>> CalloutStore::approval(std::int64_t id) {
  return first(collect<ApprovalRow>(
      db_, "SELECT " + std::string(kApprovalColumns) + " FROM approval WHERE id = ?",
      [id](Statement& s) { s.bind(1, id); }, readApproval));
}

Result<std::vector<ApprovalRow>> CalloutStore::pendingApprovals() {
  return collect<ApprovalRow>(db_,
                              "SELECT " + std::string(kApprovalColumns) +
                                  " FROM approval WHERE state = 'pending' ORDER BY expires_at, id",
                              kNoBind, readApproval);
}

Result<std::vector<ApprovalRow>> CalloutStore::recentApprovals(TimePoint since, std::size_t limit) {
  return collect<ApprovalRow>(
      db_,
      "SELECT " + std::string(kApprovalColumns) +
          " FROM approval WHERE state = 'pending' OR requested_at >= ? ORDER BY id DESC LIMIT ?",
      [since, limit](Statement& s) {
        s.bind(1, toUnixMillis(since)).bind(2, static_cast<std::int64_t>(limit));
      },
      readApproval);
}

Result<std::vector<ApprovalRow>> CalloutStore::approvalsFor(std::int64_t calloutId) {
  return collect<ApprovalRow>(
      db_,
      "SELECT " + std::string(kApprovalColumns) + " FROM approval WHERE callout_id = ? ORDER BY id",
      [calloutId](Statement& s) { s.bind(1, calloutId); }, readApproval);
}

Result<std::optional<TimePoint>> CalloutStore::nextDue() {
  auto s = db_.prepare(
      "SELECT min(t) FROM (SELECT next_wave_at AS t FROM callout WHERE state = 'open'"
      " UNION ALL SELECT escalate_at FROM callout WHERE state = 'open'"
      " UNION ALL SELECT shift_end FROM callout WHERE state = 'open'"
      " UNION ALL SELECT expires_at FROM approval WHERE state = 'pending')");
  if (!s) return s.error();
  auto row = s->step();
  if (!row) return row.error();
  return columnTime(*s, 0);
}

}  // namespace atoms::callout
