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

Result<std::vector<RevenueCenterHistory>> readSalesHistory(Database& db, const site::TimeZone& zone,
                                                           std::chrono::local_days from,
                                                           std::chrono::local_days to) {
  auto sales = pos::salesIntervals(db, zone.startOfDay(from), zone.startOfDay(to));
  if (!sales) return sales.error();
  return historiesFromSales(*sales, zone);
}

}  // namespace atoms::forecast
