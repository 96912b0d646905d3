#include "domain/callout/shift_attendance.h"

#include <cstdint>
#include <vector>

#include "store/row_reader.h"

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

// site_punch keeps Unix seconds.
std::int64_t seconds(atoms::TimePoint t) {
  return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
}

}  // namespace

Result<std::optional<atoms::TimePoint>> shiftClockIn(Database& db, std::string_view personId,
                                                     atoms::TimePoint shiftStart,
                                                     atoms::TimePoint by) {
  auto stmt = db.cached(
      "SELECT at FROM site_punch WHERE person_id = ? AND kind = 'clock_in' AND at >= ? AND at <= ?"
      " ORDER BY at LIMIT 1");
  if (!stmt) return stmt.error();
  stmt->bind(1, personId).bind(2, seconds(shiftStart - kEarlyClockIn)).bind(3, seconds(by));
  auto row = stmt->step();
  if (!row) return row.error();
  if (!*row) return std::optional<atoms::TimePoint>();
  return std::optional<atoms::TimePoint>(
      atoms::TimePoint(std::chrono::seconds(stmt->columnInt64(0))));
}

Result<std::optional<std::string>> clockedInFor(Database& db, const site::SiteModel& site,
                                                const site::Shift& shift, site::Instant by) {
  const site::Instant from = shift.start.utc - kEarlyClockIn;
  auto stmt = db.cached(
      "SELECT person_id FROM site_punch WHERE kind = 'clock_in' AND at >= ? AND at <= ?"
      " ORDER BY at, position");
  if (!stmt) return stmt.error();
  stmt->bind(1, static_cast<std::int64_t>(from.time_since_epoch().count()))
      .bind(2, static_cast<std::int64_t>(by.time_since_epoch().count()));
  auto people = readRows(*stmt, [](RowReader& r) { return r.text(); });
  if (!people) return people.error();
  if (shift.assignee) {
    for (const std::string& p : *people) {
      if (p == *shift.assignee) return std::optional<std::string>(p);
    }
  }
  for (const std::string& p : *people) {
    if (!hasOwnShift(site, shift, p, from, by)) return std::optional<std::string>(p);
  }
  return std::optional<std::string>();
}

}  // namespace atoms::callout
