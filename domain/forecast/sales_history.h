// The demand history from the site's own sales (issue 19 item 4 fed by item 2): the sales book's
// 15-minute intervals (UTC starts, domain/pos/sales_book.h) laid out per revenue center on the
// site's wall clock, as the forecast reads them (demand_history.h).
//
// The sales book's intervals are the site's local quarter hours, so each one has a local start on
// a 15-minute boundary. On the night clocks go back, two real quarter hours share one wall-clock
// start; they are added together (the forecast counts wall-clock time, decision 0036). Pure
// conversions except readSalesHistory, which reads through the caller's connection.
#pragma once

#include <chrono>
#include <vector>

#include "base/result.h"
#include "domain/forecast/demand_history.h"
#include "domain/pos/sales_book.h"
#include "domain/site/time_zone.h"
#include "store/database.h"

namespace atoms::forecast {

// One history per revenue center, sorted by name; each center's intervals sorted by start.
std::vector<RevenueCenterHistory> historiesFromSales(const std::vector<pos::SalesInterval>& sales,
                                                     const site::TimeZone& zone);

// The sales of the local days [from, to) as histories (historiesFromSales). Errors: the store's.
Result<std::vector<RevenueCenterHistory>> readSalesHistory(Database& db, const site::TimeZone& zone,
                                                           std::chrono::local_days from,
                                                           std::chrono::local_days to);

}  // namespace atoms::forecast
