// SimulatedSmsGateway: an in-process SmsGateway for the tests and `atoms-edge demo` (simulated
// phones). It plays the provider: it records what it accepted, delivers inbound texts and delivery
// reports into the sink as a webhook or a modem reader would, and can be scripted to misbehave:
// fail the next sends (retryable or not), accept a message and then lose the answer (as a crash or
// a dropped connection would), and answer reconcile truthfully, "unknown" (like a modem) or
// "unavailable" (like an unreachable API).
//
// By default it honours idempotency keys like a provider that supports them: a key it already
// accepted is not transmitted again, and the first provider id is returned. With
// setHonourIdempotencyKeys(false) it transmits every send (like a modem): transmissions() then
// shows any duplicate, which is how tests prove that the outbox never sends twice on its own.
//
// Threading: every method is thread-safe; sink calls are made outside the lock, and stop() waits
// for those in progress, so no sink call is made after stop() returns.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "drivers/sms/sms_gateway.h"

namespace atoms::drivers {

struct SimulatedTransmission {
  OutboundSms message;
  std::string providerId;  // "SM" + 32 hex digits, as Twilio's look
};

class SimulatedSmsGateway final : public SmsGateway {
 public:
  enum class ReconcileMode { kTruthful, kUnknown, kUnavailable };

  SimulatedSmsGateway() = default;

  std::string_view name() const override { return "simulated"; }
  Status start(SmsSink& sink) override;
  void stop() override;
  SendResult send(const OutboundSms& message) override;
  ReconcileResult reconcile(const OutboundSms& message, SmsClock::time_point since) override;

  // --- Scripting ---
  // The next `count` sends fail before anything is accepted.
  void failNextSends(int count, bool retryable, std::string message = "simulated provider error");
  // The next `count` sends are accepted (and transmitted), then answer a retryable error with
  // maybeAccepted, as a crash or a connection lost after the request was written would.
  void loseAnswerAfterAccepting(int count);
  void setReconcileMode(ReconcileMode mode);
  void setHonourIdempotencyKeys(bool honour);
  // After each accepted send, report this state into the sink before send() returns (a fast
  // provider callback racing the send's own answer); nullopt (default) reports nothing.
  void setAutoReport(std::optional<DeliveryState> state);
  // Called after each transmission, outside the lock (the demo shows it on a simulated phone).
  void setOnTransmitted(std::function<void(const SimulatedTransmission&)> listener);

  // --- Observing ---
  // Every message transmitted, in order (a key sent twice appears twice only when keys are not
  // honoured).
  std::vector<SimulatedTransmission> transmissions() const;
  std::size_t sendCalls() const;
  std::size_t reconcileCalls() const;
  // Waits (real time, at most `deadline`) until at least `count` messages were transmitted.
  bool waitForTransmissions(std::size_t count, std::chrono::milliseconds deadline) const;
  // The same for calls of send(), whatever they answered.
  bool waitForSendCalls(std::size_t count, std::chrono::milliseconds deadline) const;

  // --- The phones' side ---
  // Hands an inbound text to the sink as the provider's webhook would, and returns the sink's
  // answer (ok = acknowledged). An empty providerId gets a fresh one; an unset receivedAt stays
  // unset (the sink uses its clock). Error when not started.
  Status deliverInbound(InboundSms message);
  // A delivery report for a message this gateway took (or any provider id, to test strays).
  Status deliverReport(DeliveryReport report);

 private:
  // Marks a sink call in progress; false when there is no sink (not started or stopped).
  SmsSink* enterSink();
  void leaveSink();
  std::string nextProviderIdLocked(const char* prefix);

  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  SmsSink* sink_ = nullptr;
  int sinkCallsInProgress_ = 0;

  int failNext_ = 0;
  bool failRetryable_ = true;
  std::string failMessage_;
  int loseAnswerNext_ = 0;
  ReconcileMode reconcileMode_ = ReconcileMode::kTruthful;
  bool honourKeys_ = true;
  std::optional<DeliveryState> autoReport_;
  std::function<void(const SimulatedTransmission&)> onTransmitted_;

  std::vector<SimulatedTransmission> transmissions_;
  std::map<std::string, std::string> acceptedKeys_;  // idempotency key -> first provider id
  std::size_t sendCalls_ = 0;
  std::size_t reconcileCalls_ = 0;
  std::uint64_t nextId_ = 1;
};

}  // namespace atoms::drivers
