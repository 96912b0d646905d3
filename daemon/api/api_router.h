// ApiRouter: the part of the box's JSON API (docs/api.md) that does not depend on how the caller
// signed in. Two front doors use it: the API port with bearer tokens (approvals_server.h) and the
// manager's panel with sessions (daemon/panel/panel_api.h), so both answer the same paths with
// the same resources in the same way.
//
// A front door hands a request to serve(), which matches the path (404 when no resource serves
// it, 405 with Allow when the method is not one it takes), asks the door who is calling, then
// calls run(), which
// checks the query (400 unless the resource takes one), reads a POST body (413 over the limit) and
// runs the resource's handle() on the writer (base/writer_call.h) with a deadline: 503 when the
// writer did not take it up in time, is stopping, or the handler threw. Nothing was done then.
//
// Threading: match, allowHeader and run are called from HTTP server threads, concurrently; the
// resources' handle() runs on the writer, one at a time. The writer and the resources must
// outlive the router.
#pragma once

#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/writer.h"
#include "daemon/api/api_resource.h"

namespace atoms::api {

struct ApiRouterOptions {
  std::size_t maxBodyBytes = 16 * 1024;
  // How long a request waits for the writer to take it up before it is answered 503.
  std::chrono::milliseconds writerTimeout{5000};
};

// A request a front door did not answer 200 (and that no resource audited itself), for the
// refusal audit.
struct RefusedApiRequest {
  int httpStatus = 0;       // 400, 401, 403, 404, 405, 409, 413, 503
  std::string reason;       // one line of printable ASCII; never a token
  std::string method;       // made printable
  std::string path;         // without the query, made printable
  std::string peer;         // "127.0.0.1:51234"
  std::string person;       // the token's person; empty when no token matched
  std::string via = "api";  // the front door: "api" (bearer tokens) or "panel" (sessions)
};

// The resource serving a path and the methods it takes there; no resource: nothing served.
struct ApiRoute {
  ApiResource* resource = nullptr;
  std::vector<std::string> methods;
};

// A front door (the API port, the panel): how it answers and where its refusals go.
struct FrontDoor {
  std::string via;  // "api" or "panel", in RefusedApiRequest::via
  std::function<void(Poco::Net::HTTPServerResponse& response, int status, const std::string& body,
                     bool bodyRead)>
      send;
  std::function<void(const RefusedApiRequest&)> onRefused;  // may be empty
};

// Who is calling (a person id), or the answer to give instead; an answer marked audited is not
// reported to onRefused (the front door recorded it, or it is not worth recording).
using ApiCaller = std::variant<std::string, ApiAnswer>;

// "GET, POST": the Allow header of a 405.
std::string allowHeader(const std::vector<std::string>& methods);

class ApiRouter {
 public:
  ApiRouter(Writer& writer, std::vector<std::shared_ptr<ApiResource>> resources,
            ApiRouterOptions options = {});

  // The first resource that serves `path` (without the query).
  ApiRoute match(std::string_view path) const;

  // Runs `call` (method, path, query and person filled in; the body is read here) on the writer
  // through `route`'s resource. `bodyRead` says afterwards whether the request's body was read
  // whole (else the connection must close after the answer).
  ApiAnswer run(const ApiRoute& route, Poco::Net::HTTPServerRequest& http, ApiRequest call,
                bool& bodyRead) const;

  // A whole request at `door`: `path` (the resource's, without the query) matched (404), the
  // method (405 with Allow), `identify` (the door's own check of who calls), then run(). Every
  // answer but a 200 that nobody audited goes to door.onRefused.
  void serve(Poco::Net::HTTPServerRequest& http, Poco::Net::HTTPServerResponse& response,
             const std::string& path, const FrontDoor& door,
             const std::function<ApiCaller(const ApiRoute&)>& identify) const;

 private:
  Writer& writer_;
  std::vector<std::shared_ptr<ApiResource>> resources_;
  ApiRouterOptions options_;
};

}  // namespace atoms::api
