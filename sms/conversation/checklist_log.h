// The record of the site's checklists (migration 15; docs/checklists.md): each completion or
// temperature reading (table checklist_entry) and each overdue alert stage sent (table
// checklist_alert, one row per checklist, site local day and stage, so an alert is sent once a day
// and never again after a restart). SQL only; ChecklistDesk decides and audits.
//
// Threading: on the writer, inside the caller's transaction (StoreRunner::run). Errors: store
// errors as the store reports them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "base/unix_time.h"
#include "store/database.h"

namespace atoms::sms::conversation {

using atoms::TimePoint;

struct ChecklistEntry {
  std::string checklistId;
  std::string localDay;  // YYYY-MM-DD at the site
  TimePoint at{};
  std::string byPhone;   // empty from a terminal
  std::string personId;  // empty for a number not on the roster
  std::string channel;   // "sms" or "terminal"
  std::optional<int> tenthsF;
  std::optional<bool> inRange;
};

enum class ChecklistStage { kOwner, kManager };
std::string_view checklistStageName(ChecklistStage stage);  // "owner", "manager"

// The first entry of `checklistId` on `localDay`; nullopt when there is none.
Result<std::optional<ChecklistEntry>> firstChecklistEntry(Database& db,
                                                          std::string_view checklistId,
                                                          std::string_view localDay);
Status addChecklistEntry(Database& db, const ChecklistEntry& entry);
// Records that `stage` was sent; false (and nothing changes) when it already was.
Result<bool> markChecklistAlerted(Database& db, std::string_view checklistId,
                                  std::string_view localDay, ChecklistStage stage, TimePoint now);

}  // namespace atoms::sms::conversation
