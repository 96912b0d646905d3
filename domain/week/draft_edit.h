// The edits a manager makes to a week's draft (docs/decisions/0032-schedule-drafts.md), and
// applyEdit(), which makes one on a copy of the draft: a pure function of the draft, the site and
// the instant, checked before anything is saved (week_desk.h runs the labor check on the result).
//
// Times are the site's local wall-clock times; each is converted through the site's zone (a
// time in the spring-forward gap or the fall-back hour is refused with the zone's words).
// Contract: the draft is changed only when the result is ok. Errors are kInvalid values naming
// the shift or the field ("move: shift 'w-12' has already started"); kNotFound for an unknown
// shift. A shift that has started is not changed here (its record belongs to the day, and the
// call-out desk may be working it); new shifts must start after `now`.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "base/result.h"
#include "domain/site/site_model.h"
#include "domain/week/week_draft.h"

namespace atoms::week {

struct AddShiftEdit {  // open when no assignee
  std::string stationId;
  site::LocalTime start{};
  site::LocalTime end{};
  std::optional<std::string> certificationId;
  std::optional<std::string> assignee;
};
struct MoveShiftEdit {  // new times, and optionally a new station
  std::string shiftId;
  site::LocalTime start{};
  site::LocalTime end{};
  std::optional<std::string> stationId;
};
struct ExtendShiftEdit {  // starts no later, ends no earlier, longer
  std::string shiftId;
  site::LocalTime start{};
  site::LocalTime end{};
};
struct CutShiftEdit {  // inside the old times, shorter
  std::string shiftId;
  site::LocalTime start{};
  site::LocalTime end{};
};
struct SwapShiftsEdit {  // the assignees of two shifts trade them
  std::string shiftId;
  std::string otherShiftId;
};
struct DeleteShiftEdit {
  std::string shiftId;
};
struct AssignEdit {
  std::string shiftId;
  std::string personId;
};
struct UnassignEdit {  // the shift becomes open
  std::string shiftId;
};
// The week's shifts that have not started are replaced by `shifts` (copy last week, apply a
// template); `source` says where they came from ("week 2026-03-02", "template 'summer'").
struct FillWeekEdit {
  std::vector<TemplateShift> shifts;
  std::string source;
};

// A plan of "fill open shifts" or "build the week" (week_builder.h): the week's shifts that have
// not started replaced by `shifts`, which keep the ids of the draft's and bring new ones numbered
// below `nextShift`.
struct PlanWeekEdit {
  std::vector<site::Shift> shifts;
  std::int64_t nextShift = 1;
  std::string summary;
};

using DraftEdit =
    std::variant<AddShiftEdit, MoveShiftEdit, ExtendShiftEdit, CutShiftEdit, SwapShiftsEdit,
                 DeleteShiftEdit, AssignEdit, UnassignEdit, FillWeekEdit, PlanWeekEdit>;

// "add", "move", "extend", "cut", "swap", "delete", "assign", "unassign", "fill", "plan".
std::string_view editKindName(const DraftEdit& edit);

struct EditContext {
  const site::SiteModel* site = nullptr;  // people and stations; must outlive the call
  const site::SiteIndex* index = nullptr;
  const site::TimeZone* zone = nullptr;
  site::Instant now{};
};

struct AppliedEdit {
  // The shifts the edit made, changed or removed, and the people who had or have them.
  std::vector<std::string> shiftIds;
  std::vector<std::string> personIds;
  std::string summary;  // one line for the edit record ("added w-3: line 09:00-17:00, p-ana")
};

// Applies `edit` to `draft` (shifts stay sorted; new ids are "<week>-<n>" from draft.nextShift).
Result<AppliedEdit> applyEdit(const DraftEdit& edit, WeekDraft& draft, const EditContext& ctx);

// The shift `t` of a template placed in `week` through `zone`.
Result<site::Shift> placeTemplateShift(const TemplateShift& t, Week week,
                                       const site::TimeZone& zone, std::string id);

}  // namespace atoms::week
