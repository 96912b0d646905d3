#include "base/clock.h"

#include <cassert>
#include <utility>

namespace atoms {

// Real time moves by itself; nobody is told, so there is nothing to keep.
Clock::ListenerId SystemClock::addListener(std::function<void()> /*onChange*/) {
  return nextId_.fetch_add(1);
}

void SystemClock::removeListener(ListenerId /*id*/) {}

SimulatedClock::SimulatedClock(TimePoint start) : ticks_(start.time_since_epoch().count()) {}

TimePoint SimulatedClock::now() const {
  return TimePoint(TimePoint::duration(ticks_.load(std::memory_order_acquire)));
}

Clock::ListenerId SimulatedClock::addListener(std::function<void()> onChange) {
  std::lock_guard<std::mutex> lock(mutex_);
  ListenerId id = nextId_++;
  listeners_.emplace(id, std::move(onChange));
  return id;
}

void SimulatedClock::removeListener(ListenerId id) {
  std::lock_guard<std::mutex> lock(mutex_);
  listeners_.erase(id);
}

void SimulatedClock::set(TimePoint t) {
  std::lock_guard<std::mutex> lock(mutex_);
  ticks_.store(t.time_since_epoch().count(), std::memory_order_release);
  notifyLocked();
}

void SimulatedClock::advance(std::chrono::system_clock::duration by) {
  assert(by.count() >= 0);
  if (by.count() < 0) return;
  std::lock_guard<std::mutex> lock(mutex_);
  // Read and write under mutex_ so concurrent advances add up.
  ticks_.store(ticks_.load(std::memory_order_relaxed) + by.count(), std::memory_order_release);
  notifyLocked();
}

void SimulatedClock::notifyLocked() {
  for (auto& entry : listeners_) entry.second();
}

}  // namespace atoms
