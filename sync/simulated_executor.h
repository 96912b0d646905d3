// SimulatedExecutor: a Writer (base/writer.h) without a thread of its own, on a SimulatedClock
// (base/clock.h). Nothing runs until its driver says so: runReady() runs what is queued and due
// now, advance() moves the clock and fires each timer at its own deadline. With SimulatedBroker
// (sync/simulated_mqtt.h) it runs the uplink, the ingest or a whole site's sync deterministically
// on one thread: the tests of the uplink without a broker, a simulation on simulated time.
//
// Order: as WorkerThread's: timers that are due run before queued tasks, queued tasks in posting
// order, timers with one deadline in the order they were set.
// onWriterThread() is true only inside a task it runs (on the driving thread).
// Threading: post() and onWriterThread() from any thread; runAfter(), runReady(), advance() and the
// queries on the driving thread (the owner thread of the objects it runs), never from a task. An
// exception escaping a task propagates out of runReady()/advance() to the driver (a test sees it
// fail).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "base/clock.h"
#include "base/writer.h"

namespace atoms::sync {

class SimulatedExecutor final : public Writer {
 public:
  // The clock must outlive the executor. Only the executor should move it while tasks are pending
  // (a test that sets it by hand gets the timers due by then at the next runReady()).
  explicit SimulatedExecutor(SimulatedClock& clock);
  SimulatedExecutor(const SimulatedExecutor&) = delete;
  SimulatedExecutor& operator=(const SimulatedExecutor&) = delete;

  bool post(Task task) override;
  bool onWriterThread() const override { return runningOn_.load() == std::this_thread::get_id(); }
  void runAfter(std::chrono::milliseconds delay, Task task) override;

  // Runs due timers and queued tasks, and whatever they queue or make due, until none is left.
  // The clock does not move. Returns how many tasks ran.
  std::size_t runReady();
  // Moves the clock forward by `by` (>= 0): each timer due within it fires with the clock at its
  // deadline, after everything due before it; ends with the clock at now + by and runReady().
  // Returns how many tasks ran.
  std::size_t advance(std::chrono::milliseconds by);
  // Runs everything ready, then moves the clock to the earliest timer and runs what is due then.
  // False (nothing done after runReady) when no timer is set.
  bool advanceToNextTimer();

  // The earliest timer's deadline, if any.
  std::optional<TimePoint> nextTimer() const;
  std::size_t queued() const;
  std::size_t timers() const;
  SimulatedClock& clock() const { return clock_; }

  // Drops every queued task and timer; post() refuses from then on. Idempotent.
  void stop();

 private:
  // The next task to run now (a due timer first, then the queue); empty when none.
  Task takeReady();

  SimulatedClock& clock_;
  mutable std::mutex mutex_;  // guards the fields below
  std::deque<Task> queue_;
  std::multimap<TimePoint, Task> timers_;
  bool stopped_ = false;
  // The driving thread while runReady() runs tasks; no thread otherwise.
  std::atomic<std::thread::id> runningOn_{};
};

}  // namespace atoms::sync
