#include "domain/forecast/sales_history.h"

#include <algorithm>
#include <map>

namespace atoms::forecast {

std::vector<RevenueCenterHistory> historiesFromSales(const std::vector<pos::SalesInterval>& sales,
                                                     const site::TimeZone& zone) {
  std::map<std::string, std::map<std::chrono::local_seconds, DemandInterval>> byCenter;
  for (const pos::SalesInterval& s : sales) {
    const std::chrono::local_seconds local = zone.toLocal(s.start);
    DemandInterval& row = byCenter[s.revenueCenter][local];
    row.start = local;
    row.netSalesCents += s.netCents;
    row.transactions += s.transactions;
    row.covers += s.covers;
  }
  std::vector<RevenueCenterHistory> out;
  for (auto& [center, rows] : byCenter) {
    RevenueCenterHistory h;
    h.revenueCenter = center;
    h.intervals.reserve(rows.size());
    for (auto& [start, row] : rows) h.intervals.push_back(row);
    out.push_back(std::move(h));
  }
  return out;
}

std::chrono::sys_seconds utcOfDay(std::chrono::local_days day, const site::TimeZone& zone) {
  const std::chrono::local_seconds midnight{day};
  if (auto utc = zone.toUtc(midnight)) return *utc;
  const std::vector<site::Seconds> offsets = zone.offsetsFor(midnight);
  if (offsets.empty()) return std::chrono::sys_seconds{midnight.time_since_epoch()};
  const std::chrono::sys_seconds first{midnight.time_since_epoch() - offsets.front()};
  if (zone.toLocal(first) == midnight) return first;  // repeated: its first occurrence
  // In the gap: the instant the clocks jump, where the offset before it ends.
  const std::chrono::sys_seconds beforeJump{midnight.time_since_epoch() - offsets.back()};
  return zone.offsetPeriodAt(beforeJump).end;
}

Result<std::vector<RevenueCenterHistory>> readSalesHistory(Database& db, const site::TimeZone& zone,
                                                           std::chrono::local_days from,
                                                           std::chrono::local_days to) {
  auto sales = pos::salesIntervals(db, utcOfDay(from, zone), utcOfDay(to, zone));
  if (!sales) return sales.error();
  return historiesFromSales(*sales, zone);
}

}  // namespace atoms::forecast
