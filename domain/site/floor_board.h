// Who is on the floor: today's board of the panel (docs/panel.md, "Today"). For each shift near
// `now` (started, or starting within kFloorAhead, and not ended more than kFloorBehind ago), what
// the time clocks say of its assignee at `now`:
//   upcoming   not started yet, no clock-in
//   on         clocked in (or back from a break)
//   on_break   a break started and has not ended
//   late       started less than `grace` ago, no clock-in yet
//   missing    started `grace` ago or more, no clock-in
//   done       clocked out
//   open       nobody is assigned
// A clock-in counts from an hour before the shift's start (people clock in early; the same window
// as the call-out desk's, domain/callout/shift_attendance.h). Punches are site_punch's.
//
// Threading: the store's owner thread. Errors: the store's, one line.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "domain/site/time_zone.h"
#include "store/database.h"

namespace atoms::site {

inline constexpr std::chrono::hours kFloorAhead{12};
inline constexpr std::chrono::hours kFloorBehind{1};

enum class FloorState { kUpcoming, kOn, kOnBreak, kLate, kMissing, kDone, kOpen };
std::string_view floorStateName(FloorState state);  // "upcoming", "on_break", ...

struct FloorShift {
  std::string shiftId;
  std::string stationId;
  std::string personId;  // empty when open
  Instant start{};
  Instant end{};
  FloorState state = FloorState::kOpen;
  std::optional<Instant> since;  // the punch the state stands on (clock-in, break start...)
};

// The shifts near `now`, by start then station.
Result<std::vector<FloorShift>> floorBoard(Database& db, Instant now, std::chrono::minutes grace);

}  // namespace atoms::site
