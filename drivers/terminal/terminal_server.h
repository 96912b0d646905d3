// TerminalServer: the HTTP endpoint time-clock terminals POST punches to (docs/terminals.md).
//
// POST /v1/punches with `Authorization: Bearer <token>` and a JSON body (punch_request.h). Checks,
// in order, each failure answered without reaching the sink:
//   path (404), method (405, Allow: POST), token unknown or missing (401, no detail: the body is
//   not read), body over maxBodyBytes (413), body not a valid request (400, {"error":"<one
//   line>"}), token of terminal A but body of terminal B (403).
// A valid request is handed to the PunchSink; the answer is 200 with one outcome per punch only
// after the sink returned them (it commits first), 503 when it failed, so the terminal retries
// with the same ids. Every request not answered 200 is reported to onRefused (for auditing).
// A response after which the request body is left unread closes the connection.
//
// Threading: the sink and onRefused are called from the server's threads, concurrently; both
// must be thread-safe. start()/stop() from one thread; after stop() returns neither is called
// again. Nothing is logged here; no token ever appears in a RefusedPunchRequest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "drivers/http/bearer_tokens.h"
#include "drivers/http/health_probe.h"
#include "drivers/terminal/punch_request.h"

namespace Poco::Net {
class HTTPServerRequest;
class HTTPServerResponse;
}  // namespace Poco::Net

namespace atoms::drivers {
class HttpService;
}

namespace atoms::drivers::terminal {

// Where punches go. accept() returns one outcome per punch of the batch, in order, once they are
// durably stored (an accepted or refused punch is final; a retry of the same id is a duplicate);
// an error when nothing was stored (the terminal is answered 503 and retries). Called
// concurrently from server threads.
class PunchSink {
 public:
  virtual ~PunchSink() = default;
  virtual Result<std::vector<PunchOutcome>> accept(const PunchBatch& batch) = 0;
};

// A request the server did not answer 200.
struct RefusedPunchRequest {
  int httpStatus = 0;    // 401, 403, 400, 404, 405, 413, 503
  std::string reason;    // one line of printable ASCII; never a token
  std::string path;      // as sent, made printable
  std::string peer;      // "192.0.2.7:51234"
  std::string terminal;  // the terminal whose token was presented; empty when none matched
};

struct TerminalServerOptions {
  std::string address = "127.0.0.1";
  std::uint16_t port = 0;  // 0: any free port (port() says which)
  int threads = 4;
  std::size_t maxBodyBytes = kMaxRequestBytes;
  // Called for each RefusedPunchRequest from server threads; must be thread-safe and quick.
  std::function<void(const RefusedPunchRequest&)> onRefused;
  // What GET /readyz checks (drivers/http/health_probe.h); none by default.
  ReadinessCheck readiness;
};

class TerminalServer {
 public:
  // The sink must outlive the server (or its stop()).
  TerminalServer(BearerTokens tokens, PunchSink& sink, TerminalServerOptions options);
  ~TerminalServer();
  TerminalServer(const TerminalServer&) = delete;
  TerminalServer& operator=(const TerminalServer&) = delete;

  // Binds and starts serving; an error names the address when it cannot listen.
  Status start();
  void stop();
  std::uint16_t port() const;

 private:
  void serve(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response);
  void refused(RefusedPunchRequest event) const;

  BearerTokens tokens_;
  PunchSink& sink_;
  TerminalServerOptions options_;
  std::unique_ptr<HttpService> server_;
};

}  // namespace atoms::drivers::terminal
