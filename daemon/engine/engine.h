// Engine: the one thread that owns the site state (DESIGN.md section 2), the service's Writer
// (base/writer.h). Other threads hand it work with post(); it runs posted events one at a time in
// the order they were posted, and fires timers on the injected Clock in deadline order (ties in
// scheduling order). Domain code running on the engine thread needs no locks.
//
// Threading: post(), onWriterThread() and drain() may be called from any thread; schedule(),
// runAfter(), cancel() only from the engine thread (or before start()); start()/stop() from the
// owning thread, never from an event. Waiting: on a clock that follows system time the thread
// sleeps until the next deadline or a post; on a SimulatedClock it sleeps until a post or a change
// of the clock, then fires every timer due, each seeing now() = the clock's time. Due timers run
// before queued events, so after clock.advance(d), drain() returns only once every timer due by
// then has fired. Errors: an exception escaping an event or timer is caught at the event boundary
// and logged; the engine goes on with the next one.
#pragma once

#include <Poco/Logger.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

#include "base/clock.h"
#include "base/writer.h"

namespace atoms {

class Engine final : public Writer {
 public:
  using Event = Task;
  using TimerId = std::uint64_t;  // never 0

  // clock and logger must outlive the engine.
  Engine(Clock& clock, Poco::Logger& logger);
  // Stops and joins if still running.
  ~Engine() override;
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Starts the thread. Events posted before start() run first, in order. Call once.
  void start();

  // Refuses further posts, lets the running event finish, drops the events still queued (their
  // inputs are in the store: store first, then act), fires no more timers, and joins. Idempotent.
  // Called from an event it only asks the thread to end; the owner's stop() or the destructor
  // joins.
  void stop();

  // Queues ev to run on the engine thread. False (and ev dropped) once stop() has begun.
  bool post(Event ev) override;

  // Engine thread only. Runs fn once now() >= at; a deadline already past fires at the next turn.
  TimerId schedule(TimePoint at, Event fn);
  // Engine thread only. True when the timer was pending and will now never fire.
  bool cancel(TimerId id);
  // Engine thread only. schedule(clock().now() + delay, fn), the timer not cancellable.
  void runAfter(std::chrono::milliseconds delay, Task fn) override {
    schedule(clock_.now() + delay, std::move(fn));
  }

  // Test helper: posts a marker and waits up to deadline (real time) for the engine to reach it,
  // i.e. for every event posted and every timer due before the call to have run. False on timeout
  // or when stopped. Never call it from the engine thread.
  bool drain(std::chrono::milliseconds deadline);

  const Clock& clock() const { return clock_; }
  bool onWriterThread() const override { return std::this_thread::get_id() == threadId_.load(); }

 private:
  void threadMain();
  void loop();
  // Engine thread: pops and runs the earliest timer if it is due. False when none is.
  bool fireDueTimer();
  void runGuarded(Event& ev, const char* what);

  Clock& clock_;
  Poco::Logger& logger_;
  Clock::ListenerId listenerId_ = 0;

  // Engine thread only (and the owning thread before start()).
  std::map<std::pair<TimePoint, TimerId>, Event> timers_;
  std::map<TimerId, TimePoint> timerDeadlines_;
  TimerId nextTimerId_ = 1;

  std::mutex mutex_;  // guards the fields below
  std::condition_variable wake_;
  std::condition_variable drained_;
  std::deque<Event> queue_;
  bool clockChanged_ = false;
  bool stopping_ = false;
  bool started_ = false;

  std::thread thread_;
  // Set by the engine thread itself before it runs anything; read from any thread.
  std::atomic<std::thread::id> threadId_{};
};

}  // namespace atoms
