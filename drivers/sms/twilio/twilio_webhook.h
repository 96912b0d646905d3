// What one webhook request from Twilio means, decided without any I/O: the HTTP server
// (twilio_gateway.cpp) reads the request, asks interpretWebhook(), hands an accepted message or
// report to the SmsSink and answers. Kept apart so the fuzz target drives exactly the code the
// server runs.
//
// Order of checks (each failure is a refusal with one line naming the problem; nothing reaches the
// sink): path (404), method (405), body size (413), content type (415), form syntax (400),
// X-Twilio-Signature over publicUrl + uri and the form fields (403), AccountSid (403), then the
// fields the driver needs to route and deduplicate (400): MessageSid (1-64 letters and digits),
// From and To present, none of the three (nor Body) sent twice.
//
// The text itself is not judged here. A Body over 1,600 characters, with invalid UTF-8 or NUL
// bytes, or a From that is not a phone number, is handed to the sink exactly as sent: the sink
// (the inbox) refuses it for good, records and audits the refusal against its MessageSid, and
// returns ok, so the driver answers 200 and Twilio stops redelivering (sms_gateway.h, SmsSink).
// One place decides what counts as an acceptable message, for every gateway.
//
// A status callback whose MessageStatus the driver does not record ("receiving", a status Twilio
// adds later) is answered 204 with a reason and no report: refusing it would only make Twilio log
// an error for every message.
//
// Pure function; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "drivers/http/printable.h"
#include "drivers/sms/sms_gateway.h"
#include "drivers/sms/twilio/form_body.h"

namespace atoms::drivers::twilio {

inline constexpr std::string_view kInboundPath = "/sms/inbound";
inline constexpr std::string_view kStatusPath = "/sms/status";
// The query parameter of the status callback URL that carries the outbox row's idempotency key.
inline constexpr std::string_view kKeyParameter = "k";
// Answer to an inbound message: TwiML that tells Twilio to send nothing back.
inline constexpr std::string_view kEmptyTwiml =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Response/>";

struct WebhookRequest {
  std::string method;                    // "POST"
  std::string uri;                       // path and query exactly as received: "/sms/status?k=7"
  std::string contentType;               // the Content-Type header, "" when absent
  std::optional<std::string> signature;  // X-Twilio-Signature
  bool signatureSettings = false;        // X-Twilio-Webhooks-Signature-Settings was sent
  std::string body;
};

struct WebhookPolicy {
  std::span<const std::uint8_t> authToken;
  std::string accountSid;
  std::string publicUrl;  // no trailing '/'
  FormLimits limits;
};

struct WebhookVerdict {
  // The answer when the sink is not involved (refusals, ignored statuses), else the answer once
  // the sink returned ok: 200 for inbound, 204 for status.
  int httpStatus = 400;
  std::string reason;  // empty when a message or report is to be handed to the sink
  std::optional<InboundSms> inbound;
  std::optional<DeliveryReport> report;
  bool authenticated = false;  // the signature was valid
  // Best effort, filled only when authenticated: for auditing a refusal.
  std::string providerId;
  std::string from;
};

WebhookVerdict interpretWebhook(const WebhookRequest& request, const WebhookPolicy& policy,
                                SmsClock::time_point now);

// Twilio's message status names onto the gateway's states: accepted, scheduled, queued -> queued;
// sending, sent -> sent; delivered, read -> delivered; undelivered, partially_delivered ->
// undelivered; failed, canceled -> failed. nullopt for anything else.
std::optional<DeliveryState> mapTwilioStatus(std::string_view status);

}  // namespace atoms::drivers::twilio
