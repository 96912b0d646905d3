#include "drivers/terminal/terminal_server.h"

#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>

#include <exception>

#include "drivers/http/http_service.h"
#include "drivers/http/printable.h"

namespace atoms::drivers::terminal {
namespace {

void answer(Poco::Net::HTTPServerResponse& response, int status, const std::string& body,
            bool bodyRead) {
  if (status == 405) response.set("Allow", "POST");
  sendJson(response, status, body, bodyRead);
}

std::string errorBody(const std::string& error) { return jsonError(error); }

}  // namespace

TerminalServer::TerminalServer(BearerTokens tokens, PunchSink& sink, TerminalServerOptions options)
    : tokens_(std::move(tokens)), sink_(sink), options_(std::move(options)) {}

TerminalServer::~TerminalServer() { stop(); }

Status TerminalServer::start() {
  if (server_ && server_->running()) return makeError("the terminal server is already running");
  server_ = std::make_unique<HttpService>(
      "atoms-edge terminals",
      [this](Poco::Net::HTTPServerRequest& req, Poco::Net::HTTPServerResponse& resp) {
        serve(req, resp);
      },
      options_.readiness);
  return server_->start(options_.address, options_.port, options_.threads);
}

void TerminalServer::stop() {
  if (server_) server_->stop();
}

std::uint16_t TerminalServer::port() const { return server_ ? server_->boundPort() : 0; }

void TerminalServer::refused(RefusedPunchRequest event) const {
  if (!options_.onRefused) return;
  try {
    options_.onRefused(event);
  } catch (...) {
    // An auditing hook must not turn an answered request into a 500.
  }
}

void TerminalServer::serve(Poco::Net::HTTPServerRequest& request,
                           Poco::Net::HTTPServerResponse& response) {
  RefusedPunchRequest event;
  const std::string path = request.getURI().substr(0, request.getURI().find('?'));
  event.path = printable(path, 100);
  event.peer = request.clientAddress().toString();
  auto refuse = [&](int status, std::string reason, const std::string& body, bool bodyRead) {
    event.httpStatus = status;
    event.reason = std::move(reason);
    answer(response, status, body, bodyRead);
    refused(std::move(event));
  };

  if (path != kPunchesPath) return refuse(404, "no such path", errorBody("not found"), false);
  if (request.getMethod() != "POST") {
    return refuse(405, "method " + printable(request.getMethod(), 20) + " not allowed",
                  errorBody("method not allowed"), false);
  }
  const std::string token = bearerToken(request);
  std::optional<std::string> terminal = tokens_.lookup(token);
  if (!terminal) {
    // No detail to the caller: whether the token was missing or wrong is for the audit only.
    return refuse(401, token.empty() ? "no bearer token" : "unknown token",
                  errorBody("unauthorized"), false);
  }
  event.terminal = *terminal;
  std::optional<std::string> body = readRequestBody(request, options_.maxBodyBytes);
  if (!body) {
    return refuse(413, "body over the limit of " + std::to_string(options_.maxBodyBytes) + " bytes",
                  errorBody("body too large"), false);
  }
  Result<PunchBatch> batch = parsePunchRequest(*body);
  if (!batch) return refuse(400, batch.message(), errorBody(batch.message()), true);
  if (batch->terminal != *terminal) {
    const std::string reason = "the token is terminal '" + *terminal +
                               "' but the body says terminal '" + batch->terminal + "'";
    return refuse(403, reason, errorBody("the token is not for terminal '" + batch->terminal + "'"),
                  true);
  }

  Result<std::vector<PunchOutcome>> outcomes = makeError("not stored");
  try {
    outcomes = sink_.accept(*batch);
  } catch (const std::exception& e) {
    outcomes = makeError(std::string("the sink threw: ") + e.what());
  } catch (...) {
    outcomes = makeError("the sink threw");
  }
  if (outcomes && outcomes->size() != batch->punches.size()) {
    outcomes = makeError("the sink returned " + std::to_string(outcomes->size()) +
                         " outcomes for " + std::to_string(batch->punches.size()) + " punches");
  }
  if (!outcomes) {
    return refuse(503, "not stored: " + printable(outcomes.message(), 300),
                  errorBody("not stored, try again"), true);
  }
  answer(response, 200, encodePunchResponse(batch->terminal, *outcomes), true);
}

}  // namespace atoms::drivers::terminal
