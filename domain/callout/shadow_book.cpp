#include "domain/callout/shadow_book.h"

#include <algorithm>
#include <utility>

#include "base/name_table.h"
#include "store/audit_entry.h"
#include "store/row_reader.h"

namespace atoms::callout {

namespace {

constexpr std::string_view kColumns =
    "callout_id, shift_id, absent_id, decided_at, shift_start, receipt_seq, eligible, ruled_out,"
    " verdict, worker, judged_by, judged_at";

constexpr NameTable<ShadowVerdict, 3> kVerdictNames{{{ShadowVerdict::kAgreed, "agreed"},
                                                     {ShadowVerdict::kDisagreed, "disagreed"},
                                                     {ShadowVerdict::kUnknown, "unknown"}}};

Result<ShadowRow> readRow(RowReader& s) {
  ShadowRow r;
  r.calloutId = s.int64();
  const std::string where = "callout_shadow " + std::to_string(r.calloutId) + ": ";
  r.shiftId = s.text();
  r.absentId = s.text();
  r.decidedAt = s.time();
  r.shiftStart = s.time();
  r.receiptSeq = s.int64();
  auto eligible = json::parseCanonical(s.text());
  if (!eligible || !eligible->isArray()) return makeError(where + "eligible does not parse");
  for (const json::Value& id : eligible->asArray()) {
    if (!id.isString()) return makeError(where + "eligible holds a non-string");
    r.eligible.push_back(id.asString());
  }
  auto ruledOut = json::parseCanonical(s.text());
  if (!ruledOut || !ruledOut->isArray()) return makeError(where + "ruled_out does not parse");
  r.ruledOut = std::move(*ruledOut);
  if (auto verdict = s.optionalText()) {
    r.verdict = fromName(kVerdictNames, *verdict);
    if (!r.verdict) return makeError(where + "unknown verdict " + *verdict);
  }
  r.worker = s.text();
  r.judgedBy = s.text();
  r.judgedAt = s.optionalTime();
  return r;
}

}  // namespace

std::string_view shadowVerdictName(ShadowVerdict v) { return nameOf(kVerdictNames, v); }

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
  auto stmt = db_.cached("INSERT INTO callout_shadow(" + std::string(kColumns) +
                         ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, '', '', NULL)");
  if (!stmt) return stmt.error();
  stmt->bind(1, row.calloutId)
      .bind(2, row.shiftId)
      .bind(3, row.absentId)
      .bindTime(4, row.decidedAt)
      .bindTime(5, row.shiftStart)
      .bind(6, row.receiptSeq)
      .bind(7, json::canonical(json::Value(std::move(ids))))
      .bind(8, json::canonical(row.ruledOut));
  auto done = stmt->step();
  if (!done) return done.error();
  return Status::success();
}

Result<std::optional<ShadowRow>> ShadowBook::find(std::int64_t calloutId) {
  auto stmt =
      db_.cached("SELECT " + std::string(kColumns) + " FROM callout_shadow WHERE callout_id = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, calloutId);
  return readFirst(*stmt, readRow);
}

Result<std::vector<ShadowRow>> ShadowBook::awaiting(bool unknownToo) {
  auto stmt = db_.cached(
      "SELECT " + std::string(kColumns) + " FROM callout_shadow WHERE verdict IS NULL" +
      (unknownToo ? " OR verdict = 'unknown'" : "") + " ORDER BY shift_start, callout_id");
  if (!stmt) return stmt.error();
  return readRows(*stmt, readRow);
}

Status ShadowBook::judge(std::int64_t calloutId, ShadowVerdict verdict, std::string_view worker,
                         std::string_view judgedBy, TimePoint at) {
  auto stmt = db_.cached(
      "UPDATE callout_shadow SET verdict = ?, worker = ?, judged_by = ?, judged_at = ?"
      " WHERE callout_id = ? AND (verdict IS NULL OR verdict = 'unknown')");
  if (!stmt) return stmt.error();
  stmt->bind(1, shadowVerdictName(verdict))
      .bind(2, worker)
      .bind(3, judgedBy)
      .bindTime(4, at)
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
