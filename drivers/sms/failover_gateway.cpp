#include "drivers/sms/failover_gateway.h"

#include <utility>

namespace atoms::drivers {

FailoverGateway::FailoverGateway(std::unique_ptr<SmsGateway> primary,
                                 std::unique_ptr<SmsGateway> fallback,
                                 std::function<void(const FailoverEvent&)> onFailover)
    : primary_(std::move(primary)),
      fallback_(std::move(fallback)),
      onFailover_(std::move(onFailover)),
      name_(std::string(primary_->name()) + "+" + std::string(fallback_->name())) {}

FailoverGateway::~FailoverGateway() = default;

Status FailoverGateway::start(SmsSink& sink) {
  if (Status s = primary_->start(sink); !s) return s;
  if (Status s = fallback_->start(sink); !s) {
    primary_->stop();
    return makeError(
        "the fallback " + std::string(fallback_->name()) + " did not start: " + s.message(),
        ErrorKind::kUnavailable);
  }
  return Status::success();
}

void FailoverGateway::stop() {
  fallback_->stop();
  primary_->stop();
}

SendResult FailoverGateway::send(const OutboundSms& message) {
  SendResult first = primary_->send(message);
  // A refusal about the recipient is not carried around the provider: a number opted out there,
  // or one that cannot take texts, is the same number through the modem.
  if (first.ok() || !message.urgent || first.error().maybeAccepted ||
      first.error().cause == SendErrorCause::kRecipient) {
    return first;
  }

  SendResult second = fallback_->send(message);
  FailoverEvent event{message.idempotencyKey, first.error().message, second.ok(), {}};
  event.primaryAuthFailure = first.error().authFailure;
  if (!second.ok()) {
    event.fallbackError = second.error().message;
    event.fallbackAuthFailure = second.error().authFailure;
  }
  if (onFailover_) onFailover_(event);
  if (second.ok()) return second;
  const SendError& a = first.error();
  const SendError& b = second.error();
  SendError both{a.retryable || b.retryable,
                 std::string(primary_->name()) + ": " + a.message + "; " +
                     std::string(fallback_->name()) + ": " + b.message,
                 b.maybeAccepted};
  both.authFailure = a.authFailure;  // the primary's credentials: its breaker opens at once
  return both;
}

ReconcileResult FailoverGateway::reconcile(const OutboundSms& message, SmsClock::time_point since) {
  using Kind = ReconcileResult::Kind;
  ReconcileResult first = primary_->reconcile(message, since);
  if (first.kind == Kind::kAccepted || !message.urgent) return first;
  ReconcileResult second = fallback_->reconcile(message, since);
  if (second.kind == Kind::kAccepted) return second;
  for (Kind kind : {Kind::kUnknown, Kind::kUnavailable}) {
    if (first.kind == kind || second.kind == kind) return {kind, {}};
  }
  return {Kind::kNotFound, {}};
}

}  // namespace atoms::drivers
