// EventLog<Event>: what a hook that servers call from their threads (onRefused...) was called
// with, in order, for tests to read back. hook() and events() are thread-safe; the log must
// outlive whatever holds the hook.
#pragma once

#include <functional>
#include <mutex>
#include <vector>

namespace atoms::testing {

template <class Event>
class EventLog {
 public:
  std::function<void(const Event&)> hook() {
    return [this](const Event& e) {
      std::lock_guard lock(mutex_);
      events_.push_back(e);
    };
  }
  std::vector<Event> events() const {
    std::lock_guard lock(mutex_);
    return events_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<Event> events_;
};

}  // namespace atoms::testing
