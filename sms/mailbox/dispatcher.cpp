#include "sms/mailbox/dispatcher.h"

#include <algorithm>
#include <exception>

namespace atoms::sms::mailbox {

Dispatcher::Dispatcher(Outbox& outbox, drivers::SmsGateway& gateway, DispatcherOptions options)
    : outbox_(outbox), gateway_(gateway), options_(std::move(options)) {
  outbox_.setWakeUp([this] { wake(); });
}

Dispatcher::~Dispatcher() {
  stop();
  outbox_.setWakeUp(nullptr);
}

Status Dispatcher::start() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (running_) return makeError("the SMS dispatcher is already running");
  stopping_ = false;
  woken_ = true;  // the first pass runs at once: it reconciles what a crash left in doubt
  idle_ = false;
  running_ = true;
  thread_ = std::thread([this] { threadMain(); });
  return Status::success();
}

void Dispatcher::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!running_) return;
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
  std::lock_guard<std::mutex> lock(mutex_);
  running_ = false;
  stopping_ = false;  // runPass() may be used again
}

void Dispatcher::wake() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    woken_ = true;
  }
  changed_.notify_all();
}

bool Dispatcher::waitUntilIdle(std::chrono::milliseconds deadline) {
  std::unique_lock<std::mutex> lock(mutex_);
  return changed_.wait_for(lock, deadline,
                           [this] { return !running_ || stopping_ || (idle_ && !woken_); });
}

bool Dispatcher::stopping() {
  std::lock_guard<std::mutex> lock(mutex_);
  return stopping_;
}

Status Dispatcher::runPass() {
  for (;;) {
    if (stopping()) return Status::success();
    auto doubt = outbox_.nextInDoubt();
    if (!doubt) return doubt.error();
    if (!*doubt) break;
    const OutboxRow& row = **doubt;
    const TimePoint since = row.firstAttemptAt.value_or(row.createdAt);
    const drivers::ReconcileResult answer = gateway_.reconcile(Outbox::outboundSms(row), since);
    if (auto s = outbox_.recordReconcile(row, gateway_.name(), answer); !s) return s;
  }
  for (;;) {
    if (stopping()) return Status::success();
    auto claimed = outbox_.claimNext();
    if (!claimed) return claimed.error();
    if (!*claimed) return Status::success();
    const drivers::SendResult answer = gateway_.send(Outbox::outboundSms(**claimed));
    // A row whose answer cannot be recorded stays in `sending`, due: the next pass reconciles it.
    if (auto s = outbox_.recordSend(**claimed, gateway_.name(), answer); !s) return s;
    if (options_.onSendResult) options_.onSendResult(gateway_.name(), answer);
  }
}

void Dispatcher::threadMain() {
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) return;
      woken_ = false;
    }
    std::chrono::milliseconds pause = options_.idleRecheck;
    try {
      Status pass = runPass();
      if (!pass) {
        if (options_.onError) options_.onError("SMS dispatcher: " + pass.message());
        pause = options_.errorPause;
      } else if (auto next = outbox_.nextDue(); !next) {
        if (options_.onError) options_.onError("SMS dispatcher: " + next.message());
        pause = options_.errorPause;
      } else if (*next) {
        const auto until =
            std::chrono::duration_cast<std::chrono::milliseconds>(**next - outbox_.now());
        pause = std::clamp(until, std::chrono::milliseconds(0), options_.idleRecheck);
      }
    } catch (const std::exception& e) {
      if (options_.onError) options_.onError(std::string("SMS dispatcher: ") + e.what());
      pause = options_.errorPause;
    } catch (...) {
      if (options_.onError) options_.onError("SMS dispatcher: unknown exception");
      pause = options_.errorPause;
    }

    std::unique_lock<std::mutex> lock(mutex_);
    idle_ = true;
    changed_.notify_all();
    const auto ready = [this] { return stopping_ || woken_; };
    if (options_.followsSystemTime) {
      changed_.wait_for(lock, pause, ready);
    } else {
      changed_.wait(lock, ready);
    }
    idle_ = false;
  }
}

}  // namespace atoms::sms::mailbox
