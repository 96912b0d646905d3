#include "domain/callout/shadow_book.h"

#include <algorithm>
#include <utility>

#include "store/audit_entry.h"

namespace atoms::callout {

using atoms::fromUnixMillis;
using atoms::toUnixMillis;

namespace {

constexpr std::string_view kColumns =
    "callout_id, shift_id, absent_id, decided_at, shift_start, receipt_seq, eligible, ruled_out,"
    " verdict, worker, judged_by, judged_at";

std::optional<ShadowVerdict> verdictFromName(std::string_view name) {
  for (ShadowVerdict v :
       {ShadowVerdict::kAgreed, ShadowVerdict::kDisagreed, ShadowVerdict::kUnknown}) {
    if (shadowVerdictName(v) == name) return v;
  }
  return std::nullopt;
}

Result<ShadowRow> readRow(Statement& s) {
  ShadowRow r;
  r.calloutId = s.columnInt64(0);
  const std::string where = "callout_shadow " + std::to_string(r.calloutId) + ": ";
  r.shiftId = s.columnText(1);
  r.absentId = s.columnText(2);
  r.decidedAt = fromUnixMillis(s.columnInt64(3));
  r.shiftStart = fromUnixMillis(s.columnInt64(4));
  r.receiptSeq = s.columnInt64(5);
  auto eligible = json::parseCanonical(s.columnText(6));
  if (!eligible || !eligible->isArray()) return makeError(where + "eligible does not parse");
  for (const json::Value& id : eligible->asArray()) {
    if (!id.isString()) return makeError(where + "eligible holds a non-string");
    r.eligible.push_back(id.asString());
  }
  auto ruledOut = json::parseCanonical(s.columnText(7));
  if (!ruledOut || !ruledOut->isArray()) return makeError(where + "ruled_out does not parse");
  r.ruledOut = std::move(*ruledOut);
  if (!s.columnIsNull(8)) {
    r.verdict = verdictFromName(s.columnText(8));
    if (!r.verdict) return makeError(where + "unknown verdict " + s.columnText(8));
  }
  r.worker = s.columnText(9);
  r.judgedBy = s.columnText(10);
  if (!s.columnIsNull(11)) r.judgedAt = fromUnixMillis(s.columnInt64(11));
  return r;
}

Result<std::vector<ShadowRow>> collect(Statement& stmt) {
  std::vector<ShadowRow> out;
  while (true) {
    auto row = stmt.step();
    if (!row) return row.error();
    if (!*row) break;
    auto parsed = readRow(stmt);
    if (!parsed) return parsed.error();
    out.push_back(std::move(*parsed));
  }
  return out;
}

}  // namespace

std::string_view shadowVerdictName(ShadowVerdict v) {
  switch (v) {
    case ShadowVerdict::kAgreed:
      return "agreed";
    case ShadowVerdict::kDisagreed:
      return "disagreed";
    case ShadowVerdict::kUnknown:
      return "unknown";
  }
  return "unknown";
}

bool ShadowRow::wouldOffer(std::string_view personId) const {
  return std::find(eligible.begin(), eligible.end(), personId) != eligible.end();
}

json::Value ShadowRow::toJson() const {
  json::Array ids;
  for (const std::string& id : eligible) ids.push_back(id);
  json::Object o{{"callout", calloutId},  {"shift", shiftId},
                 {"absent", absentId},    {"decidedAt", formatTimestamp(decidedAt)},
                 {"receipt", receiptSeq}, {"eligible", std::move(ids)},
                 {"ruledOut", ruledOut}};
  if (verdict) {
    o["verdict"] = std::string(shadowVerdictName(*verdict));
    if (!worker.empty()) o["worker"] = worker;
    o["judgedBy"] = judgedBy;
    if (judgedAt) o["judgedAt"] = formatTimestamp(*judgedAt);
  }
  return o;
}

Status ShadowBook::insert(const ShadowRow& row) {
  json::Array ids;
  for (const std::string& id : row.eligible) ids.push_back(id);
  auto stmt = db_.prepare("INSERT INTO callout_shadow(" + std::string(kColumns) +
                          ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, '', '', NULL)");
  if (!stmt) return stmt.error();
  stmt->bind(1, row.calloutId)
      .bind(2, row.shiftId)
      .bind(3, row.absentId)
      .bind(4, toUnixMillis(row.decidedAt))
      .bind(5, toUnixMillis(row.shiftStart))
      .bind(6, row.receiptSeq)
      .bind(7, json::canonical(json::Value(std::move(ids))))
      .bind(8, json::canonical(row.ruledOut));
  auto done = stmt->step();
  if (!done) return done.error();
  return Status::success();
}

Result<std::optional<ShadowRow>> ShadowBook::find(std::int64_t calloutId) {
  auto stmt =
      db_.prepare("SELECT " + std::string(kColumns) + " FROM callout_shadow WHERE callout_id = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, calloutId);
  auto rows = collect(*stmt);
  if (!rows) return rows.error();
  if (rows->empty()) return std::optional<ShadowRow>();
  return std::optional<ShadowRow>(std::move(rows->front()));
}

Result<std::vector<ShadowRow>> ShadowBook::awaiting(bool unknownToo) {
  auto stmt = db_.prepare(
      "SELECT " + std::string(kColumns) + " FROM callout_shadow WHERE verdict IS NULL" +
      (unknownToo ? " OR verdict = 'unknown'" : "") + " ORDER BY shift_start, callout_id");
  if (!stmt) return stmt.error();
  return collect(*stmt);
}

Status ShadowBook::judge(std::int64_t calloutId, ShadowVerdict verdict, std::string_view worker,
                         std::string_view judgedBy, TimePoint at) {
  auto stmt = db_.prepare(
      "UPDATE callout_shadow SET verdict = ?, worker = ?, judged_by = ?, judged_at = ?"
      " WHERE callout_id = ? AND (verdict IS NULL OR verdict = 'unknown')");
  if (!stmt) return stmt.error();
  stmt->bind(1, shadowVerdictName(verdict))
      .bind(2, worker)
      .bind(3, judgedBy)
      .bind(4, toUnixMillis(at))
      .bind(5, calloutId);
  auto done = stmt->step();
  if (!done) return done.error();
  if (db_.changes() != 1) {
    return makeError("shadow decision of call-out " + std::to_string(calloutId) +
                     " is unknown or judged already");
  }
  return Status::success();
}

}  // namespace atoms::callout
