#include "sms/conversation/checklist_log.h"

#include "store/row_reader.h"

namespace atoms::sms::conversation {

using atoms::toUnixMillis;

std::string_view checklistStageName(ChecklistStage stage) {
  return stage == ChecklistStage::kOwner ? "owner" : "manager";
}

Result<std::optional<ChecklistEntry>> firstChecklistEntry(Database& db,
                                                          std::string_view checklistId,
                                                          std::string_view localDay) {
  auto stmt = db.cached(
      "SELECT at, by_phone, person_id, channel, temperature_tenths_f, in_range"
      " FROM checklist_entry WHERE checklist_id = ? AND local_day = ? ORDER BY id LIMIT 1");
  if (!stmt) return stmt.error();
  stmt->bind(1, checklistId).bind(2, localDay);
  return readFirst(*stmt, [&](RowReader& r) {
    ChecklistEntry e;
    e.checklistId = std::string(checklistId);
    e.localDay = std::string(localDay);
    e.at = r.time();
    e.byPhone = r.text();
    e.personId = r.text();
    e.channel = r.text();
    if (auto tenths = r.optionalInt64()) e.tenthsF = static_cast<int>(*tenths);
    if (auto inRange = r.optionalInt64()) e.inRange = *inRange != 0;
    return e;
  });
}

Status addChecklistEntry(Database& db, const ChecklistEntry& e) {
  auto stmt = db.cached(
      "INSERT INTO checklist_entry(checklist_id, local_day, at, by_phone, person_id, channel,"
      " temperature_tenths_f, in_range) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  if (!stmt) return stmt.error();
  std::optional<std::int64_t> tenths;
  if (e.tenthsF) tenths = *e.tenthsF;
  std::optional<std::int64_t> inRange;
  if (e.inRange) inRange = *e.inRange ? 1 : 0;
  return stmt->bind(1, std::string_view(e.checklistId))
      .bind(2, std::string_view(e.localDay))
      .bindTime(3, e.at)
      .bind(4, std::string_view(e.byPhone))
      .bind(5, std::string_view(e.personId))
      .bind(6, std::string_view(e.channel))
      .bindOptional(7, tenths)
      .bindOptional(8, inRange)
      .run();
}

Result<bool> markChecklistAlerted(Database& db, std::string_view checklistId,
                                  std::string_view localDay, ChecklistStage stage, TimePoint now) {
  auto stmt = db.cached(
      "INSERT OR IGNORE INTO checklist_alert(checklist_id, local_day, stage, sent_at)"
      " VALUES (?, ?, ?, ?)");
  if (!stmt) return stmt.error();
  stmt->bind(1, checklistId)
      .bind(2, localDay)
      .bind(3, checklistStageName(stage))
      .bind(4, toUnixMillis(now));
  auto done = stmt->step();
  if (!done) return done.error();
  return db.changes() == 1;
}

}  // namespace atoms::sms::conversation
