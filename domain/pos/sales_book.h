// SalesBook: the site's sales, stored per POS order and read back per 15-minute interval and
// revenue center (docs/pos.md, migration 25 "pos_sales"). It is the OrderSink of every POS driver.
//
// Storing (accept): one batch is one transaction with at most one audit entry:
// - an order is keyed by (source, order id): a new one is `stored`; a higher version `updated`
//   (its row replaced: a void, a correction, an open ticket closed); the same or a lower version a
//   `duplicate` (nothing changes), so a retried batch or an overlapping poll changes nothing;
// - the sale part of an order counts in the site-local 15-minute interval holding its close time,
//   however late the order arrives (offline orders reach Square's API up to 72 hours late);
// - the refund of a return counts, negative, in the interval and revenue center of the sale it
//   returns from when that sale is stored (when it arrives later, the return moves to it then);
//   otherwise in the return's own interval;
// - canceled and open orders count nothing (a void replaces what the earlier version counted);
// - the source's cursor and last successful contact are written in the same commit;
// - a batch that stored or updated anything adds ONE audit entry of kind `pos.import` (actor
//   `pos:<source>`; counts, the batch's description, the net change in cents, the cursor).
//   Duplicates only and empty polls add none.
// Invalid orders (validateOrder) refuse the whole batch with an error naming the order; nothing is
// stored, so a driver's parser is the place to drop what it cannot read.
//
// Reading (intervals): the sums per (interval, revenue center) over a UTC range, from the order
// rows themselves, so a correction is never counted twice.
//
// Threading: accept() and cursor() run their work through the StoreRunner (the engine thread in
// the daemon) and block until it is done; callable from any thread. The static functions are for
// the writer thread (or any connection for reads).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "domain/site/time_zone.h"
#include "drivers/pos/order_sink.h"
#include "store/site_store.h"
#include "store/store_runner.h"

namespace atoms::pos {

using drivers::pos::BatchOutcome;
using drivers::pos::OrderBatch;
using drivers::pos::PosOrder;
using drivers::pos::PosTime;
using TimePoint = std::chrono::system_clock::time_point;

inline constexpr std::chrono::minutes kIntervalLength{15};

// The UTC start of the site-local 15-minute interval holding `t` (exact for any UTC offset,
// including the :30 and :45 ones; across a DST change each interval is still 15 real minutes).
std::chrono::sys_seconds intervalStart(PosTime t, const site::TimeZone& zone);

struct SalesInterval {
  std::chrono::sys_seconds start;  // UTC; the interval is [start, start + 15 min)
  std::string revenueCenter;
  std::int64_t netCents = 0;      // sales less the refunds attributed here
  std::int64_t transactions = 0;  // completed sales (a pure return is none)
  std::int64_t covers = 0;
  friend bool operator==(const SalesInterval&, const SalesInterval&) = default;
};

// Stores one batch (see above) at `now`. Errors: an invalid order or source (nothing stored), SQL
// or audit failures. Writer thread.
Result<BatchOutcome> recordOrders(SiteStore& store, const OrderBatch& batch,
                                  const site::TimeZone& zone, TimePoint now);
// The intervals that have sales in [from, to), ordered by start then revenue center. Intervals
// without any order are absent.
Result<std::vector<SalesInterval>> salesIntervals(Database& db, std::chrono::sys_seconds from,
                                                  std::chrono::sys_seconds to);
// The source's cursor; nullopt when it has none yet.
Result<std::optional<std::string>> sourceCursor(Database& db, const std::string& source);
// When the source last handed over a batch (any batch, an empty poll included); nullopt: never.
Result<std::optional<TimePoint>> sourceLastContact(Database& db, const std::string& source);

// A source id: 1-64 of letters, digits, '-', '_', '.', ':'.
bool isValidSourceId(std::string_view source);

class SalesBook final : public drivers::pos::OrderSink {
 public:
  // runner and now must outlive the book; now must be thread-safe. The listener (may be empty)
  // runs on the writer after each commit that stored or updated orders.
  SalesBook(atoms::StoreRunner& runner, site::TimeZone zone, std::function<TimePoint()> now,
            std::function<void(const OrderBatch&, const BatchOutcome&)> listener = {});

  Result<BatchOutcome> accept(const OrderBatch& batch) override;
  Result<std::optional<std::string>> cursor(const std::string& source) override;
  const site::TimeZone& zone() const { return zone_; }

 private:
  atoms::StoreRunner& runner_;
  site::TimeZone zone_;
  std::function<TimePoint()> now_;
  std::function<void(const OrderBatch&, const BatchOutcome&)> listener_;
};

}  // namespace atoms::pos
