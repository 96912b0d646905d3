#include "daemon/engine/engine.h"

#include <exception>
#include <memory>

#include "daemon/log/log.h"

namespace atoms {

Engine::Engine(Clock& clock, Poco::Logger& logger) : clock_(clock), logger_(logger) {
  listenerId_ = clock_.addListener([this] {
    std::lock_guard<std::mutex> lock(mutex_);
    clockChanged_ = true;
    wake_.notify_all();
  });
}

Engine::~Engine() {
  // First, so no clock change can reach this object while it is being torn down.
  clock_.removeListener(listenerId_);
  stop();
  if (thread_.joinable()) thread_.join();
}

void Engine::start() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (started_ || stopping_) return;
  started_ = true;
  thread_ = std::thread([this] { threadMain(); });
}

void Engine::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    wake_.notify_all();
    drained_.notify_all();
  }
  if (onWriterThread()) return;  // joining itself would deadlock
  if (thread_.joinable()) thread_.join();
}

bool Engine::post(Event ev) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (stopping_) return false;
  queue_.push_back(std::move(ev));
  wake_.notify_one();
  return true;
}

Engine::TimerId Engine::schedule(TimePoint at, Event fn) {
  TimerId id = nextTimerId_++;
  timers_.emplace(std::make_pair(at, id), std::move(fn));
  timerDeadlines_.emplace(id, at);
  return id;
}

bool Engine::cancel(TimerId id) {
  auto it = timerDeadlines_.find(id);
  if (it == timerDeadlines_.end()) return false;
  timers_.erase(std::make_pair(it->second, id));
  timerDeadlines_.erase(it);
  return true;
}

bool Engine::drain(std::chrono::milliseconds deadline) {
  // Shared so a marker that runs after a timed-out wait still has somewhere to write.
  auto reached = std::make_shared<bool>(false);
  bool posted = post([this, reached] {
    std::lock_guard<std::mutex> lock(mutex_);
    *reached = true;
    drained_.notify_all();
  });
  if (!posted) return false;
  std::unique_lock<std::mutex> lock(mutex_);
  return drained_.wait_for(lock, deadline, [&] { return *reached || stopping_; }) && *reached;
}

void Engine::threadMain() {
  threadId_.store(std::this_thread::get_id());
  try {
    loop();
  } catch (const std::exception& e) {
    logFatal(logger_, "engine thread ended by an exception", {{"error", e.what()}});
  } catch (...) {
    logFatal(logger_, "engine thread ended by an unknown exception");
  }
}

void Engine::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    lock.unlock();
    bool fired = fireDueTimer();
    lock.lock();
    if (fired) continue;
    if (!queue_.empty()) {
      Event ev = std::move(queue_.front());
      queue_.pop_front();
      lock.unlock();
      runGuarded(ev, "event");
      lock.lock();
      continue;
    }
    if (clockChanged_) {  // the clock moved since the timers were checked: check again
      clockChanged_ = false;
      continue;
    }
    if (stopping_) break;
    if (!timers_.empty() && clock_.followsSystemTime()) {
      // An absolute system_clock deadline also honours wall-clock steps (NTP at boot).
      wake_.wait_until(lock, timers_.begin()->first.first);
    } else {
      wake_.wait(lock);
    }
  }
  std::deque<Event> dropped;
  dropped.swap(queue_);
  lock.unlock();  // dropped events' captures may post or log while being destroyed
  if (!dropped.empty()) {
    logInfo(logger_, "dropped queued events at stop", {{"count", dropped.size()}});
  }
}

bool Engine::fireDueTimer() {
  if (timers_.empty()) return false;
  auto first = timers_.begin();
  if (first->first.first > clock_.now()) return false;
  Event fn = std::move(first->second);
  timerDeadlines_.erase(first->first.second);
  timers_.erase(first);
  runGuarded(fn, "timer");
  return true;
}

void Engine::runGuarded(Event& ev, const char* what) {
  try {
    ev();
  } catch (const std::exception& e) {
    logError(logger_, "event failed", {{"kind", what}, {"error", e.what()}});
  } catch (...) {
    logError(logger_, "event failed", {{"kind", what}, {"error", "unknown exception"}});
  }
}

}  // namespace atoms
