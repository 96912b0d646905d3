// TimeZone: local wall-clock time <-> UTC for one IANA zone ("America/Los_Angeles"), from the OS
// tzdata (/usr/share/zoneinfo, through Howard Hinnant's date/tz library; GCC 12 has no
// std::chrono::tzdb).
//
// Contract:
// - A TimeZone is a cheap value (it points into the process-wide, immutable zone database that
//   date/tz loads once, thread-safely). Copyable; every method is const and thread-safe.
// - Errors are values: an unknown zone name, a local time that does not exist (the spring-forward
//   gap) or is ambiguous (the fall-back hour). Callers prefix the record they were reading.
// - No exception escapes: date/tz throws on unknown zones; the wrapper converts that.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace date {
class time_zone;
}

namespace atoms::site {

using Seconds = std::chrono::seconds;
using Instant = std::chrono::sys_seconds;      // a UTC instant
using LocalTime = std::chrono::local_seconds;  // a wall-clock time with no zone attached

// A clock's instant as the site model counts time: whole seconds, rounded down.
inline Instant toInstant(std::chrono::system_clock::time_point t) {
  return std::chrono::floor<Seconds>(t);
}

class TimeZone {
 public:
  // Looks the zone up by its IANA name. Error: "unknown time zone 'Mars/Olympus'".
  static Result<TimeZone> locate(std::string_view name);

  const std::string& name() const { return name_; }

  // The UTC instant of a wall-clock time. Errors name the time, e.g. "local time 2026-03-08T02:30
  // does not exist in America/Los_Angeles (clocks jump from -08:00 to -07:00)" or "... is
  // ambiguous in America/New_York (it occurs at -04:00 and at -05:00); give an explicit offset".
  Result<Instant> toUtc(LocalTime local) const;
  // The first UTC instant whose wall-clock time is `local` or later, always defined: `local`
  // itself when it occurs once, its first occurrence in the repeated hour (fall back), and the
  // instant the clocks jump when it falls in the gap (spring forward).
  Instant firstInstantFrom(LocalTime local) const;
  // The UTC instant local day `day` starts: its first instant. A day whose midnight falls in a
  // gap (zones that change at 00:00, e.g. America/Santiago) starts when the clocks jump, 01:00
  // local; one whose midnight is repeated starts at the first midnight. Day d runs
  // [startOfDay(d), startOfDay(d + 1)).
  Instant startOfDay(std::chrono::local_days day) const { return firstInstantFrom(LocalTime(day)); }
  // The wall-clock time of a UTC instant (always defined).
  LocalTime toLocal(Instant utc) const;
  // The UTC offset in force at an instant.
  Seconds offsetAt(Instant utc) const;
  // The same, with the span of UTC [begin, end) over which that offset holds, from one
  // transition to the next (far in the past or future where there is none): within it, local
  // time is utc + offset, which lets a caller converting many nearby times skip the lookup.
  struct OffsetPeriod {
    Seconds offset{0};
    Instant begin;
    Instant end;
  };
  OffsetPeriod offsetPeriodAt(Instant utc) const;
  // The offsets a wall-clock time may carry here: one for an ordinary time, two (earlier first)
  // for an ambiguous one, and for one in a gap the offsets before and after the jump. An explicit
  // offset in a site file must be one of these.
  std::vector<Seconds> offsetsFor(LocalTime local) const;

  friend bool operator==(const TimeZone& a, const TimeZone& b) { return a.zone_ == b.zone_; }

 private:
  TimeZone(const date::time_zone* zone, std::string name) : zone_(zone), name_(std::move(name)) {}
  const date::time_zone* zone_;
  std::string name_;
};

// "+05:30", "-08:00", "+00:00".
std::string formatOffset(Seconds offset);
// "2026-03-08T02:30:00" (seconds always written).
std::string formatLocal(LocalTime local);

}  // namespace atoms::site
