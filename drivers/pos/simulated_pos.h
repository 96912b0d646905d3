// SimulatedPos: the simulated twin of a POS that is polled (docs/pos.md "Simulated POS"), for the
// tests and `atoms-edge demo`. Deterministic: the orders are a pure function of the seed and the
// time, so every run of the demo and every test sees the same sales.
//
// Each site-local quarter hour gets a number of orders from a daily curve (closed at night, a
// lunch and a dinner peak, busier on Friday and Saturday) and the seed; each order gets a ticket
// around averageTicketCents, covers, a revenue center, and an update time a few seconds after its
// sale. Some are special, by their own draw: one in `voidEvery` is voided a few minutes later
// (version 2, canceled), one in `returnEvery` is followed by a return order an hour or two later
// linked to it, one in `lateEvery` reaches the feed hours late (an offline order, at most 72 h).
// fetch() answers the orders whose update time is in the window, in update order, pageSize a page.
//
// failNext() makes the next fetches fail as told (tests of the poller's backoff and halting).
// Threading: not thread-safe (one poller).
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "drivers/pos/order_feed.h"

namespace atoms::drivers::pos {

struct SimulatedPosOptions {
  std::uint64_t seed = 1;
  std::string source = "simulated";
  std::vector<std::string> revenueCenters{"dining", "bar"};
  std::chrono::minutes utcOffset{0};  // the site's offset: the curve is in local hours
  std::int64_t averageTicketCents = 2800;
  int peakOrdersPerQuarter = 14;
  int voidEvery = 60, returnEvery = 45, lateEvery = 80;
  std::size_t pageSize = 100;
};

class SimulatedPos final : public OrderFeed {
 public:
  explicit SimulatedPos(SimulatedPosOptions options = {});

  std::string source() const override { return options_.source; }
  std::variant<FeedPage, FeedError> fetch(const FeedQuery& query) override;

  // Every order version the POS holds with an update time in [from, to), in update order: what
  // the pages of fetch() add up to.
  std::vector<PosOrder> ordersUpdated(PosTime from, PosTime to) const;
  // The next `times` fetches fail with `error`.
  void failNext(FeedError error, int times = 1);
  int fetches() const { return fetches_; }

 private:
  void ordersOfQuarter(std::int64_t quarter, std::vector<PosOrder>& out) const;

  SimulatedPosOptions options_;
  std::deque<FeedError> failures_;
  int fetches_ = 0;
};

}  // namespace atoms::drivers::pos
