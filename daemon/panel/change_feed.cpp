#include "daemon/panel/change_feed.h"

namespace atoms::panel {

void ChangeFeed::published(std::uint64_t size) {
  {
    std::lock_guard lock(mutex_);
    size_ = size;
  }
  changed_.notify_all();
}

std::uint64_t ChangeFeed::size() const {
  std::lock_guard lock(mutex_);
  return size_;
}

std::optional<std::uint64_t> ChangeFeed::waitPast(std::uint64_t seen,
                                                  std::chrono::steady_clock::time_point deadline) {
  std::unique_lock lock(mutex_);
  changed_.wait_until(lock, deadline, [&] { return closed_ || size_ != seen; });
  if (closed_) return std::nullopt;
  return size_;
}

bool ChangeFeed::pauseUntil(std::chrono::steady_clock::time_point deadline) {
  std::unique_lock lock(mutex_);
  changed_.wait_until(lock, deadline, [&] { return closed_; });
  return !closed_;
}

bool ChangeFeed::join() {
  std::lock_guard lock(mutex_);
  if (closed_ || streams_ >= maxStreams_) return false;
  ++streams_;
  return true;
}

void ChangeFeed::leave() {
  std::lock_guard lock(mutex_);
  --streams_;
}

void ChangeFeed::close() {
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }
  changed_.notify_all();
}

}  // namespace atoms::panel
