#include "domain/forecast/special_day.h"

#include <algorithm>
#include <cmath>

#include "domain/forecast/demand_history.h"

namespace atoms::forecast {

Result<SpecialDays> SpecialDays::make(std::vector<SpecialDay> days) {
  std::sort(days.begin(), days.end(),
            [](const SpecialDay& a, const SpecialDay& b) { return a.day < b.day; });
  for (std::size_t i = 0; i < days.size(); ++i) {
    const SpecialDay& day = days[i];
    if (i > 0 && days[i - 1].day == day.day) {
      return makeError("special day " + dayText(day.day) + ": marked twice", ErrorKind::kInvalid);
    }
    if (!std::isfinite(day.multiplier) || day.multiplier < 0 || day.multiplier > 20) {
      return makeError("special day " + dayText(day.day) + ": multiplier must be between 0 and 20",
                       ErrorKind::kInvalid);
    }
    if (day.like && !day.like->ok()) {
      return makeError("special day " + dayText(day.day) + ": not a weekday", ErrorKind::kInvalid);
    }
  }
  SpecialDays result;
  result.days_ = std::move(days);
  return result;
}

const SpecialDay* SpecialDays::find(std::chrono::local_days day) const {
  const auto it =
      std::lower_bound(days_.begin(), days_.end(), day,
                       [](const SpecialDay& a, std::chrono::local_days d) { return a.day < d; });
  return it != days_.end() && it->day == day ? &*it : nullptr;
}

}  // namespace atoms::forecast
