#include "sync/simulated_executor.h"

#include <algorithm>
#include <utility>

namespace atoms::sync {

SimulatedExecutor::SimulatedExecutor(SimulatedClock& clock) : clock_(clock) {}

bool SimulatedExecutor::post(Task task) {
  std::lock_guard lock(mutex_);
  if (stopped_) return false;
  queue_.push_back(std::move(task));
  return true;
}

void SimulatedExecutor::runAfter(std::chrono::milliseconds delay, Task task) {
  std::lock_guard lock(mutex_);
  if (stopped_) return;
  timers_.emplace(clock_.now() + delay, std::move(task));
}

SimulatedExecutor::Task SimulatedExecutor::takeReady() {
  std::lock_guard lock(mutex_);
  Task task;
  if (!timers_.empty() && timers_.begin()->first <= clock_.now()) {
    task = std::move(timers_.begin()->second);
    timers_.erase(timers_.begin());
  } else if (!queue_.empty()) {
    task = std::move(queue_.front());
    queue_.pop_front();
  }
  return task;
}

std::size_t SimulatedExecutor::runReady() {
  std::size_t ran = 0;
  // Tasks run on this thread until the loop ends, also when a task throws.
  struct Driving {
    std::atomic<std::thread::id>& on;
    ~Driving() { on = std::thread::id(); }
  } driving{runningOn_};
  runningOn_ = std::this_thread::get_id();
  while (Task task = takeReady()) {
    task();
    ++ran;
  }
  return ran;
}

std::size_t SimulatedExecutor::advance(std::chrono::milliseconds by) {
  const TimePoint until = clock_.now() + std::max(by, std::chrono::milliseconds(0));
  std::size_t ran = runReady();
  for (auto next = nextTimer(); next && *next <= until; next = nextTimer()) {
    if (*next > clock_.now()) clock_.set(*next);
    ran += runReady();
  }
  if (until > clock_.now()) clock_.set(until);
  return ran + runReady();
}

bool SimulatedExecutor::advanceToNextTimer() {
  runReady();
  const auto next = nextTimer();
  if (!next) return false;
  if (*next > clock_.now()) clock_.set(*next);
  runReady();
  return true;
}

std::optional<TimePoint> SimulatedExecutor::nextTimer() const {
  std::lock_guard lock(mutex_);
  if (timers_.empty()) return std::nullopt;
  return timers_.begin()->first;
}

std::size_t SimulatedExecutor::queued() const {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

std::size_t SimulatedExecutor::timers() const {
  std::lock_guard lock(mutex_);
  return timers_.size();
}

void SimulatedExecutor::stop() {
  std::deque<Task> queue;
  std::multimap<TimePoint, Task> timers;
  {
    std::lock_guard lock(mutex_);
    stopped_ = true;
    queue.swap(queue_);
    timers.swap(timers_);
  }
  // The tasks' captured state is destroyed here, outside the lock.
}

}  // namespace atoms::sync
