// PushServer: the HTTPS endpoint on-site POS systems POST their orders to (docs/pos.md "Local
// push"), the way time-clock terminals post punches (drivers/terminal/terminal_server.h).
//
// POST /v1/pos/orders with `Authorization: Bearer <token>` (a token per POS, the tokens file of
// drivers/http/bearer_tokens.h) and a push request (push_request.h). Checks, in order, each
// failure answered without reaching the sink: path (404), method (405), token unknown or missing
// (401, the body is not read), body over the limit (413), body not a valid request (400,
// {"error":"<one line>"}), token of POS A but body of POS B (403). A valid request is one batch to
// the OrderSink under source "push:<pos>"; the answer is 200 with one outcome per order after the
// sink committed, 503 when it failed (the POS sends the same orders again: they are idempotent by
// order id and version). Every request not answered 200 goes to onRefused; every answered one to
// onStatus (kOk, or kFailing for a 503).
//
// HTTPS when options.tls is set (the box certificate), plain HTTP otherwise (tests on loopback).
// Threading: the sink and the hooks are called from server threads concurrently; start()/stop()
// from one thread; after stop() nothing is called again. No token is ever logged or reported.
#pragma once

#include <Poco/Net/Context.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "base/result.h"
#include "drivers/http/bearer_tokens.h"
#include "drivers/http/health_probe.h"
#include "drivers/pos/order_sink.h"
#include "drivers/pos/source_status.h"

namespace Poco::Net {
class HTTPServerRequest;
class HTTPServerResponse;
}  // namespace Poco::Net

namespace atoms::drivers {
class HttpService;
}

namespace atoms::drivers::pos {

struct RefusedPush {
  int httpStatus = 0;
  std::string reason;  // one line of printable ASCII; never a token
  std::string peer;
  std::string pos;  // whose token was presented; empty when none matched
};

struct PushServerOptions {
  std::string address = "127.0.0.1";
  std::uint16_t port = 0;
  int threads = 2;
  Poco::Net::Context::Ptr tls;  // null: plain HTTP
  std::function<void(const RefusedPush&)> onRefused;
  SourceStatusListener onStatus;
  ReadinessCheck readiness;
};

// "push:" + pos id: the source the orders of one POS are stored under.
std::string pushSource(const std::string& pos);

class PushServer {
 public:
  // The sink must outlive the server.
  PushServer(BearerTokens tokens, OrderSink& sink, PushServerOptions options);
  ~PushServer();
  PushServer(const PushServer&) = delete;
  PushServer& operator=(const PushServer&) = delete;

  Status start();
  void stop();
  std::uint16_t port() const;

 private:
  void serve(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response);

  BearerTokens tokens_;
  OrderSink& sink_;
  PushServerOptions options_;
  std::unique_ptr<HttpService> server_;
};

}  // namespace atoms::drivers::pos
