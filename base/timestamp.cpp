#include "base/timestamp.h"

#include <array>
#include <cstdio>

#include "base/digits.h"

namespace atoms {
namespace {}  // namespace

Status validateTimestamp(std::string_view ts) {
  // 0123456789012345678901234
  // YYYY-MM-DDTHH:MM:SS.mmmZ
  const auto bad = [&] {
    return makeError("timestamp \"" + std::string(ts.substr(0, 40)) +
                     "\" is not a UTC time YYYY-MM-DDTHH:MM:SS.mmmZ");
  };
  if (ts.size() != 24 || ts[4] != '-' || ts[7] != '-' || ts[10] != 'T' || ts[13] != ':' ||
      ts[16] != ':' || ts[19] != '.' || ts[23] != 'Z') {
    return bad();
  }
  const int year = readDigits(ts, 0, 4), month = readDigits(ts, 5, 2), day = readDigits(ts, 8, 2);
  const int hour = readDigits(ts, 11, 2), minute = readDigits(ts, 14, 2),
            second = readDigits(ts, 17, 2);
  const int milli = readDigits(ts, 20, 3);
  if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || minute < 0 || second < 0 ||
      milli < 0) {
    return bad();
  }
  if (day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) return bad();
  return Status::success();
}

std::string formatTimestamp(std::chrono::system_clock::time_point t) {
  return formatTimestampMillis(std::chrono::floor<std::chrono::milliseconds>(t));
}

std::string formatTimestampMillis(std::chrono::sys_time<std::chrono::milliseconds> ms) {
  using namespace std::chrono;
  const auto dayPoint = floor<days>(ms);
  const year_month_day ymd{dayPoint};
  const hh_mm_ss<milliseconds> tod{ms - dayPoint};
  std::array<char, 32> buf{};
  std::snprintf(buf.data(), buf.size(), "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ",
                static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                static_cast<unsigned>(ymd.day()), static_cast<int>(tod.hours().count()),
                static_cast<int>(tod.minutes().count()), static_cast<int>(tod.seconds().count()),
                static_cast<int>(tod.subseconds().count()));
  return std::string(buf.data());
}

}  // namespace atoms
