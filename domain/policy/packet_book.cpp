#include "domain/policy/packet_book.h"

#include <functional>

#include "base/unix_time.h"
#include "store/audit_entry.h"
#include "store/row_reader.h"

namespace atoms::policy {
namespace {

using atoms::fromUnixMillis;
using atoms::toUnixMillis;

constexpr char kColumns[] =
    "id, kind, subject, asked_by, opened_at, rule, pattern, summary, evidence, state, closed_by,"
    " closed_at, note";

json::Value orNull(const std::string& s) { return s.empty() ? json::Value() : json::Value(s); }

Result<Packet> readRow(RowReader& r) {
  Packet p;
  p.id = r.int64();
  p.kind = r.text();
  p.subject = r.text();
  p.askedBy = r.text();
  p.openedAt = r.time();
  p.rule = r.text();
  p.pattern = r.text();
  p.summary = r.text();
  auto evidence = json::parse(r.text());
  if (!evidence) return makeError("packet " + std::to_string(p.id) + ": " + evidence.message());
  p.evidence = std::move(*evidence);
  p.open = r.text() == "open";
  p.closedBy = r.text();
  p.closedAt = r.optionalTime();
  p.note = r.text();
  return p;
}

Result<std::vector<Packet>> query(Database& db, const std::string& where,
                                  const std::function<void(Statement&)>& bind) {
  auto stmt = db.cached(std::string("SELECT ") + kColumns + " FROM human_packet " + where);
  if (!stmt) return stmt.error();
  if (bind) bind(*stmt);
  return readRows(*stmt, readRow);
}

}  // namespace

json::Value Packet::toJson() const {
  return json::Object{
      {"id", id},
      {"kind", kind},
      {"subject", orNull(subject)},
      {"askedBy", askedBy},
      {"openedAt", formatTimestamp(openedAt)},
      {"rule", rule},
      {"pattern", orNull(pattern)},
      {"summary", summary},
      {"evidence", evidence},
      {"state", open ? "open" : "closed"},
      {"closedBy", orNull(closedBy)},
      {"closedAt", closedAt ? json::Value(formatTimestamp(*closedAt)) : json::Value()},
      {"note", orNull(note)}};
}

Result<Packet> PacketBook::open(AuditLog::Batch& batch, TimePoint at, const GateDecision& decision,
                                std::string_view subject, std::string_view askedBy,
                                std::string_view summary, json::Value evidence) {
  auto stmt = db_->cached(
      "INSERT INTO human_packet(kind, subject, asked_by, opened_at, rule, pattern, summary,"
      " evidence, state, closed_by, note) VALUES(?, ?, ?, ?, ?, ?, ?, ?, 'open', '', '')");
  if (!stmt) return stmt.error();
  stmt->bind(1, decision.kind)
      .bind(2, subject)
      .bind(3, askedBy)
      .bindTime(4, at)
      .bind(5, decision.rule)
      .bind(6, decision.pattern)
      .bind(7, summary)
      .bind(8, json::canonical(evidence));
  if (Status done = stmt->run(); !done) return done.error();
  const std::int64_t id = db_->lastInsertRowid();
  json::Object body{{"id", id},
                    {"kind", decision.kind},
                    {"subject", orNull(std::string(subject))},
                    {"askedBy", std::string(askedBy)},
                    {"rule", decision.rule},
                    {"summary", std::string(summary)}};
  if (!decision.pattern.empty()) body["pattern"] = decision.pattern;
  auto seq = batch.add(formatTimestamp(at), "packet.opened", askedBy, json::Value(std::move(body)));
  if (!seq) return seq.error();
  Packet p;
  p.id = id;
  p.kind = decision.kind;
  p.subject = std::string(subject);
  p.askedBy = std::string(askedBy);
  p.openedAt = fromUnixMillis(toUnixMillis(at));  // as stored
  p.rule = decision.rule;
  p.pattern = decision.pattern;
  p.summary = std::string(summary);
  p.evidence = std::move(evidence);
  return p;
}

Result<std::vector<Packet>> PacketBook::list() const {
  auto open = query(*db_, "WHERE state = 'open' ORDER BY id", {});
  if (!open) return open;
  auto closed = query(*db_, "WHERE state = 'closed' ORDER BY id DESC LIMIT 50", {});
  if (!closed) return closed;
  for (Packet& p : *closed) open->push_back(std::move(p));
  return open;
}

Result<std::optional<Packet>> PacketBook::find(std::int64_t id) const {
  auto rows = query(*db_, "WHERE id = ?", [id](Statement& s) { s.bind(1, id); });
  if (!rows) return rows.error();
  if (rows->empty()) return std::optional<Packet>();
  return std::optional<Packet>(std::move(rows->front()));
}

Result<Packet> PacketBook::close(TimePoint at, std::int64_t id, std::string_view by,
                                 std::string_view note) {
  if (note.find_first_not_of(' ') == std::string_view::npos) {
    return makeError("note: missing (say what was done, it goes on record)");
  }
  auto found = find(id);
  if (!found) return found.error();
  if (!*found) return makeError("no packet " + std::to_string(id));
  if (!(*found)->open) return makeError("packet " + std::to_string(id) + " was closed already");
  auto batch = log_->begin();
  if (!batch) return batch.error();
  auto stmt = db_->cached(
      "UPDATE human_packet SET state = 'closed', closed_by = ?, closed_at = ?, note = ?"
      " WHERE id = ? AND state = 'open'");
  if (!stmt) return stmt.error();
  stmt->bind(1, by).bindTime(2, at).bind(3, note).bind(4, id);
  if (Status done = stmt->run(); !done) return done.error();
  json::Object body{{"id", id}, {"by", std::string(by)}, {"note", std::string(note)}};
  if (auto seq = batch->add(formatTimestamp(at), "packet.closed", by, json::Value(std::move(body)));
      !seq) {
    return seq.error();
  }
  if (auto committed = batch->commit(); !committed) return committed.error();
  Packet closed = std::move(**found);
  closed.open = false;
  closed.closedBy = std::string(by);
  closed.closedAt = at;
  closed.note = std::string(note);
  return closed;
}

}  // namespace atoms::policy
