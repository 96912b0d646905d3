// Shift-shaped requirements: a station's heads per 15 minutes (staffing.h) cut into blocks a person
// can work, for a scheduler that fills shifts rather than quarter hours.
//
// Each level of the curve is covered on its own: the runs where at least h people are needed
// become blocks, a run longer than the longest shift is cut into near-equal blocks, a run shorter
// than the shortest shift is stretched (later first, then earlier, within the day). So every
// interval has at least its heads in blocks; stretching may add some. Plain values.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "base/result.h"
#include "domain/forecast/staffing.h"

namespace atoms::forecast {

struct BlockRules {
  int minMinutes = 3 * 60;  // whole quarter hours; minMinutes <= maxMinutes <= 1440
  int maxMinutes = 8 * 60;
};

struct ShiftBlock {
  std::string station;
  std::chrono::local_days day;
  int startMinute = 0;  // [start, end), minutes after midnight
  int endMinute = 0;
};

// Errors (kInvalid): rules out of range.
Result<std::vector<ShiftBlock>> shiftBlocks(const StationDay& station, const BlockRules& rules);

}  // namespace atoms::forecast
