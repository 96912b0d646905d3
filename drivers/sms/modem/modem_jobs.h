// The modem worker's job queue (modem_gateway.h): send() and reconcile() put a job here and wait;
// the worker thread takes one at a time, so only it ever talks to the modem. The queue also holds
// the gateway's running/stopping state and the eventfd that wakes the worker from its poll.
//
// Threading: thread-safe. A job's started/done flags and results are written under the queue's
// lock (take(), finish(), failAll()) and read by the waits below.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "drivers/sms/modem/pdu.h"
#include "drivers/sms/sms_gateway.h"

namespace atoms::drivers::modem {

struct ModemJob {
  enum class Kind { kSend, kReconcile };
  Kind kind = Kind::kSend;
  OutboundSms message;
  std::vector<EncodedPdu> pdus;  // send, PDU mode: one per part
  int concatReference = -1;      // send, PDU mode, several parts: their shared reference
  std::string text;              // send, text mode
  SmsClock::time_point since{};  // reconcile
  // Guarded by the queue.
  bool started = false;
  bool done = false;
  std::optional<SendResult> sendResult;
  ReconcileResult reconcileResult;
};

class JobQueue {
 public:
  JobQueue();  // creates the eventfd; wakeFd() < 0 when that failed
  ~JobQueue();
  JobQueue(const JobQueue&) = delete;
  JobQueue& operator=(const JobQueue&) = delete;

  int wakeFd() const { return wakeFd_; }

  // --- the gateway's side ---
  // Not running -> running; false when it was running already.
  bool open();
  // Running -> stopping, and wakes the worker; false when it was not running.
  bool beginStop();
  // Stopping -> stopped (after the worker ended).
  void closed();
  // Queues the job and wakes the worker; false (nothing queued) when not running or stopping.
  bool push(const std::shared_ptr<ModemJob>& job);
  // Waits until the worker took the job (or finished it) or `timeout` passed; false: it was never
  // taken, and is out of the queue now (nothing of it reached the modem).
  bool waitTaken(const std::shared_ptr<ModemJob>& job, std::chrono::milliseconds timeout);
  void waitDone(const ModemJob& job);

  // --- the worker's side ---
  bool stopping() const;
  bool hasQueued() const;
  // The oldest job (the oldest reconcile job when `reconcileOnly`), marked started; nullptr when
  // none.
  std::shared_ptr<ModemJob> take(bool reconcileOnly);
  void finish(ModemJob& job, std::optional<SendResult> sendResult, ReconcileResult reconcileResult);
  // Every queued job fails with a retryable `why`.
  void failAll(const std::string& why);
  void wake();
  void consumeWake();

 private:
  int wakeFd_ = -1;
  mutable std::mutex mutex_;  // guards everything below and the jobs' flags and results
  std::condition_variable changed_;
  std::deque<std::shared_ptr<ModemJob>> jobs_;
  bool running_ = false;
  bool stopping_ = false;
};

}  // namespace atoms::drivers::modem
