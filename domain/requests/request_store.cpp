#include "domain/requests/request_store.h"

#include <chrono>
#include <utility>

#include "base/name_table.h"
#include "store/row_reader.h"

namespace atoms::requests {

namespace {

constexpr NameTable<RequestState, 4> kRequestStates{{{RequestState::kPending, "pending"},
                                                     {RequestState::kApproved, "approved"},
                                                     {RequestState::kDenied, "denied"},
                                                     {RequestState::kWithdrawn, "withdrawn"}}};
constexpr NameTable<sms::RequestKind, 2> kRequestKinds{
    {{sms::RequestKind::kTimeOff, "time_off"}, {sms::RequestKind::kAvailability, "availability"}}};
constexpr NameTable<sms::DayPart, 5> kRequestParts{{{sms::DayPart::kAllDay, "all_day"},
                                                    {sms::DayPart::kMorning, "morning"},
                                                    {sms::DayPart::kAfternoon, "afternoon"},
                                                    {sms::DayPart::kEvening, "evening"},
                                                    {sms::DayPart::kNight, "night"}}};
constexpr NameTable<sms::AvailabilityChange, 2> kRequestChanges{
    {{sms::AvailabilityChange::kCannot, "cannot"}, {sms::AvailabilityChange::kOnly, "only"}}};

constexpr std::string_view kRequestColumns =
    "id, person_id, kind, state, from_date, to_date, part, weekdays, availability_change,"
    " approver_id, inbox_id, created_at, decided_by, decided_via, decided_at, remark";

std::string weekdayDigits(const std::vector<unsigned>& weekdays) {
  std::string s;
  for (unsigned d : weekdays) s.push_back(static_cast<char>('0' + d % 7));
  return s;
}

Result<RequestRow> readRequest(RowReader& r) {
  RequestRow row;
  row.id = r.int64();
  row.personId = r.text();
  auto kind = r.named(kRequestKinds);
  auto state = r.named(kRequestStates);
  row.fromDate = r.text();
  row.toDate = r.text();
  auto part = r.named(kRequestParts);
  const std::string days = r.text();
  auto change = r.named(kRequestChanges);
  row.approverId = r.text();
  row.inboxId = r.optionalInt64();
  row.createdAt = r.time();
  row.decidedBy = r.text();
  row.decidedVia = r.text();
  row.decidedAt = r.optionalTime();
  row.remark = r.text();
  if (!kind || !state || !part || !change) {
    return makeError("staff request " + std::to_string(row.id) + ": damaged row");
  }
  for (char c : days) {
    if (c < '0' || c > '6') {
      return makeError("staff request " + std::to_string(row.id) + ": damaged weekdays");
    }
    row.weekdays.push_back(static_cast<unsigned>(c - '0'));
  }
  row.kind = *kind;
  row.state = *state;
  row.part = *part;
  row.change = *change;
  return row;
}

}  // namespace

std::string_view requestStateName(RequestState state) { return nameOf(kRequestStates, state); }

std::optional<RequestState> requestStateFromName(std::string_view name) {
  return fromName(kRequestStates, name);
}

Result<std::int64_t> RequestStore::insert(const RequestRow& r) {
  auto s = db_.cached(
      "INSERT INTO staff_request(person_id, kind, state, from_date, to_date, part, weekdays,"
      " availability_change, approver_id, inbox_id, created_at, decided_by, decided_via,"
      " decided_at, remark) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  if (!s) return s.error();
  s->bind(1, std::string_view(r.personId))
      .bind(2, nameOf(kRequestKinds, r.kind))
      .bind(3, requestStateName(r.state))
      .bind(4, std::string_view(r.fromDate))
      .bind(5, std::string_view(r.toDate))
      .bind(6, nameOf(kRequestParts, r.part))
      .bind(7, weekdayDigits(r.weekdays))
      .bind(8, nameOf(kRequestChanges, r.change))
      .bind(9, std::string_view(r.approverId))
      .bindOptional(10, r.inboxId)
      .bindTime(11, r.createdAt)
      .bind(12, std::string_view(r.decidedBy))
      .bind(13, std::string_view(r.decidedVia))
      .bindTime(14, r.decidedAt)
      .bind(15, std::string_view(r.remark));
  if (Status done = s->run(); !done) return done.error();
  return db_.lastInsertRowid();
}

Status RequestStore::update(const RequestRow& r) {
  auto s = db_.cached(
      "UPDATE staff_request SET state = ?, decided_by = ?, decided_via = ?, decided_at = ?,"
      " remark = ? WHERE id = ?");
  if (!s) return s.error();
  s->bind(1, requestStateName(r.state))
      .bind(2, std::string_view(r.decidedBy))
      .bind(3, std::string_view(r.decidedVia))
      .bindTime(4, r.decidedAt)
      .bind(5, std::string_view(r.remark))
      .bind(6, r.id);
  return s->run();
}

Result<std::optional<RequestRow>> RequestStore::get(std::int64_t id) {
  auto s =
      db_.cached("SELECT " + std::string(kRequestColumns) + " FROM staff_request WHERE id = ?");
  if (!s) return s.error();
  s->bind(1, id);
  auto rows = readRows(*s, readRequest);
  if (!rows) return rows.error();
  if (rows->empty()) return std::optional<RequestRow>();
  return std::optional<RequestRow>(std::move(rows->front()));
}

Result<std::vector<RequestRow>> RequestStore::list(RequestFilter filter, TimePoint now) {
  if (filter == RequestFilter::kPending) {
    auto s = db_.cached("SELECT " + std::string(kRequestColumns) +
                        " FROM staff_request WHERE state = 'pending' ORDER BY id LIMIT ?");
    if (!s) return s.error();
    s->bind(1, static_cast<std::int64_t>(kMaxListedRequests));
    return readRows(*s, readRequest);
  }
  auto s = db_.cached("SELECT " + std::string(kRequestColumns) +
                      " FROM staff_request WHERE state = 'pending' OR created_at >= ?"
                      " ORDER BY id DESC LIMIT ?");
  if (!s) return s.error();
  s->bindTime(1, now - std::chrono::days{30})
      .bind(2, static_cast<std::int64_t>(kMaxListedRequests));
  return readRows(*s, readRequest);
}

Result<std::vector<RequestRow>> RequestStore::pendingFor(std::string_view personId) {
  auto s = db_.cached("SELECT " + std::string(kRequestColumns) +
                      " FROM staff_request WHERE state = 'pending' AND person_id = ? ORDER BY id");
  if (!s) return s.error();
  s->bind(1, personId);
  return readRows(*s, readRequest);
}

}  // namespace atoms::requests
