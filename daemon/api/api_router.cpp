#include "daemon/api/api_router.h"

#include <algorithm>
#include <functional>
#include <utility>

#include "base/writer_call.h"
#include "drivers/http/http_service.h"
#include "drivers/http/printable.h"

namespace atoms::api {

std::string allowHeader(const std::vector<std::string>& methods) {
  std::string allow;
  for (const std::string& m : methods) allow += (allow.empty() ? "" : ", ") + m;
  return allow;
}

ApiRouter::ApiRouter(Writer& writer, std::vector<std::shared_ptr<ApiResource>> resources,
                     ApiRouterOptions options)
    : writer_(writer), resources_(std::move(resources)), options_(options) {}

ApiRoute ApiRouter::match(std::string_view path) const {
  for (const std::shared_ptr<ApiResource>& r : resources_) {
    std::vector<std::string> methods = r->methods(path);
    if (!methods.empty()) return {r.get(), std::move(methods)};
  }
  return {};
}

ApiAnswer ApiRouter::run(const ApiRoute& route, Poco::Net::HTTPServerRequest& http, ApiRequest call,
                         bool& bodyRead) const {
  bodyRead = !http.getChunkedTransferEncoding() &&
             (!http.hasContentLength() || http.getContentLength64() == 0);
  if (!call.query.empty() && !route.resource->takesQuery(call.path)) {
    const std::string error = "query: this path takes no query";
    return apiRefusal(400, error, error + " (got '" + drivers::printable(call.query, 60) + "')");
  }
  if (call.method == "POST") {
    std::optional<std::string> read = drivers::readRequestBody(http, options_.maxBodyBytes);
    if (!read) {
      bodyRead = false;
      return apiRefusal(
          413, "body too large",
          "body over the limit of " + std::to_string(options_.maxBodyBytes) + " bytes");
    }
    bodyRead = true;
    call.body = std::move(*read);
  }
  ApiAnswer result;
  ApiResource& resource = *route.resource;
  const bool offWriter = !resource.onWriter(call.path);
  std::optional<ApiAnswer> refused;
  const WriterCall outcome = runOnWriter(writer_, options_.writerTimeout, [&] {
    if (offWriter) {
      refused = resource.admit(call);
    } else {
      result = resource.handle(call);
    }
  });
  if (outcome == WriterCall::kDone && offWriter) {
    if (refused) return *refused;
    try {
      return resource.handle(call);
    } catch (...) {
      return apiRefusal(503, "the request failed; try again", "the handler threw");
    }
  }
  switch (outcome) {
    case WriterCall::kDone:
      return result;
    case WriterCall::kThrew:
      return apiRefusal(503, "the request failed; try again", "the handler threw");
    case WriterCall::kTimedOut:
      return apiRefusal(503, "the box is busy; nothing was done, try again",
                        "the engine did not take the request in time");
    case WriterCall::kRefused:
    case WriterCall::kDropped:
      break;
  }
  return apiRefusal(503, "the box is stopping; nothing was done, try again",
                    "the engine is stopping");
}

void ApiRouter::serve(Poco::Net::HTTPServerRequest& http, Poco::Net::HTTPServerResponse& response,
                      const std::string& path, const FrontDoor& door,
                      const std::function<ApiCaller(const ApiRoute&)>& identify) const {
  const std::string& uri = http.getURI();
  const std::size_t question = uri.find('?');
  const std::string query = question == std::string::npos ? "" : uri.substr(question + 1);
  RefusedApiRequest event;
  event.via = door.via;
  event.method = drivers::printable(http.getMethod(), 20);
  event.path = drivers::printable(path, 100);
  event.peer = http.clientAddress().toString();
  bool bodyRead = false;  // until run() says otherwise: the connection closes after a refusal
  auto answer = [&](const ApiAnswer& a) {
    door.send(response, a.status, a.body, bodyRead);
    if (a.status == 200 || a.audited || !door.onRefused) return;
    event.httpStatus = a.status;
    event.reason = a.reason;
    try {
      door.onRefused(event);
    } catch (...) {
      // An auditing hook must not turn an answered request into a 500.
    }
  };
  const ApiRoute route = match(path);
  if (route.resource == nullptr) return answer(apiRefusal(404, "not found", "no such path"));
  if (std::find(route.methods.begin(), route.methods.end(), http.getMethod()) ==
      route.methods.end()) {
    response.set("Allow", allowHeader(route.methods));
    return answer(apiRefusal(405, "method not allowed", "method " + event.method + " not allowed"));
  }
  ApiCaller caller = identify(route);
  if (const auto* refused = std::get_if<ApiAnswer>(&caller)) return answer(*refused);
  event.person = std::get<std::string>(caller);
  answer(run(route, http, ApiRequest{http.getMethod(), path, query, event.person, ""}, bodyRead));
}

}  // namespace atoms::api
