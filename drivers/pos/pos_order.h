// PosOrder: one sale, return or void as every POS driver hands it over (docs/pos.md), after the
// driver has read the provider's own format. Money is integer cents (net of tax, tips and service
// charges); times are UTC with milliseconds. Nothing here knows the store.
//
// A return is a separate order linked to the sale it returns (Square models returns that way): its
// refund lands in the sale's interval (docs/decisions/0030-pos-sales-attribution.md). An order can
// be sent again with a higher version (a correction, a void); the same or a lower version is a
// duplicate.
//
// Pure values and functions; thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace atoms::drivers::pos {

using PosTime = std::chrono::sys_time<std::chrono::milliseconds>;

inline constexpr std::size_t kMaxOrderIdLength = 128;
inline constexpr std::size_t kMaxRevenueCenterLength = 64;
// The revenue center of an order that names none.
inline constexpr std::string_view kDefaultRevenueCenter = "main";
// Largest magnitude of one order's amount: $10 million, far beyond any ticket, well inside JSON's
// safe integers even when summed over years of intervals.
inline constexpr std::int64_t kMaxOrderCents = 1'000'000'000;
inline constexpr std::int64_t kMaxCovers = 10'000;

enum class OrderState {
  kCompleted,  // a sale (or return) that counts
  kCanceled,   // voided: counts nothing, replaces what an earlier version counted
  kOpen,       // not closed yet: counts nothing until a later version completes it
};
std::string_view orderStateName(OrderState state);  // "completed", "canceled", "open"
std::optional<OrderState> parseOrderState(std::string_view name);

struct PosOrder {
  std::string id;            // the POS's order id: unique within one source
  std::int64_t version = 1;  // higher replaces lower; the same is a duplicate
  OrderState state = OrderState::kCompleted;
  std::string revenueCenter = std::string(kDefaultRevenueCenter);
  PosTime at{};               // when the sale closed (created when never closed)
  PosTime updatedAt{};        // the provider's last change (the poll cursor follows it)
  std::int64_t netCents = 0;  // the sale part: net sales of this order (>= 0 for a sale)
  std::int64_t covers = 0;    // guests served; 0 when the POS does not say
  // The sale this order returns from (empty for a plain sale), and the net amount refunded (>= 0;
  // it is subtracted in the sale's interval).
  std::string returnOf;
  std::int64_t returnedCents = 0;
  friend bool operator==(const PosOrder&, const PosOrder&) = default;
};

// Checks the ranges above: id 1-128 printable ASCII, revenue center 1-64 of letters, digits,
// '-', '_', '.', ' ', amounts within kMaxOrderCents, covers within kMaxCovers, version >= 0,
// returnedCents >= 0. The error starts with `where`.
Status validateOrder(const PosOrder& order, const std::string& where);

// "YYYY-MM-DDTHH:MM:SS.mmmZ".
std::string formatPosTime(PosTime t);
// RFC 3339 with a 'Z' or a numeric offset and 0-9 fraction digits (kept to milliseconds), e.g.
// "2026-11-30T16:58:03Z", "2026-11-30T16:58:03.123456Z", "2026-11-30T08:58:03-08:00"; nullopt
// for anything else, an impossible date included. Years 1970-9999.
std::optional<PosTime> parsePosTime(std::string_view text);

// Whole cents from a decimal text: "12", "12.5", "12.50", "-3.99", "$1,234.56" is refused (no
// symbols, no separators); more than two fraction digits are refused. nullopt when not a number
// or beyond kMaxOrderCents.
std::optional<std::int64_t> parseCents(std::string_view text);

}  // namespace atoms::drivers::pos
