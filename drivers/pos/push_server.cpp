#include "drivers/pos/push_server.h"

#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>

#include <exception>

#include "drivers/http/http_service.h"
#include "drivers/http/printable.h"
#include "drivers/pos/push_request.h"

namespace atoms::drivers::pos {

std::string pushSource(const std::string& pos) { return "push:" + pos; }

PushServer::PushServer(BearerTokens tokens, OrderSink& sink, PushServerOptions options)
    : tokens_(std::move(tokens)), sink_(sink), options_(std::move(options)) {}

PushServer::~PushServer() { stop(); }

Status PushServer::start() {
  if (server_ && server_->running()) return makeError("the POS push server is already running");
  server_ = std::make_unique<HttpService>(
      "atoms-edge pos push",
      [this](Poco::Net::HTTPServerRequest& req, Poco::Net::HTTPServerResponse& resp) {
        serve(req, resp);
      },
      options_.readiness);
  return server_->start(options_.address, options_.port, options_.threads, options_.tls);
}

void PushServer::stop() {
  if (server_) server_->stop();
}

std::uint16_t PushServer::port() const { return server_ ? server_->boundPort() : 0; }

void PushServer::serve(Poco::Net::HTTPServerRequest& request,
                       Poco::Net::HTTPServerResponse& response) {
  RefusedPush event;
  event.peer = request.clientAddress().toString();
  auto refuse = [&](int status, std::string reason, const std::string& answer, bool bodyRead) {
    if (status == 405) response.set("Allow", "POST");
    event.httpStatus = status;
    event.reason = std::move(reason);
    sendJson(response, status, jsonError(answer), bodyRead);
    if (!options_.onRefused) return;
    try {
      options_.onRefused(event);
    } catch (...) {
      // An auditing hook must not turn an answered request into a 500.
    }
  };
  auto status = [&](SourceStatus s) {
    if (!options_.onStatus) return;
    try {
      options_.onStatus(s);
    } catch (...) {
    }
  };

  const std::string path = request.getURI().substr(0, request.getURI().find('?'));
  if (path != kPushPath)
    return refuse(404, "no such path " + printable(path, 60), "not found", false);
  if (request.getMethod() != "POST") {
    return refuse(405, "method " + printable(request.getMethod(), 20) + " not allowed",
                  "method not allowed", false);
  }
  const std::string token = bearerToken(request);
  const std::optional<std::string> pos = tokens_.lookup(token);
  if (!pos) {
    return refuse(401, token.empty() ? "no bearer token" : "unknown token", "unauthorized", false);
  }
  event.pos = *pos;
  const std::optional<std::string> body = readRequestBody(request, kMaxPushBytes);
  if (!body) return refuse(413, "body over 1 MiB", "body too large", false);
  Result<PushRequest> parsed = parsePushRequest(*body);
  if (!parsed) return refuse(400, parsed.message(), parsed.message(), true);
  if (parsed->pos != *pos) {
    return refuse(403,
                  "the token is POS '" + *pos + "' but the body says POS '" + parsed->pos + "'",
                  "the token is not for POS '" + parsed->pos + "'", true);
  }
  OrderBatch batch{pushSource(*pos), parsed->orders, std::nullopt,
                   "push from " + printable(event.peer, 60)};
  Result<BatchOutcome> outcome = makeError("not stored");
  try {
    outcome = sink_.accept(batch);
  } catch (const std::exception& e) {
    outcome = makeError(std::string("the sink threw: ") + e.what());
  } catch (...) {
    outcome = makeError("the sink threw");
  }
  if (!outcome) {
    status({batch.source, SourceStatus::Kind::kFailing, printable(outcome.message(), 300)});
    return refuse(503, "not stored: " + printable(outcome.message(), 300), "not stored, try again",
                  true);
  }
  status({batch.source, SourceStatus::Kind::kOk, ""});
  sendJson(response, 200, encodePushResponse(*pos, parsed->orders, outcome->outcomes), true);
}

}  // namespace atoms::drivers::pos
