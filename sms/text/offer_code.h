// Short numeric codes that identify a shift offer in a text message: "Reply 4821 to take it".
// A code, not YES, because carriers read a bare YES as re-subscribe (keywords.h).
//
// A code is kOfferCodeDigits digits and is chosen so it cannot be mistaken for something else a
// person writes in a reply about a shift: never a leading zero (dropped by some keyboards and
// spreadsheets), never a 24-hour time (0000-2359: "I can come at 1830"), never a year (1900-2099),
// never four equal digits or a straight run (3456, 6543: typed by accident or as a test), and never
// one of the caller's codes to avoid (the person's other open offers, recently used ones).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "base/result.h"

namespace atoms::sms {

inline constexpr int kOfferCodeDigits = 4;

// A uniformly random 32-bit value per call: libsodium's randombytes_random in production, a fixed
// sequence in tests.
using RandomSource = std::function<std::uint32_t()>;

// True when `code` is one makeOfferCode() could return (ignoring the avoid list).
bool isUsableOfferCode(std::string_view code);

// A fresh code, uniformly chosen among the usable ones not in `avoid`. Error only when `avoid`
// leaves none (thousands of open offers to one person: a caller bug).
Result<std::string> makeOfferCode(const RandomSource& random, std::span<const std::string> avoid);

}  // namespace atoms::sms
