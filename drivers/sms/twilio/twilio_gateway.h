// TwilioGateway: the SmsGateway that speaks Twilio's Messages API (docs/sms-twilio.md).
//
// - send(): POST {api}/2010-04-01/Accounts/{sid}/Messages.json with To, Body, From and/or
//   MessagingServiceSid, and StatusCallback = {publicUrl}/sms/status?k=<idempotency key>. Twilio
//   has no idempotency key for message creation, so a send whose outcome is unknown (timeout or a
//   lost connection after the request was written, a 2xx without a readable sid, 502/504) is a
//   SendError with maybeAccepted: the outbox reconciles before sending it again.
// - reconcile(): lists the messages to the same number (GET Messages.json?To=..&DateSent>=..,
//   then the newest page without the date filter, because a message still queued at Twilio has no
//   date_sent) and matches outbound ones with the same body created since `since` (minus 10
//   minutes of clock skew). Twilio does not return the StatusCallback URL in a message, so the
//   key cannot be matched there. One match: kAccepted; none after a complete search: kNotFound;
//   several (the same text sent twice in the window) or a search past its page cap: kUnknown (it
//   will never be able to tell); Twilio unreachable, an error status or an unreadable page:
//   kUnavailable (ask again later).
// - The webhook server (start/stop) listens on config.listenAddress:listenPort and serves POST
//   /sms/inbound and /sms/status as twilio_webhook.h decides. A message or report is answered
//   2xx only after the sink returned ok; 503 when the sink fails (Twilio may retry). Every request
//   not answered 2xx with a stored result is reported to onRefused (for auditing), except another
//   path or method without a Twilio signature (404, 405: a monitor or a scanner, not a webhook).
//   GET /healthz and /readyz are answered from options.readiness (drivers/http/health_probe.h).
//
// Threading: send() and reconcile() may be called from any thread, concurrently; the sink and
// onRefused are called from the webhook threads, concurrently. start()/stop() from one thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "drivers/http/health_probe.h"
#include "drivers/sms/sms_gateway.h"
#include "drivers/sms/twilio/twilio_config.h"

namespace Poco::Net {
class HTTPServerRequest;
class HTTPServerResponse;
}  // namespace Poco::Net

namespace atoms::drivers {
class HttpService;
}

namespace atoms::drivers::twilio {
class TwilioRestClient;

// A webhook request the driver did not turn into a stored message or report.
struct RefusedWebhook {
  int httpStatus = 0;          // what it was answered: 403, 400, 503, 204 (ignored status), ...
  std::string reason;          // one line, no secrets, no message text
  std::string path;            // "/sms/inbound"
  std::string peer;            // "203.0.113.7:5123" (the proxy's address behind a proxy)
  bool authenticated = false;  // the Twilio signature was valid
  std::string providerId;      // MessageSid, when authenticated and present
  std::string from;            // sender, when authenticated and present
};

struct TwilioGatewayOptions {
  // Time stamps of inbound messages and reports; default: the system clock.
  std::function<SmsClock::time_point()> now;
  // Called for each RefusedWebhook, from webhook threads; must be thread-safe and quick.
  std::function<void(const RefusedWebhook&)> onRefused;
  // What GET /readyz checks (drivers/http/health_probe.h); none by default.
  ReadinessCheck readiness;
};

class TwilioGateway final : public SmsGateway {
 public:
  // config must pass validateTwilioConfig; start() and send() report it if not.
  explicit TwilioGateway(TwilioConfig config, TwilioGatewayOptions options = {});
  ~TwilioGateway() override;

  std::string_view name() const override { return "twilio"; }
  Status start(SmsSink& sink) override;
  void stop() override;
  SendResult send(const OutboundSms& message) override;
  ReconcileResult reconcile(const OutboundSms& message, SmsClock::time_point since) override;

  // The port the webhook server is bound to (after start(); useful with listenPort 0).
  std::uint16_t webhookPort() const;
  // The StatusCallback URL send() gives Twilio for this key.
  std::string statusCallbackUrl(const std::string& idempotencyKey) const;

 private:
  void serve(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response);
  std::optional<ReconcileResult> searchOnce(const OutboundSms& message, std::string target,
                                            SmsClock::time_point windowStart, bool newestFirst,
                                            std::set<std::string>& matches) const;
  void refused(RefusedWebhook event) const;

  TwilioConfig config_;
  TwilioGatewayOptions options_;
  Status configStatus_;
  std::unique_ptr<TwilioRestClient> rest_;
  std::unique_ptr<HttpService> server_;
  SmsSink* sink_ = nullptr;  // set by start(), read by webhook threads started after it
};

}  // namespace atoms::drivers::twilio
