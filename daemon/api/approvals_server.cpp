#include "daemon/api/approvals_server.h"

#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>

#include <algorithm>
#include <optional>
#include <utility>

#include "daemon/api/approvals_resource.h"
#include "drivers/http/http_service.h"
#include "drivers/http/printable.h"

namespace atoms::api {
namespace {

// The approvals first, then the other resources, in order.
std::vector<std::shared_ptr<ApiResource>> withApprovals(
    BookSource books, const std::vector<std::shared_ptr<ApiResource>>& more) {
  std::vector<std::shared_ptr<ApiResource>> all{
      std::make_shared<ApprovalsResource>(std::move(books))};
  all.insert(all.end(), more.begin(), more.end());
  return all;
}

}  // namespace

ApprovalsServer::ApprovalsServer(drivers::BearerTokens tokens, BookSource books, Writer& writer,
                                 ApprovalsServerOptions options)
    : tokens_(std::move(tokens)),
      options_(std::move(options)),
      router_(writer, withApprovals(std::move(books), options_.resources),
              ApiRouterOptions{options_.maxBodyBytes, options_.writerTimeout}) {}

ApprovalsServer::~ApprovalsServer() { stop(); }

Status ApprovalsServer::start() {
  if (server_ && server_->running()) return makeError("the approvals API is already running");
  server_ = std::make_unique<drivers::HttpService>(
      "atoms-edge api",
      [this](Poco::Net::HTTPServerRequest& req, Poco::Net::HTTPServerResponse& resp) {
        serve(req, resp);
      },
      options_.readiness);
  return server_->start(options_.address, options_.port, options_.threads);
}

void ApprovalsServer::stop() {
  if (server_) server_->stop();
}

std::uint16_t ApprovalsServer::port() const { return server_ ? server_->boundPort() : 0; }

void ApprovalsServer::serve(Poco::Net::HTTPServerRequest& request,
                            Poco::Net::HTTPServerResponse& response) {
  RefusedApiRequest event;
  const std::string& uri = request.getURI();
  const std::size_t question = uri.find('?');
  const std::string path = uri.substr(0, question);
  const std::string query = question == std::string::npos ? "" : uri.substr(question + 1);
  event.method = drivers::printable(request.getMethod(), 20);
  event.path = drivers::printable(path, 100);
  event.peer = request.clientAddress().toString();
  bool bodyRead = false;  // until the router says otherwise: the connection closes after a refusal
  auto answer = [&](const ApiAnswer& a) {
    drivers::sendJson(response, a.status, a.body, bodyRead);
    if (a.status == 200 || a.audited || !options_.onRefused) return;
    event.httpStatus = a.status;
    event.reason = a.reason;
    try {
      options_.onRefused(event);
    } catch (...) {
      // An auditing hook must not turn an answered request into a 500.
    }
  };

  const ApiRoute route = router_.match(path);
  if (route.resource == nullptr) return answer(apiRefusal(404, "not found", "no such path"));
  if (std::find(route.methods.begin(), route.methods.end(), request.getMethod()) ==
      route.methods.end()) {
    response.set("Allow", allowHeader(route.methods));
    return answer(apiRefusal(405, "method not allowed", "method " + event.method + " not allowed"));
  }
  const std::string token = drivers::bearerToken(request);
  const std::optional<std::string> person = tokens_.lookup(token);
  if (!person) {
    // No detail to the caller: whether the token was missing or wrong is for the audit only.
    return answer(
        apiRefusal(401, "unauthorized", token.empty() ? "no bearer token" : "unknown token"));
  }
  event.person = *person;
  answer(router_.run(route, request, ApiRequest{request.getMethod(), path, query, *person, ""},
                     bodyRead));
}

}  // namespace atoms::api
