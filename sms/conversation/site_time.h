// The site's wall clock: quiet hours, daily caps and "one reply per number per day" are counted in
// the site's local time (DESIGN.md section 2: the clock is injected; the time zone is the site's).
// sms/ may not depend on daemon/, so the daemon adapts its site::TimeZone to this interface; tests
// and tools without a zone database use FixedOffsetSiteTime.
//
// Threading: implementations are immutable or synchronise themselves; calls are const and quick.
#pragma once

#include <chrono>

namespace atoms::sms::conversation {

class SiteTime {
 public:
  virtual ~SiteTime() = default;
  // The wall-clock time at the site at a UTC instant.
  virtual std::chrono::local_seconds toLocal(std::chrono::sys_seconds utc) const = 0;
  // The first instant whose local time is at or after `local`: a time in a spring-forward gap maps
  // to the end of the gap, an ambiguous one (the fall-back hour) to its earlier occurrence. Used
  // for "hold until 08:00", where a message must never go out before the local time named.
  virtual std::chrono::sys_seconds toUtc(std::chrono::local_seconds local) const = 0;
};

// A constant UTC offset (no daylight saving time).
class FixedOffsetSiteTime final : public SiteTime {
 public:
  explicit FixedOffsetSiteTime(std::chrono::seconds offset) : offset_(offset) {}
  std::chrono::local_seconds toLocal(std::chrono::sys_seconds utc) const override {
    return std::chrono::local_seconds{utc.time_since_epoch() + offset_};
  }
  std::chrono::sys_seconds toUtc(std::chrono::local_seconds local) const override {
    return std::chrono::sys_seconds{local.time_since_epoch() - offset_};
  }

 private:
  std::chrono::seconds offset_;
};

}  // namespace atoms::sms::conversation
