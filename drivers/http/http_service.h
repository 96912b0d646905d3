// HttpService: a small Poco HTTP server with its own thread pool, for the drivers that are called
// over HTTP: the Twilio driver's webhooks, the fake provider's REST API, the time-clock terminals.
//
// Contract:
// - GET /healthz and /readyz are answered before the handler sees them (health_probe.h), from
//   `readiness`; the handler never sees them.
// - The handler runs on the service's threads, up to `threads` requests at once; it must be
//   thread-safe. An exception escaping it is caught: the request is answered 500 (if nothing was
//   sent yet) and the connection closed.
// - start() binds address:port (port 0: any free port; boundPort() says which) and returns an
//   error naming the address when it cannot. stop() stops accepting, lets requests in progress
//   finish, closes idle keep-alive connections and joins every thread: after it returns the
//   handler is never called again. The destructor stops. Not copyable; start/stop from one thread.
// - With a TLS context (start's `tls`), the listener speaks HTTPS only: the handshake runs on the
//   connection's thread, and a client that fails it is dropped without reaching the handler.
// - setResponseHeaders: headers set on every response before anything else answers it (the
//   health checks, the handler, the 500 after an exception); the handler may override them.
//   setHealthChecks(false): /healthz and /readyz go to the handler like any other path (a
//   listener that only redirects). Both before start().
#pragma once

#include <Poco/Net/Context.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "drivers/http/health_probe.h"

namespace Poco {
class ThreadPool;
namespace Net {
class HTTPServer;
}
}  // namespace Poco

namespace atoms::drivers {

using HttpHandler = std::function<void(Poco::Net::HTTPServerRequest& request,
                                       Poco::Net::HTTPServerResponse& response)>;

class HttpService {
 public:
  HttpService(std::string name, HttpHandler handler, ReadinessCheck readiness = {});
  ~HttpService();
  HttpService(const HttpService&) = delete;
  HttpService& operator=(const HttpService&) = delete;

  Status start(const std::string& address, std::uint16_t port, int threads,
               Poco::Net::Context::Ptr tls = {});
  void stop();
  void setResponseHeaders(std::vector<std::pair<std::string, std::string>> headers) {
    headers_ = std::move(headers);
  }
  void setHealthChecks(bool on) { healthChecks_ = on; }
  bool running() const { return server_ != nullptr; }
  std::uint16_t boundPort() const { return port_; }

 private:
  std::string name_;
  HttpHandler handler_;
  ReadinessCheck readiness_;
  std::vector<std::pair<std::string, std::string>> headers_;
  bool healthChecks_ = true;
  std::unique_ptr<Poco::ThreadPool> pool_;
  std::unique_ptr<Poco::Net::HTTPServer> server_;
  std::uint16_t port_ = 0;
};

// Reads a request body of at most maxBytes; nullopt when it is longer (the caller answers 413).
std::optional<std::string> readRequestBody(Poco::Net::HTTPServerRequest& request,
                                           std::size_t maxBytes);

// Answers `status` with a JSON body. bodyRead: false when the request body was left unread, so
// the connection cannot carry another request and is closed. A 401 says `WWW-Authenticate:
// Bearer`, a 503 `Retry-After: 5`; other headers (Allow...) the caller sets before.
void sendJson(Poco::Net::HTTPServerResponse& response, int status, const std::string& body,
              bool bodyRead);
// {"error":"<text>"}.
std::string jsonError(const std::string& text);

}  // namespace atoms::drivers
