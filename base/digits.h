#pragma once
// Decimal digits in fixed-width text fields: the dates, times and numbers of wire formats, site
// files and rule tables, which every reader checks character by character.

#include <cstddef>
#include <string_view>

namespace atoms {

constexpr bool isDigit(char c) { return c >= '0' && c <= '9'; }

// The value of the `n` digits at s[pos..]; -1 when the field runs past the end of `s` or holds
// anything but a digit.
constexpr int readDigits(std::string_view s, std::size_t pos, std::size_t n) {
  if (pos > s.size() || n > s.size() - pos) return -1;
  int value = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (!isDigit(s[i])) return -1;
    value = value * 10 + (s[i] - '0');
  }
  return value;
}

// Days in `month` (1..12) of the Gregorian calendar's `year`.
constexpr int daysInMonth(int year, int month) {
  constexpr int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

}  // namespace atoms
