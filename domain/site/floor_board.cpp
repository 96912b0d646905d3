#include "domain/site/floor_board.h"

#include <array>
#include <utility>

#include "domain/site/site_model.h"

namespace atoms::site {
namespace {

constexpr std::chrono::hours kFloorEarlyClockIn{1};

// The state the assignee's punches in [start - 1 h, now] leave a started or upcoming shift in.
Result<FloorShift> floorStateOf(Database& db, FloorShift shift, Instant now,
                                std::chrono::minutes grace) {
  auto stmt = db.cached(
      "SELECT kind, at FROM site_punch WHERE person_id = ? AND at >= ? AND at <= ?"
      " ORDER BY at, position");
  if (!stmt) return stmt.error();
  stmt->bind(1, shift.personId)
      .bind(2, static_cast<std::int64_t>(
                   (shift.start - kFloorEarlyClockIn).time_since_epoch().count()))
      .bind(3, static_cast<std::int64_t>(now.time_since_epoch().count()));
  std::optional<FloorState> state;
  for (;;) {
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row) break;
    const std::optional<PunchKind> kind = parsePunchKind(stmt->columnText(0));
    const Instant at{std::chrono::seconds(stmt->columnInt64(1))};
    if (!kind) continue;
    switch (*kind) {
      case PunchKind::kClockIn:
      case PunchKind::kBreakEnd:
        state = FloorState::kOn;
        break;
      case PunchKind::kBreakStart:
        state = FloorState::kOnBreak;
        break;
      case PunchKind::kClockOut:
        state = FloorState::kDone;
        break;
    }
    shift.since = at;
  }
  if (state) {
    shift.state = *state;
  } else if (now < shift.start) {
    shift.state = FloorState::kUpcoming;
  } else {
    shift.state = now < shift.start + grace ? FloorState::kLate : FloorState::kMissing;
  }
  return shift;
}

}  // namespace

std::string_view floorStateName(FloorState state) {
  static constexpr std::array<std::string_view, 7> kNames = {"upcoming", "on",   "on_break", "late",
                                                             "missing",  "done", "open"};
  return kNames[static_cast<std::size_t>(state)];
}

Result<std::vector<FloorShift>> floorBoard(Database& db, Instant now, std::chrono::minutes grace) {
  auto stmt = db.cached(
      "SELECT id, station_id, assignee_id, start_utc, end_utc FROM site_shift"
      " WHERE start_utc <= ? AND end_utc >= ? ORDER BY start_utc, station_id, id");
  if (!stmt) return stmt.error();
  stmt->bind(1, static_cast<std::int64_t>((now + kFloorAhead).time_since_epoch().count()))
      .bind(2, static_cast<std::int64_t>((now - kFloorBehind).time_since_epoch().count()));
  std::vector<FloorShift> shifts;
  for (;;) {
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row) break;
    FloorShift s;
    s.shiftId = stmt->columnText(0);
    s.stationId = stmt->columnText(1);
    s.personId = stmt->columnText(2);  // NULL: open
    s.start = Instant{std::chrono::seconds(stmt->columnInt64(3))};
    s.end = Instant{std::chrono::seconds(stmt->columnInt64(4))};
    shifts.push_back(std::move(s));
  }
  for (FloorShift& s : shifts) {
    if (s.personId.empty()) continue;  // open
    auto stated = floorStateOf(db, std::move(s), now, grace);
    if (!stated) return stated.error();
    s = std::move(*stated);
  }
  return shifts;
}

}  // namespace atoms::site
