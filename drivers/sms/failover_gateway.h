// FailoverGateway: one SmsGateway over two carriers, the hosted provider first and a GSM modem as
// the fallback for safety alerts (issue 7 item 5; docs/safety-alerts.md, "When the provider is
// down"). Configured by sms.failover = modem next to sms.driver = twilio.
//
// - send(): every message goes to the primary. An urgent one (a safety alert,
//   OutboundSms::urgent) that the primary surely did not take (any error without maybeAccepted:
//   connection refused, DNS, 5xx, 4xx) goes to the fallback in the same call, so it leaves at
//   once instead of after the outbox's retry schedule. A send the primary may have taken
//   (maybeAccepted) is never handed to the fallback: the outbox reconciles it first, so nothing
//   is sent twice. Nor is a refusal about the recipient (SendErrorCause::kRecipient: the number
//   opted out at the provider, or cannot take texts): the modem must not carry a text around a
//   provider's opt-out. Other messages wait for the primary as before.
// - reconcile(): asks the primary; for an urgent message also the fallback (which may have carried
//   it). Accepted by either wins; then unknown, then unavailable; not found only when both say so.
// - Inbound texts and delivery reports of both members go into the one sink; the gateway's name
//   ("twilio+modem") is the namespace of both, which is why provider ids must not collide (Twilio
//   "SM...", modem "gsm:..." and "mr:...").
//
// Threading: as SmsGateway (send/reconcile on the dispatcher thread; start/stop on the owner's).
// onFailover is called on the dispatcher thread after each hand-over; it must be quick.
// Errors: a failed hand-over returns one line naming both carriers' errors (retryable when either
// was, the primary's authFailure kept). A hand-over the fallback took is a success to the caller.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "drivers/sms/sms_gateway.h"

namespace atoms::drivers {

// What happened when an urgent message was handed to the fallback: each carrier's own answer (for
// the service's log and each carrier's connection breaker).
struct FailoverEvent {
  std::string idempotencyKey;
  std::string primaryError;          // why the primary did not take it
  bool fallbackOk = false;           // the fallback accepted it
  std::string fallbackError;         // when it did not
  bool primaryAuthFailure = false;   // the primary refused our credentials (SendError::authFailure)
  bool fallbackAuthFailure = false;  // the fallback did, when it did not take it
};

class FailoverGateway final : public SmsGateway {
 public:
  // Owns both members. Precondition: both non-null.
  FailoverGateway(std::unique_ptr<SmsGateway> primary, std::unique_ptr<SmsGateway> fallback,
                  std::function<void(const FailoverEvent&)> onFailover = {});
  ~FailoverGateway() override;

  std::string_view name() const override { return name_; }
  // Starts the primary, then the fallback; when the fallback does not start the primary is
  // stopped again and the error names the fallback.
  Status start(SmsSink& sink) override;
  void stop() override;  // the fallback, then the primary
  SendResult send(const OutboundSms& message) override;
  ReconcileResult reconcile(const OutboundSms& message, SmsClock::time_point since) override;

  SmsGateway& primary() { return *primary_; }
  SmsGateway& fallback() { return *fallback_; }

 private:
  std::unique_ptr<SmsGateway> primary_;
  std::unique_ptr<SmsGateway> fallback_;
  std::function<void(const FailoverEvent&)> onFailover_;
  std::string name_;
};

}  // namespace atoms::drivers
