#include "drivers/http/http_service.h"

#include <Poco/Exception.h>
#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/SecureServerSocket.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/ThreadPool.h>

#include <istream>
#include <optional>

#include "base/canonical_json.h"

namespace atoms::drivers {
namespace {

// What every request of one service shares; owned by the service, outlives its server.
struct ServiceShared {
  const HttpHandler& handler;
  const ReadinessCheck& readiness;
  const std::vector<std::pair<std::string, std::string>>& headers;
  bool healthChecks;
};

class Handler final : public Poco::Net::HTTPRequestHandler {
 public:
  explicit Handler(const ServiceShared& shared) : shared_(shared) {}
  void handleRequest(Poco::Net::HTTPServerRequest& request,
                     Poco::Net::HTTPServerResponse& response) override {
    try {
      for (const auto& [name, value] : shared_.headers) response.set(name, value);
      if (shared_.healthChecks && answerHealthCheck(request, response, shared_.readiness)) return;
      shared_.handler(request, response);
    } catch (...) {
      // Poco would log and drop the connection; answer something a client can act on instead.
      if (!response.sent()) {
        try {
          response.setKeepAlive(false);
          response.setStatusAndReason(Poco::Net::HTTPResponse::HTTP_INTERNAL_SERVER_ERROR);
          response.setContentLength(0);
          response.send();
        } catch (...) {
        }
      }
    }
  }

 private:
  const ServiceShared& shared_;
};

class Factory final : public Poco::Net::HTTPRequestHandlerFactory {
 public:
  explicit Factory(ServiceShared shared) : shared_(std::move(shared)) {}
  Poco::Net::HTTPRequestHandler* createRequestHandler(
      const Poco::Net::HTTPServerRequest&) override {
    return new Handler(shared_);
  }

 private:
  const ServiceShared shared_;
};

}  // namespace

HttpService::HttpService(std::string name, HttpHandler handler, ReadinessCheck readiness)
    : name_(std::move(name)), handler_(std::move(handler)), readiness_(std::move(readiness)) {}

HttpService::~HttpService() { stop(); }

Status HttpService::start(const std::string& address, std::uint16_t port, int threads,
                          Poco::Net::Context::Ptr tls) {
  if (server_) return makeError(name_ + " is already running");
  try {
    Poco::Net::ServerSocket socket =
        tls ? Poco::Net::ServerSocket(Poco::Net::SecureServerSocket(tls))
            : Poco::Net::ServerSocket();
    // SO_REUSEADDR for quick restarts; never SO_REUSEPORT, which would let a second process
    // share the port and take half of the webhooks.
    socket.bind(Poco::Net::SocketAddress(address, port), true, false);
    socket.listen(64);
    port_ = socket.address().port();
    Poco::Net::HTTPServerParams::Ptr params = new Poco::Net::HTTPServerParams;
    params->setMaxThreads(threads);
    params->setMaxQueued(256);
    params->setKeepAlive(true);
    params->setMaxKeepAliveRequests(1000);
    params->setKeepAliveTimeout(Poco::Timespan(15, 0));
    params->setTimeout(Poco::Timespan(20, 0));
    params->setServerName(name_);
    // One thread more than requests served: Poco's dispatcher runs on the pool too.
    pool_ = std::make_unique<Poco::ThreadPool>(1, threads + 1, 60);
    server_ = std::make_unique<Poco::Net::HTTPServer>(
        new Factory(ServiceShared{handler_, readiness_, headers_, healthChecks_}), *pool_, socket,
        params);
    server_->start();
  } catch (const Poco::Exception& e) {
    server_.reset();
    pool_.reset();
    return makeError(name_ + " cannot listen on " + address + ":" + std::to_string(port) + ": " +
                         e.displayText(),
                     ErrorKind::kIo);
  }
  return {};
}

void HttpService::stop() {
  if (!server_) return;
  try {
    server_->stopAll(false);
  } catch (...) {
  }
  pool_->joinAll();
  server_.reset();
  pool_.reset();
}

void sendJson(Poco::Net::HTTPServerResponse& response, int status, const std::string& body,
              bool bodyRead) {
  response.setStatusAndReason(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(status));
  if (status == 401) response.set("WWW-Authenticate", "Bearer");
  if (status == 503) response.set("Retry-After", "5");
  if (!bodyRead) response.setKeepAlive(false);
  response.setContentType("application/json");
  response.setContentLength(static_cast<std::streamsize>(body.size()));
  std::ostream& out = response.send();
  out.write(body.data(), static_cast<std::streamsize>(body.size()));
}

std::string jsonError(const std::string& text) {
  return json::canonical(json::Object{{"error", text}});
}

std::optional<std::string> readRequestBody(Poco::Net::HTTPServerRequest& request,
                                           std::size_t maxBytes) {
  if (request.hasContentLength() &&
      request.getContentLength64() > static_cast<Poco::Int64>(maxBytes)) {
    return std::nullopt;
  }
  std::string body;
  std::istream& in = request.stream();
  char buf[8192];
  while (in) {
    in.read(buf, sizeof buf);
    body.append(buf, static_cast<std::size_t>(in.gcount()));
    if (body.size() > maxBytes) return std::nullopt;
  }
  return body;
}

}  // namespace atoms::drivers
