// The Square Orders API's wire format, as the poller uses it (docs/pos.md "Square"): the body of
// POST /v2/orders/search and the reading of its answer into PosOrders. Pure functions, no I/O, so
// the fuzz target drives exactly the code the poller runs.
//
// Request: {"location_ids":[...],"limit":N,"return_entries":false,"query":{"filter":{
//   "date_time_filter":{"updated_at":{"start_at":FROM,"end_at":TO}},"state_filter":{"states":
//   ["OPEN","COMPLETED","CANCELED"]}},"sort":{"sort_field":"UPDATED_AT","sort_order":"ASC"}},
//   "cursor":C} (cursor only after the first page; Square requires the same query with it).
//
// An order is read as:
// - id, location_id (the revenue center), version (1 when absent), state: COMPLETED counts,
//   CANCELED is a void, OPEN and DRAFT count nothing yet;
// - at: closed_at, else created_at; updatedAt: updated_at (required);
// - netCents: total_money less total_tax_money, total_tip_money and total_service_charge_money
//   (net sales: what the guests bought, without tax, tips and service charges);
// - a return: returns[].source_order_id (the first one names the sale) and returnedCents from
//   return_amounts the same way (total less tax, tip and service charge);
// - covers: 0 (Square orders carry no guest count).
// Money amounts are integers in the smallest unit (cents for USD); an order in another currency
// than `currency` is refused, naming it. Unknown fields are ignored (Square adds fields over time).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/canonical_json.h"
#include "base/result.h"
#include "drivers/pos/order_feed.h"
#include "drivers/pos/pos_order.h"

namespace atoms::drivers::pos::square {

inline constexpr std::string_view kSearchPath = "/v2/orders/search";
inline constexpr int kMaxLocations = 10;  // Square's limit per search
inline constexpr int kPageLimit = 500;    // Square's largest page
inline constexpr std::size_t kMaxReplyBytes = 16 * 1024 * 1024;

std::string searchRequestBody(const std::vector<std::string>& locationIds, const FeedQuery& query,
                              int limit);

// A 200 answer: its orders and its cursor. An error names the order by index and id and the field,
// e.g. "Square order 3 (id 'X9'): total_money.amount is not an integer".
Result<FeedPage> parseSearchResponse(std::string_view body, std::string_view currency = "USD");

// One order object (parseSearchResponse uses it for each).
Result<PosOrder> parseOrder(const json::Value& order, std::string_view currency,
                            const std::string& where);

// "UNAUTHORIZED: This request could not be authorized." from Square's {"errors":[{"category",
// "code","detail"}]}; "" when the body has none.
std::string describeErrors(std::string_view body);

}  // namespace atoms::drivers::pos::square
