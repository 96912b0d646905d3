#include "domain/schedule/roster_model.h"

namespace atoms::schedule {

std::vector<int> RosterInstance::weekendSaturdays() const {
  std::vector<int> saturdays;
  const int firstSaturday = (5 - firstWeekday + 7) % 7;
  for (int day = firstSaturday; day + 1 < days; day += 7) saturdays.push_back(day);
  return saturdays;
}

Roster Roster::allOff(const RosterInstance& instance) {
  Roster roster;
  roster.cells.assign(instance.people.size(), std::vector<int>(instance.days, kOff));
  return roster;
}

}  // namespace atoms::schedule
