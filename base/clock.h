// Clock: the only source of "now" for the engine and the domain (DESIGN.md section 2: the clock is
// injected, domain code never reads the system time itself). Time is UTC.
//
// SystemClock follows std::chrono::system_clock. SimulatedClock moves only when told (set, advance)
// and then tells its listeners, which is how an Engine on simulated time learns that timers may be
// due. Both are thread-safe: now() may be called from any thread while another advances the clock.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>

#include "base/time_point.h"

namespace atoms {

class Clock {
 public:
  using ListenerId = std::uint64_t;

  virtual ~Clock() = default;

  virtual TimePoint now() const = 0;

  // True when now() is std::chrono::system_clock::now(): a waiter may then sleep until a deadline.
  // False when time moves only by explicit changes, which are announced to listeners instead.
  virtual bool followsSystemTime() const = 0;

  // Registers a function called, on the thread that changed the time, after each change. Listeners
  // must be quick and must not call back into the clock. A clock that follows system time never
  // calls them. removeListener() returns only once the listener is no longer running, so the
  // listener's owner may be destroyed right after.
  virtual ListenerId addListener(std::function<void()> onChange) = 0;
  virtual void removeListener(ListenerId id) = 0;
};

class SystemClock final : public Clock {
 public:
  TimePoint now() const override { return std::chrono::system_clock::now(); }
  bool followsSystemTime() const override { return true; }
  ListenerId addListener(std::function<void()> onChange) override;
  void removeListener(ListenerId id) override;

 private:
  std::atomic<ListenerId> nextId_{1};
};

// Starts at the given time (the Unix epoch by default). set() may move time backwards (a test
// that does so gets timers that wait longer); advance() only moves it forwards.
class SimulatedClock final : public Clock {
 public:
  explicit SimulatedClock(TimePoint start = TimePoint{});

  TimePoint now() const override;
  bool followsSystemTime() const override { return false; }
  ListenerId addListener(std::function<void()> onChange) override;
  void removeListener(ListenerId id) override;

  void set(TimePoint t);
  // Precondition: by >= 0.
  void advance(std::chrono::system_clock::duration by);

 private:
  // Listeners run under mutex_, so removeListener() waits out a running notification.
  void notifyLocked();

  // Atomic so that now() never takes mutex_: a listener (which runs under mutex_) may lock its
  // owner's mutex, and that owner may read now() while holding it.
  std::atomic<TimePoint::rep> ticks_;
  std::mutex mutex_;
  std::map<ListenerId, std::function<void()>> listeners_;
  ListenerId nextId_ = 1;
};

}  // namespace atoms
