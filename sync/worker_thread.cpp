#include "sync/worker_thread.h"

namespace atoms::sync {

WorkerThread::WorkerThread() : thread_([this] { loop(); }) {}

WorkerThread::~WorkerThread() { stop(); }

bool WorkerThread::post(Task task) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return false;
    queue_.push_back(std::move(task));
  }
  wake_.notify_one();
  return true;
}

void WorkerThread::runAfter(std::chrono::milliseconds delay, Task task) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    timers_.emplace(std::chrono::steady_clock::now() + delay, std::move(task));
  }
  wake_.notify_one();
}

void WorkerThread::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(mutex_);
  queue_.clear();
  timers_.clear();
}

void WorkerThread::loop() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    Task task;
    const auto now = std::chrono::steady_clock::now();
    if (!timers_.empty() && timers_.begin()->first <= now) {
      task = std::move(timers_.begin()->second);
      timers_.erase(timers_.begin());
    } else if (!queue_.empty()) {
      task = std::move(queue_.front());
      queue_.pop_front();
    } else if (!timers_.empty()) {
      wake_.wait_until(lock, timers_.begin()->first);
      continue;
    } else {
      wake_.wait(lock);
      continue;
    }
    lock.unlock();
    try {
      task();
    } catch (...) {
      ++failedTasks_;
    }
    task = nullptr;  // destroy captured state outside the lock, on this thread
    lock.lock();
  }
}

}  // namespace atoms::sync
