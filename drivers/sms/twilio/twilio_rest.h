// The REST side of the Twilio driver: one HTTP(S) request at a time to the Messages resource, and
// the pure functions that read Twilio's answers.
//
// TwilioRestClient speaks HTTPS with certificate and host name verification (system CAs, TLS 1.2
// or newer), or plain HTTP to a loopback base URL (validateTwilioConfig enforces which). Requests
// carry HTTP basic auth (account SID, auth token); the token is never part of an error. Each call
// opens its own connection, so the client is thread-safe and holds no connection between calls.
// Transport failures are Errors; any HTTP status is a reply for the caller to classify.
#pragma once

#include <Poco/AutoPtr.h>

#include <chrono>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "base/result.h"
#include "drivers/sms/sms_gateway.h"
#include "drivers/sms/twilio/twilio_config.h"

namespace Poco::Net {
class Context;
}  // namespace Poco::Net

namespace atoms::drivers::twilio {

struct HttpReply {
  int status = 0;
  std::string body;
};

// Transport errors are distinguished because a timeout after the request was written means Twilio
// may have accepted the message, a refused connection means it did not.
struct TransportError {
  bool mayHaveReachedTwilio = false;
  std::string message;
};

class TwilioRestClient {
 public:
  // Copies what it needs from config (the token into guarded memory).
  explicit TwilioRestClient(const TwilioConfig& config);
  ~TwilioRestClient();
  TwilioRestClient(const TwilioRestClient&) = delete;
  TwilioRestClient& operator=(const TwilioRestClient&) = delete;

  // "/2010-04-01/Accounts/<sid>/Messages.json" under the base URL's path.
  std::string messagesPath() const;

  // POST a form body, or GET a path with query (a next_page_uri as Twilio gives it is fine).
  // Reads at most 4 MiB of reply.
  std::variant<HttpReply, TransportError> post(const std::string& path,
                                               const std::string& formBody) const;
  std::variant<HttpReply, TransportError> get(const std::string& pathAndQuery) const;

 private:
  std::variant<HttpReply, TransportError> request(const std::string& method,
                                                  const std::string& target,
                                                  const std::string* formBody) const;

  std::string scheme_, host_, basePath_, accountSid_;
  Poco::AutoPtr<Poco::Net::Context> tls_;  // made once: loading the CA store is not cheap
  std::string tlsError_;
  std::uint16_t port_ = 0;
  SecretBytes authToken_;
  std::chrono::milliseconds connectTimeout_, requestTimeout_;
};

// What a reply to POST Messages.json means: 200/201 with a "sid" -> accepted (segments from
// num_segments when it is a positive number); otherwise a SendError whose message names the HTTP
// status and Twilio's code and message. Retryable: 429 (and code 20429), 5xx, 401/404 (account or
// base URL problems, fixed by the operator, not by dropping the message), code 21611 (sender's
// queue full), 3xx. Not retryable: every other 4xx (21211 invalid To, 21610 recipient
// unsubscribed, ...). maybeAccepted: a 2xx reply without a readable sid, 502 and 504 (a gateway in
// front of the API timed out or failed; the API behind it may have taken the message).
SendResult classifySendReply(const HttpReply& reply);
// What a refusal with this HTTP status and Twilio error code is about (sms_gateway.h).
SendErrorCause sendErrorCause(int status, std::string_view code);

// Twilio's error object ({"code":21211,"message":"...","status":400}) as one line:
// "HTTP 400, Twilio error 21211: The 'To' number ... is not a valid phone number." Control
// characters are replaced and the text is bounded, so a reply cannot forge log lines.
std::string describeErrorReply(const HttpReply& reply);

struct ListedMessage {
  std::string sid;
  std::string to;
  std::string body;
  std::string direction;  // "outbound-api", "inbound", ...
  std::string status;
  std::optional<SmsClock::time_point> dateCreated;  // nullopt when absent or unreadable
};

struct MessagePage {
  std::vector<ListedMessage> messages;
  std::string nextPageUri;  // empty on the last page
};

// One page of GET Messages.json. Errors name what is missing ("no messages array").
Result<MessagePage> parseMessagePage(const std::string& json);

// RFC 2822 dates as Twilio writes them ("Thu, 24 Aug 2023 05:01:45 +0000"), both ways.
std::optional<SmsClock::time_point> parseTwilioDate(const std::string& text);
std::string formatTwilioDate(SmsClock::time_point t);

}  // namespace atoms::drivers::twilio
