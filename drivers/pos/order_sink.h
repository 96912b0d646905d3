// OrderSink: where every POS driver hands its orders (docs/pos.md). One call is one import batch:
// it is stored, with its audit entry and the source's cursor, in one commit, or not at all.
//
// The sales book (domain/pos/sales_book.h) is the sink of `atoms-edge serve` and the demo; tests
// may use their own. Drivers call it from their own threads: an implementation must be
// thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "drivers/pos/pos_order.h"

namespace atoms::drivers::pos {

enum class OrderOutcome {
  kStored,     // new
  kUpdated,    // a higher version replaced the stored one
  kDuplicate,  // this version (or a later one) is stored already: nothing changed
};
std::string_view orderOutcomeName(OrderOutcome outcome);  // "stored", "updated", "duplicate"

struct OrderBatch {
  std::string source;  // "square", "push:register-1", "csv:back-office", "simulated"
  std::vector<PosOrder> orders;
  // The source's durable cursor after this batch (the poller's; empty: leave it as it is).
  std::optional<std::string> cursor;
  std::string what;  // one line for the audit entry: "poll 2026-11-30T16:00Z..16:05Z", a file name
};

struct BatchOutcome {
  std::vector<OrderOutcome> outcomes;  // one per order, in batch order
  std::int64_t stored = 0, updated = 0, duplicates = 0;
};

class OrderSink {
 public:
  virtual ~OrderSink() = default;
  // Stores the batch (see above). An error when nothing was stored: the driver keeps the batch
  // (or its cursor) and tries again.
  virtual Result<BatchOutcome> accept(const OrderBatch& batch) = 0;
  // The source's durable cursor, as the last accepted batch left it; nullopt before any.
  virtual Result<std::optional<std::string>> cursor(const std::string& source) = 0;
};

}  // namespace atoms::drivers::pos
