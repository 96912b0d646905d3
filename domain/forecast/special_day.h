// Days the manager marks as not ordinary: a holiday the site is closed, a day busier or quieter
// than its weekday ("the street fair: about 1.5x"), or a day that trades like another weekday ("a
// bank holiday Monday is like a Saturday"). The forecast leaves marked days out of what it learns
// from the history, and shapes a marked day ahead as marked.
//
// Plain values, no I/O, no threads.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace atoms::forecast {

struct SpecialDay {
  std::chrono::local_days day;
  bool closed = false;
  // The weekday whose level and shape the day takes; none: its own.
  std::optional<std::chrono::weekday> like;
  double multiplier = 1.0;  // on top of the level; ignored when closed
  std::string note;         // "Christmas", "street fair": shown with the forecast
};

// The marks, looked up by day. Errors (kInvalid) naming the day: a day marked twice, a multiplier
// that is not a finite number in [0, 20].
class SpecialDays {
 public:
  static Result<SpecialDays> make(std::vector<SpecialDay> days);
  SpecialDays() = default;

  // The mark on `day`, or nullptr.
  const SpecialDay* find(std::chrono::local_days day) const;
  const std::vector<SpecialDay>& all() const { return days_; }

 private:
  std::vector<SpecialDay> days_;  // sorted by day
};

}  // namespace atoms::forecast
