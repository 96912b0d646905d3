// OrderFeed: a POS that the box asks for its orders (docs/pos.md): the Square Orders API
// (square_feed.h) and the simulated POS (simulated_pos.h). The FeedPoller (feed_poller.h) asks it
// for the orders changed in a window of update times, page by page, and hands them to the sales
// book. The local push server and the CSV folder are the other way round: the POS sends, they
// hand each request or file to the same OrderSink.
//
// Threading: fetch() is called from one thread at a time (the poller's).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "drivers/pos/pos_order.h"

namespace atoms::drivers::pos {

// The orders changed in [from, to) by update time, oldest change first. `page` is empty for the
// first page and the previous page's `next` after it.
struct FeedQuery {
  PosTime from{};
  PosTime to{};
  std::string page;
};

struct FeedPage {
  std::vector<PosOrder> orders;  // in update order
  std::string next;              // empty: this was the last page
};

struct FeedError {
  enum class Kind {
    kRateLimited,  // try again after retryAfter (or the backoff)
    kUnavailable,  // the provider or the network failed: back off and try again
    kAuth,         // the credentials were refused (expired or revoked token): stop until fixed
    kInvalid,      // the provider's answer could not be read, or our request was refused
  };
  Kind kind = Kind::kUnavailable;
  std::string message;  // one line naming the provider and the status; never a token
  std::optional<std::chrono::seconds> retryAfter;
};

class OrderFeed {
 public:
  virtual ~OrderFeed() = default;
  // The source id the orders are stored under ("square", "simulated").
  virtual std::string source() const = 0;
  virtual std::variant<FeedPage, FeedError> fetch(const FeedQuery& query) = 0;
};

}  // namespace atoms::drivers::pos
