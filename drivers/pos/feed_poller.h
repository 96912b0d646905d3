// FeedPoller: one OrderFeed into one OrderSink with a durable cursor (docs/pos.md "Polling").
//
// pollOnce(now) is one poll: it reads the sink's cursor for the feed's source (the latest update
// time stored, "YYYY-MM-DDTHH:MM:SS.mmmZ"), asks the feed for the orders updated in
// [cursor - overlap, now) (or [now - firstLookback, now) without a cursor), page by page, and
// hands each page to the sink as one batch with the cursor advanced to the latest update time it
// holds (never backwards), and with the last page to the window's end. The overlap makes the next
// poll read again what changed near the edge, so an order whose update became visible late is
// caught; the sink drops what it has already (idempotent by order id and version). Offline orders
// that reach the provider late carry a late update time, so they fall inside the next window
// however old their sale is.
//
// What it returns is when to poll next:
// - after a complete poll: `interval`;
// - rate limited (429): the provider's Retry-After, else the backoff;
// - unavailable (5xx, network), an unreadable answer, or the sink failing: the backoff, doubling
//   from `interval` up to `maxBackoff` while the failures last (pages already stored stay stored);
// - credentials refused (401/403): nullopt, halted. Nothing is polled again; the status says so
//   until the poller is made again with a new configuration.
// Every poll ends with a SourceStatus to the listener.
//
// Threading: not thread-safe; one thread calls pollOnce (PollerThread, or the demo's engine).
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "drivers/pos/order_feed.h"
#include "drivers/pos/order_sink.h"
#include "drivers/pos/source_status.h"

namespace atoms::drivers::pos {

struct FeedPollerOptions {
  std::chrono::seconds interval{60};
  // Square: orders taken offline can reach the API up to 72 hours late; their update time is when
  // they arrived, so a few minutes cover the edge of the window.
  std::chrono::minutes overlap{10};
  std::chrono::seconds maxBackoff{15 * 60};
  // How far back the first poll (no cursor yet) reads.
  std::chrono::hours firstLookback{72};
  int maxPagesPerPoll = 200;  // a runaway cursor ends the poll (and is reported)
};

class FeedPoller {
 public:
  // feed and sink must outlive the poller.
  FeedPoller(OrderFeed& feed, OrderSink& sink, FeedPollerOptions options,
             SourceStatusListener listener = {});

  // One poll at `now` (see above); the delay until the next, nullopt when halted.
  std::optional<std::chrono::seconds> pollOnce(PosTime now);

  bool halted() const { return halted_; }
  const std::string& source() const { return source_; }
  // The last poll's problem; empty after a good poll.
  const std::string& lastError() const { return lastError_; }

 private:
  std::chrono::seconds failed(const std::string& message,
                              std::optional<std::chrono::seconds> retryAfter);
  void report(SourceStatus::Kind kind, const std::string& detail);

  OrderFeed& feed_;
  OrderSink& sink_;
  FeedPollerOptions options_;
  SourceStatusListener listener_;
  std::string source_;
  std::chrono::seconds backoff_{0};
  bool halted_ = false;
  std::string lastError_;
};

}  // namespace atoms::drivers::pos
