// RecordingSmsSink: an SmsSink (drivers/sms/sms_gateway.h) for driver tests. It records what a
// gateway hands over, counts every attempt, and can refuse (for as long as told, or the next n
// calls) the way a full disk or a read-only store would, so tests can check that a driver does
// not acknowledge what was not committed.
//
// Thread-safe: drivers call it from their own threads; tests wait on it with a deadline.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <vector>

#include "base/result.h"
#include "drivers/sms/sms_gateway.h"

namespace atoms::test {

class RecordingSmsSink final : public drivers::SmsSink {
 public:
  Status acceptInbound(const drivers::InboundSms& message) override {
    return take(inbound_, inboundAttempts_, message);
  }
  Status acceptReport(const drivers::DeliveryReport& report) override {
    return take(reports_, reportAttempts_, report);
  }

  // Refuse every call while on.
  void refuse(bool on) {
    std::lock_guard lock(mutex_);
    refuse_ = on;
  }
  // Refuse the next n calls.
  void failNext(int n) {
    std::lock_guard lock(mutex_);
    failures_ = n;
  }

  // Waits until `predicate` holds (it runs with the lock held: use the *Count/*Attempts
  // accessors inside it). False when the deadline passed first.
  bool waitFor(const std::function<bool(const RecordingSmsSink&)>& predicate,
               std::chrono::milliseconds deadline = std::chrono::seconds(20)) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, deadline, [&] { return predicate(*this); });
  }
  bool waitForReports(std::size_t n) {
    return waitFor([n](const RecordingSmsSink& s) { return s.reportCount() >= n; });
  }

  std::vector<drivers::InboundSms> inbound() const {
    std::lock_guard lock(mutex_);
    return inbound_;
  }
  std::vector<drivers::DeliveryReport> reports() const {
    std::lock_guard lock(mutex_);
    return reports_;
  }
  int calls() const {
    std::lock_guard lock(mutex_);
    return inboundAttempts_ + reportAttempts_;
  }
  // For use inside waitFor predicates (the lock is held there).
  std::size_t inboundCount() const { return inbound_.size(); }
  std::size_t reportCount() const { return reports_.size(); }
  int inboundAttempts() const { return inboundAttempts_; }
  int reportAttempts() const { return reportAttempts_; }

 private:
  template <class T>
  Status take(std::vector<T>& into, int& attempts, const T& item) {
    std::lock_guard lock(mutex_);
    ++attempts;
    changed_.notify_all();
    if (refuse_) return makeError("the store is read-only (test)");
    if (failures_ > 0) {
      --failures_;
      return makeError("disk full (test)");
    }
    into.push_back(item);
    return Status::success();
  }

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool refuse_ = false;
  int failures_ = 0;
  int inboundAttempts_ = 0, reportAttempts_ = 0;
  std::vector<drivers::InboundSms> inbound_;
  std::vector<drivers::DeliveryReport> reports_;
};

}  // namespace atoms::test
