#include "domain/callout/callout_store.h"

#include <functional>
#include <utility>

#include "base/name_table.h"
#include "store/row_reader.h"

namespace atoms::callout {

namespace {

constexpr NameTable<CalloutState, 4> kCalloutStates{{{CalloutState::kOpen, "open"},
                                                     {CalloutState::kCovered, "covered"},
                                                     {CalloutState::kWithdrawn, "withdrawn"},
                                                     {CalloutState::kExpired, "expired"}}};
constexpr NameTable<CalloutOrigin, 4> kOrigins{{{CalloutOrigin::kLeadReport, "lead_report"},
                                                {CalloutOrigin::kSelf, "self"},
                                                {CalloutOrigin::kNoShow, "no_show"},
                                                {CalloutOrigin::kExtraShift, "extra_shift"}}};
constexpr NameTable<OfferState, 6> kOfferStates{
    {{OfferState::kOpen, "open"},
     {OfferState::kAccepted, "accepted"},
     {OfferState::kDeclined, "declined"},
     {OfferState::kAwaitingApproval, "awaiting_approval"},
     {OfferState::kClosed, "closed"},
     {OfferState::kNotSent, "not_sent"}}};
constexpr NameTable<ApprovalState, 5> kApprovalStates{{{ApprovalState::kPending, "pending"},
                                                       {ApprovalState::kApproved, "approved"},
                                                       {ApprovalState::kDenied, "denied"},
                                                       {ApprovalState::kExpired, "expired"},
                                                       {ApprovalState::kWithdrawn, "withdrawn"}}};

template <typename Row>
Result<std::vector<Row>> collect(Database& db, const std::string& sql,
                                 const std::function<void(Statement&)>& bind,
                                 Result<Row> (*read)(RowReader&)) {
  auto stmt = db.cached(sql);
  if (!stmt) return stmt.error();
  bind(*stmt);
  return readRows(*stmt, read);
}

constexpr std::string_view kCalloutColumns =
    "id, shift_id, station_id, absent_id, reporter_id, reporter_phone, origin, inbox_id,"
    " opened_at, shift_start, shift_end, state, waves, next_wave_at, escalate_at, escalated_at,"
    " covered_by, closed_at";

Result<CalloutRow> readCallout(RowReader& r) {
  CalloutRow c;
  c.id = r.int64();
  c.shiftId = r.text();
  c.stationId = r.text();
  c.absentId = r.text();
  c.reporterId = r.text();
  c.reporterPhone = r.text();
  auto origin = r.named(kOrigins);
  c.inboxId = r.optionalInt64();
  c.openedAt = r.time();
  c.shiftStart = r.time();
  c.shiftEnd = r.time();
  auto state = r.named(kCalloutStates);
  if (!origin || !state) return makeError("callout " + std::to_string(c.id) + ": bad state");
  c.origin = *origin;
  c.state = *state;
  c.waves = r.int32();
  c.nextWaveAt = r.optionalTime();
  c.escalateAt = r.optionalTime();
  c.escalatedAt = r.optionalTime();
  c.coveredBy = r.text();
  c.closedAt = r.optionalTime();
  return c;
}

constexpr std::string_view kOfferColumns =
    "id, callout_id, person_id, phone, code, wave, rank, state, offered_at, answered_at,"
    " premium_minutes, premium_cents";

Result<OfferRow> readOffer(RowReader& r) {
  OfferRow o;
  o.id = r.int64();
  o.calloutId = r.int64();
  o.personId = r.text();
  o.phone = r.text();
  o.code = r.text();
  o.wave = r.int32();
  o.rank = r.int32();
  auto state = r.named(kOfferStates);
  if (!state) return makeError("callout_offer " + std::to_string(o.id) + ": bad state");
  o.state = *state;
  o.offeredAt = r.time();
  o.answeredAt = r.optionalTime();
  o.premiumMinutes = r.int64();
  o.premiumCents = r.int64();
  return o;
}

constexpr std::string_view kApprovalColumns =
    "id, kind, callout_id, offer_id, subject_id, approver_id, approver_phone, summary,"
    " requested_at, expires_at, state, decided_by, decided_at, remark, receipt_seq";

Result<ApprovalRow> readApproval(RowReader& r) {
  ApprovalRow a;
  a.id = r.int64();
  a.kind = r.text();
  a.calloutId = r.int64();
  a.offerId = r.optionalInt64();
  a.subjectId = r.text();
  a.approverId = r.text();
  a.approverPhone = r.text();
  a.summary = r.text();
  a.requestedAt = r.time();
  a.expiresAt = r.time();
  auto state = r.named(kApprovalStates);
  if (!state) return makeError("approval " + std::to_string(a.id) + ": bad state");
  a.state = *state;
  a.decidedBy = r.text();
  a.decidedAt = r.optionalTime();
  a.remark = r.text();
  if (auto seq = r.optionalInt64()) a.receiptSeq = static_cast<std::uint64_t>(*seq);
  return a;
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

std::string_view calloutStateName(CalloutState s) { return nameOf(kCalloutStates, s); }
std::string_view calloutOriginName(CalloutOrigin o) { return nameOf(kOrigins, o); }
std::string_view offerStateName(OfferState s) { return nameOf(kOfferStates, s); }
std::string_view approvalStateName(ApprovalState s) { return nameOf(kApprovalStates, s); }

Result<std::int64_t> CalloutStore::insertCallout(const CalloutRow& r) {
  auto s = db_.cached(
      "INSERT INTO callout(shift_id, station_id, absent_id, reporter_id, reporter_phone, origin,"
      " inbox_id, opened_at, shift_start, shift_end, state, waves, next_wave_at, escalate_at,"
      " escalated_at, covered_by, closed_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  if (!s) return s.error();
  s->bind(1, std::string_view(r.shiftId))
      .bind(2, std::string_view(r.stationId))
      .bind(3, std::string_view(r.absentId))
      .bind(4, std::string_view(r.reporterId))
      .bind(5, std::string_view(r.reporterPhone))
      .bind(6, calloutOriginName(r.origin))
      .bindOptional(7, r.inboxId)
      .bindTime(8, r.openedAt)
      .bindTime(9, r.shiftStart)
      .bindTime(10, r.shiftEnd)
      .bind(11, calloutStateName(r.state))
      .bind(12, std::int64_t{r.waves})
      .bindTime(13, r.nextWaveAt)
      .bindTime(14, r.escalateAt)
      .bindTime(15, r.escalatedAt)
      .bind(16, std::string_view(r.coveredBy))
      .bindTime(17, r.closedAt);
  if (Status done = s->run(); !done) return done.error();
  return db_.lastInsertRowid();
}

Status CalloutStore::updateCallout(const CalloutRow& r) {
  auto s = db_.cached(
      "UPDATE callout SET state = ?, waves = ?, next_wave_at = ?, escalate_at = ?,"
      " escalated_at = ?, covered_by = ?, closed_at = ? WHERE id = ?");
  if (!s) return s.error();
  s->bind(1, calloutStateName(r.state))
      .bind(2, std::int64_t{r.waves})
      .bindTime(3, r.nextWaveAt)
      .bindTime(4, r.escalateAt)
      .bindTime(5, r.escalatedAt)
      .bind(6, std::string_view(r.coveredBy))
      .bindTime(7, r.closedAt)
      .bind(8, r.id);
  return s->run();
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

Result<std::vector<CalloutRow>> CalloutStore::currentCallouts(TimePoint now) {
  return collect<CalloutRow>(
      db_,
      "SELECT " + std::string(kCalloutColumns) +
          " FROM callout WHERE state = 'open' OR (state = 'covered' AND shift_end > ?)"
          " ORDER BY id",
      [&](Statement& s) { s.bindTime(1, now); }, readCallout);
}

Result<std::vector<CalloutRow>> CalloutStore::closedCallouts(std::size_t limit) {
  return collect<CalloutRow>(
      db_,
      "SELECT " + std::string(kCalloutColumns) +
          " FROM callout WHERE state <> 'open' ORDER BY id DESC LIMIT ?",
      [&](Statement& s) { s.bind(1, static_cast<std::int64_t>(limit)); }, readCallout);
}

Status CalloutStore::fileReceipt(std::int64_t calloutId, std::uint64_t seq) {
  auto s = db_.cached("INSERT INTO callout_receipt(callout_id, seq) VALUES (?, ?)");
  if (!s) return s.error();
  s->bind(1, calloutId).bind(2, static_cast<std::int64_t>(seq));
  return s->run();
}

Result<std::vector<std::uint64_t>> CalloutStore::receiptsOf(std::int64_t calloutId) {
  auto stmt = db_.cached("SELECT seq FROM callout_receipt WHERE callout_id = ? ORDER BY seq");
  if (!stmt) return stmt.error();
  stmt->bind(1, calloutId);
  std::vector<std::uint64_t> seqs;
  for (;;) {
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row) return seqs;
    seqs.push_back(static_cast<std::uint64_t>(stmt->columnInt64(0)));
  }
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
  auto s = db_.cached(
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
      .bindTime(8, r.offeredAt)
      .bindTime(9, r.answeredAt)
      .bind(10, r.premiumMinutes)
      .bind(11, r.premiumCents);
  if (Status done = s->run(); !done) return done.error();
  return db_.lastInsertRowid();
}

Status CalloutStore::updateOffer(const OfferRow& r) {
  auto s = db_.cached("UPDATE callout_offer SET state = ?, answered_at = ? WHERE id = ?");
  if (!s) return s.error();
  s->bind(1, offerStateName(r.state)).bindTime(2, r.answeredAt).bind(3, r.id);
  return s->run();
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

Result<std::optional<OfferRow>> CalloutStore::latestOfferWithCode(std::string_view personId,
                                                                  std::string_view code) {
  auto rows = collect<OfferRow>(
      db_,
      "SELECT " + std::string(kOfferColumns) +
          " FROM callout_offer WHERE person_id = ? AND code = ? ORDER BY id DESC LIMIT 1",
      [&](Statement& s) { s.bind(1, personId).bind(2, code); }, readOffer);
  if (!rows) return rows.error();
  if (rows->empty()) return std::optional<OfferRow>{};
  return std::optional<OfferRow>{std::move(rows->front())};
}

Result<bool> CalloutStore::outBetween(std::string_view personId, TimePoint from, TimePoint to) {
  auto s = db_.cached(
      "SELECT 1 FROM callout WHERE absent_id = ? AND shift_start >= ? AND shift_start <= ?"
      " AND state != 'withdrawn' LIMIT 1");
  if (!s) return s.error();
  s->bind(1, personId).bindTime(2, from).bindTime(3, to);
  return s->step();
}

Result<int> CalloutStore::offersSince(std::string_view personId, TimePoint since) {
  auto s = db_.cached(
      "SELECT count(*) FROM callout_offer WHERE person_id = ? AND offered_at >= ?"
      " AND state != 'not_sent'");
  if (!s) return s.error();
  s->bind(1, personId).bindTime(2, since);
  auto row = s->step();
  if (!row) return row.error();
  return static_cast<int>(s->columnInt64(0));
}

Result<std::vector<std::string>> CalloutStore::codesSince(std::string_view personId,
                                                          TimePoint since) {
  auto s = db_.cached("SELECT code FROM callout_offer WHERE person_id = ? AND offered_at >= ?");
  if (!s) return s.error();
  s->bind(1, personId).bindTime(2, since);
  return readRows(*s, [](RowReader& r) { return r.text(); });
}

Result<std::int64_t> CalloutStore::insertApproval(const ApprovalRow& r) {
  auto s = db_.cached(
      "INSERT INTO approval(kind, callout_id, offer_id, subject_id, approver_id, approver_phone,"
      " summary, requested_at, expires_at, state, decided_by, decided_at, remark)"
      " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)");
  if (!s) return s.error();
  s->bind(1, std::string_view(r.kind))
      .bind(2, r.calloutId)
      .bindOptional(3, r.offerId)
      .bind(4, std::string_view(r.subjectId))
      .bind(5, std::string_view(r.approverId))
      .bind(6, std::string_view(r.approverPhone))
      .bind(7, std::string_view(r.summary))
      .bindTime(8, r.requestedAt)
      .bindTime(9, r.expiresAt)
      .bind(10, approvalStateName(r.state))
      .bind(11, std::string_view(r.decidedBy))
      .bindTime(12, r.decidedAt)
      .bind(13, std::string_view(r.remark));
  if (Status done = s->run(); !done) return done.error();
  return db_.lastInsertRowid();
}

Status CalloutStore::updateApproval(const ApprovalRow& r) {
  auto s = db_.cached(
      "UPDATE approval SET state = ?, decided_by = ?, decided_at = ?, remark = ?, receipt_seq = ?"
      " WHERE id = ?");
  if (!s) return s.error();
  std::optional<std::int64_t> receiptSeq;
  if (r.receiptSeq) receiptSeq = static_cast<std::int64_t>(*r.receiptSeq);
  s->bind(1, approvalStateName(r.state))
      .bind(2, std::string_view(r.decidedBy))
      .bindTime(3, r.decidedAt)
      .bind(4, std::string_view(r.remark))
      .bindOptional(5, receiptSeq)
      .bind(6, r.id);
  return s->run();
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
        s.bindTime(1, since).bind(2, static_cast<std::int64_t>(limit));
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
  auto s = db_.cached(
      "SELECT min(t) FROM (SELECT next_wave_at AS t FROM callout WHERE state = 'open'"
      " UNION ALL SELECT escalate_at FROM callout WHERE state = 'open'"
      " UNION ALL SELECT shift_end FROM callout WHERE state = 'open'"
      " UNION ALL SELECT expires_at FROM approval WHERE state = 'pending')");
  if (!s) return s.error();
  auto row = s->step();
  if (!row) return row.error();
  return RowReader(*s).optionalTime();
}

}  // namespace atoms::callout
