#include "daemon/callout/shift_attendance.h"

#include <vector>

namespace atoms::callout {

namespace {

// `personId` has a shift other than `shift` overlapping [from, to].
bool hasOwnShift(const site::SiteModel& site, const site::Shift& shift, const std::string& personId,
                 site::Instant from, site::Instant to) {
  for (const site::Shift& other : site.shifts) {
    if (other.id == shift.id || !other.assignee || *other.assignee != personId) continue;
    if (other.start.utc <= to && other.end.utc > from) return true;
  }
  return false;
}

}  // namespace

Result<std::optional<std::string>> clockedInFor(Database& db, const site::SiteModel& site,
                                                const site::Shift& shift, site::Instant by) {
  const site::Instant from = shift.start.utc - kEarlyClockIn;
  auto stmt = db.prepare(
      "SELECT person_id FROM site_punch WHERE kind = 'clock_in' AND at >= ? AND at <= ?"
      " ORDER BY at, position");
  if (!stmt) return stmt.error();
  stmt->bind(1, static_cast<std::int64_t>(from.time_since_epoch().count()))
      .bind(2, static_cast<std::int64_t>(by.time_since_epoch().count()));
  std::vector<std::string> people;
  while (true) {
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row) break;
    people.push_back(stmt->columnText(0));
  }
  if (shift.assignee) {
    for (const std::string& p : people) {
      if (p == *shift.assignee) return std::optional<std::string>(p);
    }
  }
  for (const std::string& p : people) {
    if (!hasOwnShift(site, shift, p, from, by)) return std::optional<std::string>(p);
  }
  return std::optional<std::string>();
}

}  // namespace atoms::callout
