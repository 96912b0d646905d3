// The boundary between the SMS conversation layer (sms/) and the things that actually carry text
// messages: a hosted provider over HTTP (Twilio's API), a GSM modem on a serial port, or the
// simulated gateway of the tests and the demo. Nothing here knows the domain (consent, keywords,
// quiet hours); a driver only moves messages and reports what happened to them.
//
// Contract:
// - send() is blocking and is called from the outbox dispatcher's thread, never the engine thread.
//   One call hands ONE logical message (the driver splits it into segments itself: concatenated
//   SMS on a modem, the provider does it over HTTP). It returns the provider's id for the message
//   once the provider/modem has accepted it, or a SendError saying whether retrying may help.
//   `idempotencyKey` is stable across retries of the same outbox row; drivers pass it on where the
//   provider supports it, so a retry after a crash is not sent twice.
// - Inbound messages and delivery reports arrive on the driver's own threads (HTTP server
//   threads, the modem reader) and are handed to the SmsSink. accept() returns only once the
//   message is durably committed (or refused): a driver answers its peer (webhook 2xx, modem
//   +CNMA / delete from SIM) only after an ok Status, so nothing acknowledged is ever lost.
// - reconcile() is also blocking and called from the dispatcher's thread.
// - A driver's start()/stop() own its threads; stop() joins them and no sink call is made after
//   it returns. Gateways are not copyable.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace atoms::drivers {

using SmsClock = std::chrono::system_clock;

struct OutboundSms {
  std::string idempotencyKey;  // the outbox row's stable id
  std::string to;              // E.164
  std::string body;            // UTF-8, already linted and segmented by the caller
  // A safety alert: a gateway with a fallback carrier hands it over at once when its own carrier
  // surely did not take it (FailoverGateway), instead of waiting for the outbox's retries.
  bool urgent = false;
};

struct SendAccepted {
  std::string providerId;  // Twilio MessageSid "SM...", modem message reference "mr:17", ...
  int segments = 1;        // as counted by the provider/modem, when it says
};

// What a refused send was about (the issue "Call-outs and texts", defect 3). Only a transport or an
// account failure says the way to the provider is broken (its connection breaker counts them); a
// refusal about the recipient (opted out at the provider, an invalid number, a landline, a block)
// or about the content (an empty or over-long body) says the provider is there and answering.
enum class SendErrorCause { kTransport, kAccount, kRecipient, kContent };
std::string_view sendErrorCauseName(SendErrorCause cause);  // "transport", "account", ...

struct SendError {
  bool retryable = true;  // network down, 5xx, 429, modem busy: true; invalid number, 4xx: false
  std::string message;    // one line for the operator; never contains secrets
  // True when the request may have reached the provider/modem before it failed (a timeout or a
  // connection lost after the request was written, no answer to AT+CMGS): the outbox then asks
  // reconcile() before it sends again, instead of risking a second copy. False when it surely did
  // not (connection refused, DNS failure, an error status in the answer).
  bool maybeAccepted = false;
  // True when the provider refused our credentials (HTTP 401/403 from Twilio): retrying may help
  // once they are fixed, but the connection's breaker opens at once (seed 001 section 8).
  bool authFailure = false;
  // Why it failed; an auth failure is always kAccount.
  SendErrorCause cause = SendErrorCause::kTransport;
  // Whether the failure counts against the connection: transport and account failures do.
  bool aboutTheConnection() const {
    return cause == SendErrorCause::kTransport || cause == SendErrorCause::kAccount;
  }
};

// Either the accepted send or the classified error.
class SendResult {
 public:
  SendResult(SendAccepted accepted) : accepted_(std::move(accepted)) {}  // NOLINT
  SendResult(SendError error) : error_(std::move(error)) {}              // NOLINT
  bool ok() const { return accepted_.has_value(); }
  const SendAccepted& accepted() const { return *accepted_; }  // precondition: ok()
  const SendError& error() const { return *error_; }           // precondition: !ok()

 private:
  std::optional<SendAccepted> accepted_;
  std::optional<SendError> error_;
};

struct InboundSms {
  std::string providerId;  // unique per provider: the dedup key of the inbox
  std::string from;        // E.164 as the provider gave it
  std::string to;
  std::string body;  // UTF-8
  SmsClock::time_point receivedAt{};
};

// Twilio's message states; a modem maps its status reports onto the same set.
enum class DeliveryState { kQueued, kSent, kDelivered, kUndelivered, kFailed };
// "queued", "sent", "delivered", "undelivered", "failed"; and back (nullopt for anything else).
std::string_view deliveryStateName(DeliveryState state);
std::optional<DeliveryState> parseDeliveryState(std::string_view name);

struct DeliveryReport {
  std::string providerId;
  DeliveryState state = DeliveryState::kSent;
  std::string errorCode;  // provider's code when failed/undelivered ("30003"), else empty
  SmsClock::time_point at{};
  // The OutboundSms::idempotencyKey the report is about, when the driver can tell (Twilio: carried
  // in the status callback URL), else empty. Lets the outbox match a report whose providerId it
  // never recorded (a crash between the provider's acceptance and the commit of its id).
  std::string idempotencyKey;
};

// Where drivers hand what arrives. Implemented by the inbox/outbox (sms/); called from driver
// threads concurrently, so implementations synchronise.
class SmsSink {
 public:
  virtual ~SmsSink() = default;
  // Ok once committed (a duplicate providerId is ok too: already committed). Ok also when the
  // message was refused for good for its content (over 1,600 characters, invalid UTF-8, a NUL
  // byte): the refusal is what got committed (audited, and recorded against its providerId so a
  // redelivery is not processed again), so the driver acknowledges it and the peer stops
  // redelivering it. An error means "not stored": the driver must not acknowledge the message to
  // its peer (it will be redelivered or re-read later).
  virtual Status acceptInbound(const InboundSms& message) = 0;
  virtual Status acceptReport(const DeliveryReport& report) = 0;
};

// After a crash between send() and recording its outcome, or a send that failed with
// maybeAccepted, the outbox asks the gateway whether the message was accepted. kAccepted carries
// its id (then it is not sent again); kNotFound means the gateway is sure it never got it (safe to
// send); kUnknown means it can never tell (a modem): the outbox then follows its documented policy
// for uncertain sends (docs/sms-mailbox.md: treated as sent and flagged, never sent twice);
// kUnavailable means it cannot ask right now (provider API unreachable): the outbox asks again
// later, with backoff.
struct ReconcileResult {
  enum class Kind { kAccepted, kNotFound, kUnknown, kUnavailable };
  Kind kind = Kind::kUnknown;
  std::string providerId;  // for kAccepted
};

class SmsGateway {
 public:
  virtual ~SmsGateway() = default;
  SmsGateway() = default;
  SmsGateway(const SmsGateway&) = delete;
  SmsGateway& operator=(const SmsGateway&) = delete;

  virtual std::string_view name() const = 0;  // "twilio", "modem", "simulated"
  // Starts receiving (webhook server, modem reader) into `sink`, which must outlive stop().
  virtual Status start(SmsSink& sink) = 0;
  virtual void stop() = 0;
  virtual SendResult send(const OutboundSms& message) = 0;
  // `since`: when the outbox first handed this message to send() (bounds a provider search).
  virtual ReconcileResult reconcile(const OutboundSms& message, SmsClock::time_point since) = 0;
};

}  // namespace atoms::drivers
