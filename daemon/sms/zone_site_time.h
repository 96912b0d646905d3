// ZoneSiteTime: the conversation layer's site clock (sms/conversation/site_time.h) over the site's
// IANA time zone (domain/site/time_zone.h), so quiet hours, daily caps and "one reply per number
// per day" follow the site's daylight saving time.
//
// Immutable after construction; every method is const and thread-safe.
#pragma once

#include "domain/site/time_zone.h"
#include "sms/conversation/site_time.h"

namespace atoms::sms_site {

class ZoneSiteTime final : public sms::conversation::SiteTime {
 public:
  explicit ZoneSiteTime(site::TimeZone zone) : zone_(std::move(zone)) {}

  std::chrono::local_seconds toLocal(std::chrono::sys_seconds utc) const override;
  // A time in the spring-forward gap maps to the end of the gap (the instant of the jump); an
  // ambiguous one (the fall-back hour) to its earlier occurrence.
  std::chrono::sys_seconds toUtc(std::chrono::local_seconds local) const override;

 private:
  site::TimeZone zone_;
};

}  // namespace atoms::sms_site
