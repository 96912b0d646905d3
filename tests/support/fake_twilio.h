// FakeTwilio: a local stand-in for Twilio's Messages API and its webhooks, over real HTTP on
// loopback, for the integration tests and benchmarks (library atoms_test_doubles; not part of the
// binary: `atoms-edge demo` runs on the simulated gateway, drivers/sms/simulated/).
//
// REST side (what TwilioGateway calls): POST and GET /2010-04-01/Accounts/{sid}/Messages.json with
// HTTP basic auth, Twilio's JSON shapes (message resource, paged list with next_page_uri, error
// object {code, message, more_info, status}), the DateSent / DateSent> / DateSent< / To / From /
// PageSize / Page filters, and the common errors: 20003 (401, bad credentials), 20404, 21211
// (invalid To), 21602 / 21604 / 21603 (missing Body / To / From), 21610 (recipient sent STOP),
// 21617 (body over 1,600 characters). failNext() makes the next create requests fail as told
// (429 with 20429, 500, 21211, ...); holdRequests() keeps requests waiting (client timeouts).
//
// Webhook side (what Twilio would call): deliver() moves a message to a status and POSTs the signed
// status callback to the message's StatusCallback URL; sendInbound() POSTs a signed inbound message
// to options.inboundUrl; postWebhook() posts any fields, signed or not, for tamper tests. With
// autoDeliver, each accepted message is moved to sent, then delivered, by a background thread.
//
// Threading: every method is thread-safe. One mutex guards the recorded state; no HTTP call is made
// while it is held. stop() (and the destructor) releases held requests, joins the server and the
// auto-deliver thread. Only http:// URLs on loopback are connected to (see routeWebhooks).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/result.h"
#include "drivers/sms/sms_gateway.h"
#include "drivers/sms/twilio/form_body.h"

namespace Poco::Net {
class HTTPServerRequest;
class HTTPServerResponse;
}  // namespace Poco::Net

namespace atoms::drivers {
class HttpService;
}

namespace atoms::drivers::twilio {

struct FakeTwilioOptions {
  std::string accountSid = "AC00000000000000000000000000000000";
  std::string authToken = "fake-auth-token-0123456789abcdef";
  std::string inboundUrl;  // the driver's public URL + "/sms/inbound", for sendInbound()
  bool autoDeliver = false;
  std::function<SmsClock::time_point()> now;  // default: the system clock
};

struct FakeMessage {
  std::string sid;
  std::string direction = "outbound-api";
  std::string from;
  std::string messagingServiceSid;
  std::string to;
  std::string body;
  std::string statusCallback;
  std::string status = "queued";
  std::string errorCode;
  int numSegments = 1;
  SmsClock::time_point dateCreated{};
  std::optional<SmsClock::time_point> dateSent;
};

struct FakeFailure {
  int httpStatus = 500;
  int code = 20500;
  std::string message = "Internal Server Error";
  static FakeFailure tooManyRequests();  // 429, 20429
  static FakeFailure serverError();      // 500, 20500
  static FakeFailure invalidTo();        // 400, 21211
};

struct WebhookReply {
  int status = 0;
  std::string body;
  std::string contentType;
};

class FakeTwilio {
 public:
  explicit FakeTwilio(FakeTwilioOptions options = {});
  ~FakeTwilio();
  FakeTwilio(const FakeTwilio&) = delete;
  FakeTwilio& operator=(const FakeTwilio&) = delete;

  Status start(const std::string& address = "127.0.0.1", std::uint16_t port = 0);
  void stop();
  std::string baseUrl() const;  // "http://127.0.0.1:<port>"
  const FakeTwilioOptions& options() const { return options_; }
  void setInboundUrl(std::string url);
  // Webhook URLs that start with publicPrefix are connected to at localPrefix + the rest, but
  // signed as the public URL: what the TLS-terminating proxy in front of a box does.
  // routeWebhooks("https://shop.example.net/atoms", "http://127.0.0.1:8089").
  void routeWebhooks(std::string publicPrefix, std::string localPrefix);

  // The next `times` create requests fail with `failure` (after authentication).
  void failNext(FakeFailure failure, int times = 1);
  // An outage: while set, every create request fails as told (after any failNext() ones);
  // nullopt ends it.
  void setOutage(std::optional<FakeFailure> failure);
  // While on, every REST request waits until it is turned off (or stop()).
  void holdRequests(bool on);
  // Create requests to this number fail with 21610 from now on, as after the person sent STOP.
  void unsubscribe(const std::string& number);

  std::vector<FakeMessage> messages() const;  // in the order created
  std::optional<FakeMessage> message(const std::string& sid) const;
  int createRequests() const;  // POST Messages.json requests received, failed ones included
  int listRequests() const;
  // Records a message as if created earlier (reconcile tests); returns its sid.
  std::string addMessage(FakeMessage message);
  // Called (on a server thread, without the lock) for each message created through the API.
  void setOnMessage(std::function<void(const FakeMessage&)> onMessage);

  // Sets the message's status (and date_sent once it is sent) and POSTs the signed status
  // callback; returns what the driver answered. Errors: unknown sid, no StatusCallback, transport.
  Result<WebhookReply> deliver(const std::string& sid, const std::string& status,
                               const std::string& errorCode = "");
  // POSTs a signed inbound message (Twilio's fields plus `extra`) to options.inboundUrl. An empty
  // sid gets a fresh one; the sid used is returned through `sidOut` when given.
  Result<WebhookReply> sendInbound(const std::string& from, const std::string& to,
                                   const std::string& body, const FormFields& extra = {},
                                   const std::string& sid = "", std::string* sidOut = nullptr);
  // POSTs fields to url with X-Twilio-Signature = `signature` (nullopt: computed correctly;
  // "": header left out).
  Result<WebhookReply> postWebhook(
      const std::string& url, const FormFields& fields,
      const std::optional<std::string>& signature = std::nullopt,
      const std::string& contentType = "application/x-www-form-urlencoded");

  // A fresh Twilio-shaped sid: prefix + 32 lowercase hex digits.
  std::string newSid(const std::string& prefix);

 private:
  void serve(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response);
  void create(const FormFields& form, Poco::Net::HTTPServerResponse& response);
  void list(const std::string& query, Poco::Net::HTTPServerResponse& response);
  void waitWhileHeld();
  void autoDeliverLoop();
  SmsClock::time_point now() const;

  FakeTwilioOptions options_;
  std::unique_ptr<HttpService> server_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<FakeMessage> messages_;
  std::deque<FakeFailure> failures_;
  std::vector<std::string> unsubscribed_;
  std::function<void(const FakeMessage&)> onMessage_;
  std::string publicPrefix_, localPrefix_;
  std::deque<std::pair<std::string, std::string>> pendingDeliveries_;  // sid, status
  std::optional<FakeFailure> outage_;
  bool held_ = false;
  bool stopping_ = false;
  int createRequests_ = 0;
  int listRequests_ = 0;
  std::uint64_t sidCounter_ = 0;
  std::thread deliverer_;
};

}  // namespace atoms::drivers::twilio
