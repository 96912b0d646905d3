#include "domain/forecast/shift_blocks.h"

#include <algorithm>

namespace atoms::forecast {

Result<std::vector<ShiftBlock>> shiftBlocks(const StationDay& station, const BlockRules& rules) {
  if (rules.minMinutes < kIntervalMinutes || rules.maxMinutes > 24 * 60 ||
      rules.minMinutes > rules.maxMinutes || rules.minMinutes % kIntervalMinutes != 0 ||
      rules.maxMinutes % kIntervalMinutes != 0) {
    return makeError(
        "shift blocks for \"" + station.station +
            "\": shift lengths must be whole quarter hours, shortest <= longest <= 24 h",
        ErrorKind::kInvalid);
  }
  const int shortest = rules.minMinutes / kIntervalMinutes;
  const int longest = rules.maxMinutes / kIntervalMinutes;
  std::vector<ShiftBlock> blocks;
  const int top = *std::max_element(station.heads.begin(), station.heads.end());
  for (int level = 1; level <= top; ++level) {
    int s = 0;
    while (s < kIntervalsPerDay) {
      if (station.heads[static_cast<std::size_t>(s)] < level) {
        ++s;
        continue;
      }
      int end = s;
      while (end < kIntervalsPerDay && station.heads[static_cast<std::size_t>(end)] >= level) ++end;
      const int length = end - s;
      const int pieces = (length + longest - 1) / longest;
      int start = s;
      for (int p = 0; p < pieces; ++p) {
        int pieceEnd = s + length * (p + 1) / pieces;
        int pieceStart = start;
        if (pieceEnd - pieceStart < shortest) {
          pieceEnd = std::min(kIntervalsPerDay, pieceStart + shortest);
          pieceStart = std::max(0, pieceEnd - shortest);
        }
        blocks.push_back(ShiftBlock{station.station, station.day, pieceStart * kIntervalMinutes,
                                    pieceEnd * kIntervalMinutes});
        start = s + length * (p + 1) / pieces;
      }
      s = end;
    }
  }
  return blocks;
}

}  // namespace atoms::forecast
