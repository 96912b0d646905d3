// DraftStore: the schedule drafts, their edits and overrides, and the week templates in the store
// (tables of migration 26 "schedule_drafts", store/migrations.cpp).
//
// Contract:
// - Works on the caller's Database and inside the caller's transaction (an AuditLog batch): the
//   draft, its edit record and the audit entry commit together or not at all.
// - save() is a compare-and-set: it writes only when the stored version is draft.version - 1 and
//   returns false otherwise (another edit got there first), changing nothing.
// - Threading: the writer's connection (single writer, store/database.h). Not synchronised.
// - Errors are values (SQL errors as the store reports them, a damaged row named).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/canonical_json.h"
#include "base/result.h"
#include "domain/week/week_draft.h"
#include "store/database.h"

namespace atoms::week {

// One saved edit, for the history and the refusal of a stale one ("changed by ... at ...").
struct EditRecord {
  std::int64_t version = 0;
  std::string kind;  // "add", "move", ..., "publish"
  std::string actor;
  TimePoint at{};
  json::Value detail;
};

class DraftStore {
 public:
  explicit DraftStore(Database& db) : db_(db) {}

  // The draft of `week` with its shifts; nullopt when none was opened.
  Result<std::optional<WeekDraft>> find(Week week);
  // A new draft and the base it was opened on (the live shifts of the week then).
  Status create(const WeekDraft& draft, const std::vector<site::Shift>& base);
  // Writes `draft` (header and shifts) when the stored version is draft.version - 1; false when
  // it is not (nothing written).
  Result<bool> save(const WeekDraft& draft);
  Result<std::vector<site::Shift>> base(Week week);
  Status replaceBase(Week week, const std::vector<site::Shift>& shifts);

  Status recordEdit(Week week, const EditRecord& edit);
  // The latest `limit` edits, newest first.
  Result<std::vector<EditRecord>> edits(Week week, int limit);
  Status recordOverride(Week week, const DraftOverride& o);
  Result<std::vector<DraftOverride>> overrides(Week week);

  // Saves (replacing one of the same name) a template.
  Status saveTemplate(const WeekTemplate& t);
  Result<std::optional<WeekTemplate>> findTemplate(const std::string& name);
  Result<std::vector<std::string>> templateNames();

 private:
  Status writeShifts(std::string_view table, Week week, const std::vector<site::Shift>& shifts);
  Result<std::vector<site::Shift>> readShifts(std::string_view table, Week week);

  Database& db_;
};

}  // namespace atoms::week
