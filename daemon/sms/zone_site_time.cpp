#include "daemon/sms/zone_site_time.h"

#include <algorithm>
#include <vector>

namespace atoms::sms_site {

std::chrono::local_seconds ZoneSiteTime::toLocal(std::chrono::sys_seconds utc) const {
  return zone_.toLocal(utc);
}

std::chrono::sys_seconds ZoneSiteTime::toUtc(std::chrono::local_seconds local) const {
  if (Result<site::Instant> exact = zone_.toUtc(local); exact.ok()) return exact.value();
  const std::vector<site::Seconds> offsets = zone_.offsetsFor(local);
  // Ambiguous: every offset gives an instant that reads back as `local`; take the earliest.
  std::vector<std::chrono::sys_seconds> readsBack;
  for (const site::Seconds offset : offsets) {
    const std::chrono::sys_seconds candidate{local.time_since_epoch() - offset};
    if (zone_.toLocal(candidate) == local) readsBack.push_back(candidate);
  }
  if (!readsBack.empty()) return *std::min_element(readsBack.begin(), readsBack.end());
  if (offsets.empty()) return std::chrono::sys_seconds{local.time_since_epoch()};
  // In a gap: the jump lies between the instants the two offsets give. Find the first instant
  // whose wall-clock time is past `local` (the end of the gap), to the second.
  const auto [minOffset, maxOffset] = std::minmax_element(offsets.begin(), offsets.end());
  std::chrono::sys_seconds lo{local.time_since_epoch() - *maxOffset};  // reads before `local`
  std::chrono::sys_seconds hi{local.time_since_epoch() - *minOffset};  // reads after `local`
  while (hi - lo > std::chrono::seconds(1)) {
    const std::chrono::sys_seconds mid = lo + (hi - lo) / 2;
    if (zone_.toLocal(mid) < local) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return hi;
}

}  // namespace atoms::sms_site
