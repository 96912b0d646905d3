#include "drivers/pos/pos_order.h"

#include <charconv>

#include "base/name_table.h"
#include "base/timestamp.h"
#include "drivers/http/printable.h"

namespace atoms::drivers::pos {
namespace {

constexpr NameTable<OrderState, 3> kStateNames{{{OrderState::kCompleted, "completed"},
                                                {OrderState::kCanceled, "canceled"},
                                                {OrderState::kOpen, "open"}}};

bool posPrintableAscii(std::string_view s) {
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f) return false;
  }
  return true;
}

bool posCenterChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.' || c == ' ';
}

// Exactly `n` digits at s[pos]; nullopt otherwise.
std::optional<int> posDigitsAt(std::string_view s, std::size_t pos, std::size_t n) {
  if (pos + n > s.size()) return std::nullopt;
  int v = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

}  // namespace

std::string_view orderStateName(OrderState state) { return nameOf(kStateNames, state); }
std::optional<OrderState> parseOrderState(std::string_view name) {
  return fromName(kStateNames, name);
}

Status validateOrder(const PosOrder& o, const std::string& where) {
  auto bad = [&](const std::string& what) -> Status {
    return makeError(where + ": " + what, ErrorKind::kInvalid);
  };
  if (o.id.empty() || o.id.size() > kMaxOrderIdLength || !posPrintableAscii(o.id)) {
    return bad("order id '" + printable(o.id) + "' is not 1-128 printable ASCII characters");
  }
  if (o.revenueCenter.empty() || o.revenueCenter.size() > kMaxRevenueCenterLength) {
    return bad("revenue center '" + printable(o.revenueCenter) + "' is not 1-64 characters");
  }
  for (char c : o.revenueCenter) {
    if (!posCenterChar(c)) {
      return bad("revenue center '" + printable(o.revenueCenter) +
                 "' may hold only letters, digits, '-', '_', '.' and spaces");
    }
  }
  if (o.version < 0) return bad("version " + std::to_string(o.version) + " is negative");
  if (o.netCents < -kMaxOrderCents || o.netCents > kMaxOrderCents) {
    return bad("net amount " + std::to_string(o.netCents) + " cents is out of range");
  }
  if (o.returnedCents < 0 || o.returnedCents > kMaxOrderCents) {
    return bad("returned amount " + std::to_string(o.returnedCents) + " cents is out of range");
  }
  if (o.covers < 0 || o.covers > kMaxCovers) {
    return bad("covers " + std::to_string(o.covers) + " is out of range");
  }
  if (o.returnOf.size() > kMaxOrderIdLength || !posPrintableAscii(o.returnOf)) {
    return bad("returned order id '" + printable(o.returnOf) + "' is not printable ASCII");
  }
  if (o.returnOf.empty() && o.returnedCents != 0) {
    return bad("a returned amount without the order it returns from");
  }
  return Status::success();
}

std::string formatPosTime(PosTime t) { return formatTimestampMillis(t); }

std::optional<PosTime> parsePosTime(std::string_view s) {
  // YYYY-MM-DDTHH:MM:SS
  if (s.size() < 20 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != 't') ||
      s[13] != ':' || s[16] != ':') {
    return std::nullopt;
  }
  const auto year = posDigitsAt(s, 0, 4), month = posDigitsAt(s, 5, 2), day = posDigitsAt(s, 8, 2);
  const auto hour = posDigitsAt(s, 11, 2), minute = posDigitsAt(s, 14, 2),
             second = posDigitsAt(s, 17, 2);
  if (!year || !month || !day || !hour || !minute || !second) return std::nullopt;
  if (*year < 1970 || *hour > 23 || *minute > 59 || *second > 59) return std::nullopt;
  const std::chrono::year_month_day ymd{std::chrono::year(*year),
                                        std::chrono::month(static_cast<unsigned>(*month)),
                                        std::chrono::day(static_cast<unsigned>(*day))};
  if (!ymd.ok()) return std::nullopt;
  std::size_t pos = 19;
  std::int64_t millis = 0;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    std::size_t digits = 0;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (digits < 3) millis = millis * 10 + (s[pos] - '0');
      ++digits;
      ++pos;
    }
    if (digits == 0 || digits > 9) return std::nullopt;
    for (std::size_t d = digits; d < 3; ++d) millis *= 10;
  }
  if (pos >= s.size()) return std::nullopt;
  std::chrono::minutes offset{0};
  if (s[pos] == 'Z' || s[pos] == 'z') {
    ++pos;
  } else if (s[pos] == '+' || s[pos] == '-') {
    const bool minus = s[pos] == '-';
    const auto oh = posDigitsAt(s, pos + 1, 2), om = posDigitsAt(s, pos + 4, 2);
    if (!oh || !om || pos + 3 >= s.size() || s[pos + 3] != ':' || *oh > 23 || *om > 59) {
      return std::nullopt;
    }
    offset = std::chrono::minutes(*oh * 60 + *om);
    if (minus) offset = -offset;
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != s.size()) return std::nullopt;
  const auto local = std::chrono::sys_days(ymd) + std::chrono::hours(*hour) +
                     std::chrono::minutes(*minute) + std::chrono::seconds(*second);
  return PosTime(std::chrono::time_point_cast<std::chrono::milliseconds>(local - offset) +
                 std::chrono::milliseconds(millis));
}

std::optional<std::int64_t> parseCents(std::string_view s) {
  bool minus = false;
  if (!s.empty() && s.front() == '-') {
    minus = true;
    s.remove_prefix(1);
  }
  const std::size_t dot = s.find('.');
  const std::string_view whole = s.substr(0, dot);
  const std::string_view fraction = dot == std::string_view::npos ? "" : s.substr(dot + 1);
  if (whole.empty() || whole.size() > 12) return std::nullopt;
  if (dot != std::string_view::npos && (fraction.empty() || fraction.size() > 2)) {
    return std::nullopt;
  }
  std::int64_t units = 0;
  for (char c : whole) {
    if (c < '0' || c > '9') return std::nullopt;
    units = units * 10 + (c - '0');
  }
  std::int64_t cents = 0;
  for (char c : fraction) {
    if (c < '0' || c > '9') return std::nullopt;
    cents = cents * 10 + (c - '0');
  }
  if (fraction.size() == 1) cents *= 10;
  const std::int64_t total = units * 100 + cents;
  if (total > kMaxOrderCents) return std::nullopt;
  return minus ? -total : total;
}

}  // namespace atoms::drivers::pos
