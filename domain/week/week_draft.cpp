#include "domain/week/week_draft.h"

namespace atoms::week {

namespace chr = std::chrono;

std::string formatWeek(Week week) { return site::formatLocalDay(week); }

std::optional<Week> parseWeek(std::string_view text) {
  auto date = site::parseDate(text);
  if (!date) return std::nullopt;
  return Week{chr::sys_days(*date).time_since_epoch()};
}

Week weekOf(const site::SiteInfo& site, site::LocalTime local) {
  const auto workday = chr::floor<chr::days>(local - chr::minutes(site.workdayStartMinute));
  const unsigned weekday = chr::weekday(workday).c_encoding();
  const unsigned back = (weekday + 7 - site.workweekStart % 7) % 7;
  return workday - chr::days(back);
}

Status checkWeekStart(const site::SiteInfo& site, Week week) {
  if (chr::weekday(week).c_encoding() == site.workweekStart % 7) return Status::success();
  static constexpr const char* kNames[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                           "Thursday", "Friday", "Saturday"};
  return makeError("week " + formatWeek(week) + " does not start on the site's workweek start (" +
                       kNames[site.workweekStart % 7] + ")",
                   ErrorKind::kInvalid);
}

bool inWeek(const site::SiteInfo& site, Week week, const site::Shift& shift) {
  return weekOf(site, shift.start.local) == week;
}

TemplateShift templateShiftOf(Week week, const site::Shift& shift) {
  const auto day = chr::floor<chr::days>(shift.start.local);
  TemplateShift t;
  t.stationId = shift.stationId;
  t.day = static_cast<int>((day - week).count());
  t.startMinute =
      static_cast<int>(chr::duration_cast<chr::minutes>(shift.start.local - day).count());
  t.minutes = static_cast<int>(
      chr::duration_cast<chr::minutes>(shift.end.local - shift.start.local).count());
  t.certificationId = shift.requiredCertification;
  t.assignee = shift.assignee;
  return t;
}

}  // namespace atoms::week
