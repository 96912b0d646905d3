// The manager's draft of one workweek (docs/decisions/0032-schedule-drafts.md): the shifts as the
// manager is building them, apart from the published schedule (site_shift) that call-outs, the
// time clocks and the people go by. Plain values; DraftStore (draft_store.h) keeps them.
//
// A week is named by its first local day, which falls on the site's workweek start
// (SiteInfo::workweekStart); a shift belongs to the week its workday begins in (the local start
// less SiteInfo::workdayStartMinute), so a closing shift past midnight stays in its week.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "base/time_point.h"
#include "domain/site/site_model.h"

namespace atoms::week {

using Week = std::chrono::local_days;

struct WeekDraft {
  Week week{};
  // Every saved edit adds one; an edit names the version it was made on (optimistic concurrency).
  std::int64_t version = 1;
  std::int64_t nextShift = 1;  // the number of the next new shift's id
  TimePoint openedAt{};
  std::string updatedBy;  // who made the latest version (the person id, "engine" for the box)
  TimePoint updatedAt{};
  std::optional<std::string> publishedVersion;  // the schedule version last published from it
  std::optional<TimePoint> publishedAt;
  std::vector<site::Shift> shifts;  // by start, then id
};

// A denied finding the manager overrode, with the reason they gave (only rules that allow it:
// week_check.h overridable()).
struct DraftOverride {
  std::string ruleId;
  std::string shiftId;
  std::string personId;
  std::string reason;
  std::string actor;
  TimePoint at{};
  std::int64_t version = 0;  // the draft version the override was saved in
};

// One shift of a template: a day of the week (0 = the week's first day), a local start and a
// length in minutes, the station, and who worked it (kept when the template is applied: the
// labor check then says whether they still can).
struct TemplateShift {
  std::string stationId;
  int day = 0;          // 0..7 (7: past midnight after the last workday)
  int startMinute = 0;  // 0..1439, local wall time
  int minutes = 0;      // 1..1440
  std::optional<std::string> certificationId;
  std::optional<std::string> assignee;
  friend bool operator==(const TemplateShift&, const TemplateShift&) = default;
};

struct WeekTemplate {
  std::string name;  // 1..64 printable characters
  std::string createdBy;
  TimePoint createdAt{};
  std::vector<TemplateShift> shifts;
};

// "2026-03-09"; parseWeek accepts only a real date in that form (no check of the weekday).
std::string formatWeek(Week week);
std::optional<Week> parseWeek(std::string_view text);

// The week `site`'s workweek puts local time `local` in (its first day).
Week weekOf(const site::SiteInfo& site, site::LocalTime local);
// Whether `week` starts on the site's workweek start; error naming the weekday expected.
Status checkWeekStart(const site::SiteInfo& site, Week week);
// Whether a shift belongs to `week` (its workday begins in it).
bool inWeek(const site::SiteInfo& site, Week week, const site::Shift& shift);

// The template shift of `shift` relative to `week` (the day of its local start, not of its
// workday: templates replay wall-clock times).
TemplateShift templateShiftOf(Week week, const site::Shift& shift);

}  // namespace atoms::week
