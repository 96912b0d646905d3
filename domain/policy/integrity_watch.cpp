#include "domain/policy/integrity_watch.h"

namespace atoms::policy {

IntegrityWatch::IntegrityWatch(IntegrityWatchOptions options, IntegrityCallbacks callbacks)
    : options_(std::move(options)), callbacks_(std::move(callbacks)) {}

IntegrityWatch::~IntegrityWatch() { stop(); }

void IntegrityWatch::start() {
  std::lock_guard lock(mutex_);
  if (thread_.joinable()) return;
  stopping_ = false;
  thread_ = std::thread([this] { run(); });
}

void IntegrityWatch::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void IntegrityWatch::checkNow() {
  {
    std::lock_guard lock(mutex_);
    asked_ = true;
  }
  wake_.notify_all();
}

std::uint64_t IntegrityWatch::checks() const {
  std::lock_guard lock(mutex_);
  return checks_;
}

bool IntegrityWatch::waitForChecks(std::uint64_t atLeast, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  return checked_.wait_for(lock, timeout, [&] { return checks_ >= atLeast; });
}

void IntegrityWatch::run() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (!asked_) {
      if (options_.interval.count() > 0) {
        wake_.wait_for(lock, options_.interval, [this] { return stopping_ || asked_; });
        asked_ = true;  // the interval elapsed, or someone asked
      } else {
        wake_.wait(lock, [this] { return stopping_ || asked_; });
      }
      if (stopping_) break;
    }
    asked_ = false;
    lock.unlock();
    checkOnce();
    lock.lock();
  }
}

void IntegrityWatch::checkOnce() {
  auto state = openStateDir(options_.paths, OpenMode::ReadOnly);
  if (!state) {
    if (callbacks_.onUnchecked) callbacks_.onUnchecked(state.message());
    return;
  }
  // One read transaction: entries and checkpoints from one snapshot, however fast the writer is.
  if (Status s = state->db.exec("BEGIN"); !s) {
    if (callbacks_.onUnchecked) callbacks_.onUnchecked(s.message());
    return;
  }
  const VerifyReport report = verifyDatabase(state->db, options_.key, options_.siteId);
  (void)state->db.exec("COMMIT");
  bool reportProblem = false;
  {
    std::lock_guard lock(mutex_);
    ++checks_;
    if (!report.ok() && report.problem != reported_) {
      reported_ = report.problem;
      reportProblem = true;
    }
  }
  checked_.notify_all();
  if (reportProblem) {
    callbacks_.onProblem(report);
  } else if (report.ok() && callbacks_.onPassed) {
    callbacks_.onPassed(report);
  }
}

}  // namespace atoms::policy
