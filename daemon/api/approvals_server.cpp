#include "daemon/api/approvals_server.h"

#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>

#include <optional>
#include <utility>

#include "daemon/api/approvals_resource.h"
#include "drivers/http/http_service.h"

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
  const std::string& uri = request.getURI();
  const FrontDoor door{"api", drivers::sendJson, options_.onRefused};
  router_.serve(
      request, response, uri.substr(0, uri.find('?')), door, [&](const ApiRoute&) -> ApiCaller {
        const std::string token = drivers::bearerToken(request);
        const std::optional<std::string> person = tokens_.lookup(token);
        if (person) return *person;
        // No detail to the caller: whether the token was missing or wrong is for the
        // audit only.
        return apiRefusal(401, "unauthorized", token.empty() ? "no bearer token" : "unknown token");
      });
}

}  // namespace atoms::api
