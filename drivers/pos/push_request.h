// The local push protocol (docs/pos.md "Local push"): what an on-site POS POSTs to /v1/pos/orders
// and what it is answered. Parsing is strict and decided without I/O, so the fuzz target drives
// exactly the code the server runs.
//
// Request body (JSON, at most kMaxPushBytes):
//   {"pos":"register-1","orders":[{"id":"T-1001","closed_at":"2026-11-30T19:05:00Z",
//    "net_cents":1250,"covers":2,"revenue_center":"bar","version":1,"state":"completed",
//    "return_of":"T-0999","returned_cents":300,"updated_at":"..."}]}
// - pos: the POS's id (1-64 letters, digits, '-', '_', '.'), the one its token belongs to;
// - orders: 1 to kMaxOrdersPerPush; id, closed_at and net_cents required; the others optional
//   (version 1, state "completed", revenue center "main", covers 0, updated_at = closed_at);
//   state is completed, canceled or open; times RFC 3339; amounts integer cents;
// - no other fields (a typo is refused, never ignored).
// An error is one line naming the field and index: "orders[2].net_cents: '12.50' is not an
// integer number of cents".
//
// Answer to a stored request (200): {"pos":"register-1","results":[{"id":"T-1001","outcome":
// "stored"}]}, one per order in request order: stored, updated or duplicate.
//
// Pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "drivers/pos/order_sink.h"
#include "drivers/pos/pos_order.h"

namespace atoms::drivers::pos {

inline constexpr std::string_view kPushPath = "/v1/pos/orders";
inline constexpr std::size_t kMaxPushBytes = 1024 * 1024;
inline constexpr std::size_t kMaxOrdersPerPush = 500;

struct PushRequest {
  std::string pos;
  std::vector<PosOrder> orders;
};

Result<PushRequest> parsePushRequest(std::string_view body);
// The request body for a batch (what a test or the simulated register sends).
std::string encodePushRequest(const PushRequest& request);
std::string encodePushResponse(const std::string& pos, const std::vector<PosOrder>& orders,
                               const std::vector<OrderOutcome>& outcomes);

}  // namespace atoms::drivers::pos
