#pragma once
// Decimal digits in fixed-width text fields: the dates, times and numbers of wire formats, site
// files and rule tables, which every reader checks character by character.

#include <cstddef>
#include <string>
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

// Writes `value` (0 <= value < 10^n) as exactly `n` digits, zero-padded, at out[0..n).
constexpr void writeDigits(char* out, int value, std::size_t n) {
  for (std::size_t i = n; i > 0; --i) {
    out[i - 1] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
}

// "YYYY-MM-DD" for a year of 0..9999 (the caller checks), without the cost of a printf.
inline std::string isoDate(int year, unsigned month, unsigned day) {
  std::string text(10, '-');
  writeDigits(text.data(), year, 4);
  writeDigits(text.data() + 5, static_cast<int>(month), 2);
  writeDigits(text.data() + 8, static_cast<int>(day), 2);
  return text;
}

// Days in `month` (1..12) of the Gregorian calendar's `year`.
constexpr int daysInMonth(int year, int month) {
  constexpr int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

}  // namespace atoms
