#include "drivers/sms/simulated/simulated_gateway.h"

#include <cstdio>

namespace atoms::drivers {

Status SimulatedSmsGateway::start(SmsSink& sink) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (sink_ != nullptr) return makeError("the simulated SMS gateway is already started");
  sink_ = &sink;
  return Status::success();
}

void SimulatedSmsGateway::stop() {
  std::unique_lock<std::mutex> lock(mutex_);
  sink_ = nullptr;
  changed_.wait(lock, [this] { return sinkCallsInProgress_ == 0; });
}

SmsSink* SimulatedSmsGateway::enterSink() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (sink_ != nullptr) ++sinkCallsInProgress_;
  return sink_;
}

void SimulatedSmsGateway::leaveSink() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    --sinkCallsInProgress_;
  }
  changed_.notify_all();
}

std::string SimulatedSmsGateway::nextProviderIdLocked(const char* prefix) {
  char digits[33];
  std::snprintf(digits, sizeof digits, "%032llx", static_cast<unsigned long long>(nextId_++));
  return std::string(prefix) + digits;
}

SendResult SimulatedSmsGateway::send(const OutboundSms& message) {
  SimulatedTransmission transmitted;
  std::function<void(const SimulatedTransmission&)> listener;
  std::optional<DeliveryState> report;
  bool loseAnswer = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++sendCalls_;
    if (failNext_ > 0) {
      --failNext_;
      changed_.notify_all();
      return SendError{failRetryable_, failMessage_};
    }
    auto known = acceptedKeys_.find(message.idempotencyKey);
    if (honourKeys_ && known != acceptedKeys_.end()) {
      changed_.notify_all();
      return SendAccepted{known->second, 1};  // a provider that honours keys: not sent again
    }
    transmitted = SimulatedTransmission{message, nextProviderIdLocked("SM")};
    transmissions_.push_back(transmitted);
    acceptedKeys_.emplace(message.idempotencyKey, transmitted.providerId);
    if (loseAnswerNext_ > 0) {
      --loseAnswerNext_;
      loseAnswer = true;
    }
    listener = onTransmitted_;
    report = autoReport_;
  }
  changed_.notify_all();
  if (listener) listener(transmitted);
  if (report) {
    if (SmsSink* sink = enterSink()) {
      (void)sink->acceptReport(DeliveryReport{transmitted.providerId, *report, "", {}});
      leaveSink();
    }
  }
  if (loseAnswer) {
    return SendError{true, "connection lost after the request was sent (simulated)", true};
  }
  return SendAccepted{transmitted.providerId, 1};
}

ReconcileResult SimulatedSmsGateway::reconcile(const OutboundSms& message,
                                               SmsClock::time_point /*since*/) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++reconcileCalls_;
  switch (reconcileMode_) {
    case ReconcileMode::kUnknown:
      return ReconcileResult{ReconcileResult::Kind::kUnknown, ""};
    case ReconcileMode::kUnavailable:
      return ReconcileResult{ReconcileResult::Kind::kUnavailable, ""};
    case ReconcileMode::kTruthful:
      break;
  }
  auto known = acceptedKeys_.find(message.idempotencyKey);
  if (known == acceptedKeys_.end()) return ReconcileResult{ReconcileResult::Kind::kNotFound, ""};
  return ReconcileResult{ReconcileResult::Kind::kAccepted, known->second};
}

void SimulatedSmsGateway::failNextSends(int count, bool retryable, std::string message) {
  std::lock_guard<std::mutex> lock(mutex_);
  failNext_ = count;
  failRetryable_ = retryable;
  failMessage_ = std::move(message);
}

void SimulatedSmsGateway::loseAnswerAfterAccepting(int count) {
  std::lock_guard<std::mutex> lock(mutex_);
  loseAnswerNext_ = count;
}

void SimulatedSmsGateway::setReconcileMode(ReconcileMode mode) {
  std::lock_guard<std::mutex> lock(mutex_);
  reconcileMode_ = mode;
}

void SimulatedSmsGateway::setHonourIdempotencyKeys(bool honour) {
  std::lock_guard<std::mutex> lock(mutex_);
  honourKeys_ = honour;
}

void SimulatedSmsGateway::setAutoReport(std::optional<DeliveryState> state) {
  std::lock_guard<std::mutex> lock(mutex_);
  autoReport_ = state;
}

void SimulatedSmsGateway::setOnTransmitted(
    std::function<void(const SimulatedTransmission&)> listener) {
  std::lock_guard<std::mutex> lock(mutex_);
  onTransmitted_ = std::move(listener);
}

std::vector<SimulatedTransmission> SimulatedSmsGateway::transmissions() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return transmissions_;
}

std::size_t SimulatedSmsGateway::sendCalls() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return sendCalls_;
}

std::size_t SimulatedSmsGateway::reconcileCalls() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return reconcileCalls_;
}

bool SimulatedSmsGateway::waitForTransmissions(std::size_t count,
                                               std::chrono::milliseconds deadline) const {
  std::unique_lock<std::mutex> lock(mutex_);
  return changed_.wait_for(lock, deadline, [&] { return transmissions_.size() >= count; });
}

bool SimulatedSmsGateway::waitForSendCalls(std::size_t count,
                                           std::chrono::milliseconds deadline) const {
  std::unique_lock<std::mutex> lock(mutex_);
  return changed_.wait_for(lock, deadline, [&] { return sendCalls_ >= count; });
}

Status SimulatedSmsGateway::deliverInbound(InboundSms message) {
  if (message.providerId.empty()) {
    std::lock_guard<std::mutex> lock(mutex_);
    message.providerId = nextProviderIdLocked("SM");
  }
  SmsSink* sink = enterSink();
  if (sink == nullptr) return makeError("the simulated SMS gateway is not started");
  Status status = sink->acceptInbound(message);
  leaveSink();
  return status;
}

Status SimulatedSmsGateway::deliverReport(DeliveryReport report) {
  SmsSink* sink = enterSink();
  if (sink == nullptr) return makeError("the simulated SMS gateway is not started");
  Status status = sink->acceptReport(report);
  leaveSink();
  return status;
}

}  // namespace atoms::drivers
