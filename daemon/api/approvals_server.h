// ApprovalsServer: the box's JSON API on its own port for machines and scripts, with bearer tokens
// (docs/api.md): the approvals (approvals_resource.h) and the other resources of
// options.resources, routed by ApiRouter (api_router.h), which the panel uses too with sessions.
// Every request carries `Authorization: Bearer <token>`; the token's id is a person of the site
// (drivers/http/bearer_tokens.h).
//
// Checks, in order, each failure answered {"error":"..."} without reaching a resource:
//   path (404), method (405 with Allow), token missing or unknown (401, no detail; the body is not
//   read); then the router's: query (400), body over maxBodyBytes (413), and the work on the
//   writer with a deadline (503 when it did not run: nothing was done).
//
// Every answer but a 200 is reported to onRefused (for the rate-limited audit), except the
// refusals a resource audited itself (the desk's approval.refused, in the decision's
// transaction).
//
// Threading: resources run on the writer (base/writer.h), which must outlive the server;
// onRefused is called from the server's threads, concurrently (thread-safe and quick).
// start()/stop() from one thread; after stop() returns nothing here is called again and no task
// of ours is left that could still run (a task past its deadline is skipped). No token ever
// appears in an error or a RefusedApiRequest.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "base/writer_call.h"
#include "daemon/api/api_router.h"
#include "daemon/api/approvals_resource.h"
#include "domain/callout/approval_book.h"
#include "drivers/http/bearer_tokens.h"
#include "drivers/http/health_probe.h"

namespace Poco::Net {
class HTTPServerRequest;
class HTTPServerResponse;
}  // namespace Poco::Net

namespace atoms::drivers {
class HttpService;
}

namespace atoms::api {

struct ApprovalsServerOptions {
  std::string address = "127.0.0.1";
  std::uint16_t port = 0;  // 0: any free port (port() says which)
  int threads = 4;
  std::size_t maxBodyBytes = 16 * 1024;
  // How long a request waits for the writer to take it up before it is answered 503.
  std::chrono::milliseconds writerTimeout{5000};
  std::function<void(const RefusedApiRequest&)> onRefused;
  // What GET /readyz checks (drivers/http/health_probe.h); none by default.
  drivers::ReadinessCheck readiness;
  // More resources on the same port (api_resource.h): the kill switch...; asked in order for a
  // path that is not an approval's.
  std::vector<std::shared_ptr<ApiResource>> resources;
};

class ApprovalsServer {
 public:
  ApprovalsServer(drivers::BearerTokens tokens, BookSource books, Writer& writer,
                  ApprovalsServerOptions options);
  ~ApprovalsServer();
  ApprovalsServer(const ApprovalsServer&) = delete;
  ApprovalsServer& operator=(const ApprovalsServer&) = delete;

  // Binds and starts serving; an error names the address when it cannot listen.
  Status start();
  void stop();
  std::uint16_t port() const;

 private:
  void serve(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response);

  drivers::BearerTokens tokens_;
  ApprovalsServerOptions options_;
  ApiRouter router_;
  std::unique_ptr<drivers::HttpService> server_;
};

}  // namespace atoms::api
