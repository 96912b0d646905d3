#include "daemon/panel/throttle.h"

#include <algorithm>

namespace atoms::panel {

std::chrono::minutes throttleDelay(int failures) {
  if (failures <= kFreeFailures) return std::chrono::minutes(0);
  const int doublings = std::min(failures - kFreeFailures - 1, 16);
  return std::min(kLongestWait, kFirstWait * (1 << doublings));
}

std::optional<TimePoint> AddressThrottle::waitUntil(std::string_view address, TimePoint now) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(address);
  if (it == entries_.end() || it->second.nextTry <= now) return std::nullopt;
  return it->second.nextTry;
}

std::optional<TimePoint> AddressThrottle::recordFailure(std::string_view address, TimePoint now) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(address);
  if (it == entries_.end()) {
    makeRoomLocked(now);
    it = entries_.emplace(std::string(address), Entry{}).first;
  }
  Entry& e = it->second;
  e.failures += 1;
  const auto delay = throttleDelay(e.failures);
  if (delay.count() == 0) return std::nullopt;
  e.nextTry = now + delay;
  return e.nextTry;
}

void AddressThrottle::recordSuccess(std::string_view address) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(address);
  if (it != entries_.end()) entries_.erase(it);
}

void AddressThrottle::makeRoomLocked(TimePoint now) {
  if (entries_.size() < capacity_) return;
  for (auto it = entries_.begin(); it != entries_.end();) {
    it = it->second.nextTry <= now ? entries_.erase(it) : std::next(it);
  }
  // Every remembered address is waiting: forget one rather than grow without bound.
  if (entries_.size() >= capacity_ && !entries_.empty()) entries_.erase(entries_.begin());
}

}  // namespace atoms::panel
