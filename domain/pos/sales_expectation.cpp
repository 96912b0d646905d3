#include "domain/pos/sales_expectation.h"

#include <map>
#include <set>

namespace atoms::pos {

Result<std::vector<ExpectedSales>> weekdayAverage(const std::vector<SalesInterval>& history,
                                                  const site::TimeZone& zone, LocalDay day) {
  using std::chrono::days;
  // Sum per local time of day over the earlier same weekdays, and which of them sold anything.
  std::map<site::Seconds, std::int64_t> sums;
  std::set<LocalDay> daysWithSales;
  for (const SalesInterval& s : history) {
    const site::LocalTime local = zone.toLocal(s.start);
    const LocalDay on = std::chrono::floor<days>(local);
    const auto weeksBack = (day - on).count();
    if (weeksBack <= 0 || weeksBack > 7 * kAverageWeeks || weeksBack % 7 != 0) continue;
    sums[local - site::LocalTime(on)] += s.netCents;
    daysWithSales.insert(on);
  }
  const auto [dayStart, dayEnd] = dayBounds(zone, day);
  std::vector<ExpectedSales> out;
  if (daysWithSales.empty()) return out;
  const auto weeks = static_cast<std::int64_t>(daysWithSales.size());
  for (site::Instant t = dayStart; t < dayEnd; t += kIntervalLength) {
    auto it = sums.find(zone.toLocal(t) - site::LocalTime(day));
    if (it == sums.end()) continue;
    const std::int64_t sum = it->second;
    const std::int64_t average =
        sum >= 0 ? (2 * sum + weeks) / (2 * weeks) : -((-2 * sum + weeks) / (2 * weeks));
    out.push_back(ExpectedSales{t, average});
  }
  return out;
}

Result<std::vector<DayExpectation>> WeekdayAverageSales::expected(
    const std::vector<SalesInterval>& history, const site::TimeZone& zone, LocalDay first,
    int count) const {
  std::vector<DayExpectation> out;
  for (int d = 0; d < count; ++d) {
    auto day = weekdayAverage(history, zone, first + std::chrono::days(d));
    if (!day) return day.error();
    out.push_back(DayExpectation{kSource, std::move(*day)});
  }
  return out;
}

}  // namespace atoms::pos
