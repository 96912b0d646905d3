#include "drivers/pos/poll_thread.h"

namespace atoms::drivers::pos {

void PollThread::start() {
  if (thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stopping_ = false;
  }
  thread_ = std::thread([this] { run(); });
}

void PollThread::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void PollThread::run() {
  for (;;) {
    std::optional<std::chrono::seconds> next;
    try {
      next = step_();
    } catch (...) {
      next = afterError_;
    }
    if (!next) return;
    std::unique_lock lock(mutex_);
    if (wake_.wait_for(lock, *next, [this] { return stopping_; })) return;
  }
}

}  // namespace atoms::drivers::pos
