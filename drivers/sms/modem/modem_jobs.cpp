#include "drivers/sms/modem/modem_jobs.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>

namespace atoms::drivers::modem {

JobQueue::JobQueue() : wakeFd_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {}

JobQueue::~JobQueue() {
  if (wakeFd_ >= 0) ::close(wakeFd_);
}

bool JobQueue::open() {
  std::lock_guard lock(mutex_);
  if (running_) return false;
  running_ = true;
  stopping_ = false;
  return true;
}

bool JobQueue::beginStop() {
  {
    std::lock_guard lock(mutex_);
    if (!running_) return false;
    stopping_ = true;
  }
  wake();
  return true;
}

void JobQueue::closed() {
  {
    std::lock_guard lock(mutex_);
    running_ = false;
  }
  changed_.notify_all();
}

bool JobQueue::push(const std::shared_ptr<ModemJob>& job) {
  {
    std::lock_guard lock(mutex_);
    if (!running_ || stopping_) return false;
    jobs_.push_back(job);
  }
  wake();
  return true;
}

bool JobQueue::waitTaken(const std::shared_ptr<ModemJob>& job, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  if (changed_.wait_for(lock, timeout, [&] { return job->done || job->started; })) return true;
  std::erase(jobs_, job);
  return false;
}

void JobQueue::waitDone(const ModemJob& job) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return job.done; });
}

bool JobQueue::stopping() const {
  std::lock_guard lock(mutex_);
  return stopping_;
}

bool JobQueue::hasQueued() const {
  std::lock_guard lock(mutex_);
  return !jobs_.empty();
}

std::shared_ptr<ModemJob> JobQueue::take(bool reconcileOnly) {
  std::lock_guard lock(mutex_);
  for (auto it = jobs_.begin(); it != jobs_.end(); ++it) {
    if (reconcileOnly && (*it)->kind != ModemJob::Kind::kReconcile) continue;
    std::shared_ptr<ModemJob> job = *it;
    jobs_.erase(it);
    job->started = true;
    return job;
  }
  return nullptr;
}

void JobQueue::finish(ModemJob& job, std::optional<SendResult> sendResult,
                      ReconcileResult reconcileResult) {
  {
    std::lock_guard lock(mutex_);
    job.sendResult = std::move(sendResult);
    job.reconcileResult = reconcileResult;
    job.done = true;
  }
  changed_.notify_all();
}

void JobQueue::failAll(const std::string& why) {
  {
    std::lock_guard lock(mutex_);
    for (auto& job : jobs_) {
      job->sendResult = SendError{true, why};
      job->done = true;
    }
    jobs_.clear();
  }
  changed_.notify_all();
}

void JobQueue::wake() {
  const std::uint64_t one = 1;
  (void)!::write(wakeFd_, &one, sizeof one);
}

void JobQueue::consumeWake() {
  std::uint64_t count = 0;
  (void)!::read(wakeFd_, &count, sizeof count);
}

}  // namespace atoms::drivers::modem
