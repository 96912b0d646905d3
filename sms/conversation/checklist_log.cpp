#include "sms/conversation/checklist_log.h"

namespace atoms::sms::conversation {

using atoms::fromUnixMillis;
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
  auto row = stmt->step();
  if (!row) return row.error();
  if (!*row) return std::optional<ChecklistEntry>();
  ChecklistEntry e;
  e.checklistId = std::string(checklistId);
  e.localDay = std::string(localDay);
  e.at = fromUnixMillis(stmt->columnInt64(0));
  e.byPhone = stmt->columnText(1);
  e.personId = stmt->columnText(2);
  e.channel = stmt->columnText(3);
  if (!stmt->columnIsNull(4)) e.tenthsF = static_cast<int>(stmt->columnInt64(4));
  if (!stmt->columnIsNull(5)) e.inRange = stmt->columnInt64(5) != 0;
  return std::optional<ChecklistEntry>(std::move(e));
}

Status addChecklistEntry(Database& db, const ChecklistEntry& e) {
  auto stmt = db.cached(
      "INSERT INTO checklist_entry(checklist_id, local_day, at, by_phone, person_id, channel,"
      " temperature_tenths_f, in_range) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  if (!stmt) return stmt.error();
  stmt->bind(1, std::string_view(e.checklistId))
      .bind(2, std::string_view(e.localDay))
      .bind(3, toUnixMillis(e.at))
      .bind(4, std::string_view(e.byPhone))
      .bind(5, std::string_view(e.personId))
      .bind(6, std::string_view(e.channel));
  if (e.tenthsF) {
    stmt->bind(7, std::int64_t{*e.tenthsF});
  } else {
    stmt->bindNull(7);
  }
  if (e.inRange) {
    stmt->bind(8, std::int64_t{*e.inRange ? 1 : 0});
  } else {
    stmt->bindNull(8);
  }
  auto done = stmt->step();
  if (!done) return done.error();
  return Status::success();
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
