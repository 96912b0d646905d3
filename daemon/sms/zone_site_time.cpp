#include "daemon/sms/zone_site_time.h"

namespace atoms::sms_site {

std::chrono::local_seconds ZoneSiteTime::toLocal(std::chrono::sys_seconds utc) const {
  return zone_.toLocal(utc);
}

std::chrono::sys_seconds ZoneSiteTime::toUtc(std::chrono::local_seconds local) const {
  return zone_.firstInstantFrom(local);
}

}  // namespace atoms::sms_site
