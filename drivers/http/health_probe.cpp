#include "drivers/http/health_probe.h"

#include <Poco/Net/HTTPRequest.h>

#include <ostream>

#include "base/canonical_json.h"

namespace atoms::drivers {

namespace {

void answer(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response,
            int status, const json::Value& body) {
  const std::string text = json::canonical(body) + "\n";
  response.setStatusAndReason(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(status));
  response.set("Cache-Control", "no-store");
  response.setContentType("application/json");
  response.setContentLength(static_cast<std::streamsize>(text.size()));
  std::ostream& out = response.send();
  if (request.getMethod() != Poco::Net::HTTPRequest::HTTP_HEAD) {
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  }
}

}  // namespace

bool answerHealthCheck(Poco::Net::HTTPServerRequest& request,
                       Poco::Net::HTTPServerResponse& response, const ReadinessCheck& readiness) {
  const std::string& method = request.getMethod();
  if (method != Poco::Net::HTTPRequest::HTTP_GET && method != Poco::Net::HTTPRequest::HTTP_HEAD) {
    return false;
  }
  const std::string& uri = request.getURI();
  const std::string path = uri.substr(0, uri.find('?'));
  if (path == "/healthz") {
    answer(request, response, 200, json::Object{{"status", "ok"}});
    return true;
  }
  if (path != "/readyz") return false;
  Readiness r{true, {}};
  if (readiness) r = readiness();
  json::Object checks;
  for (const auto& [name, state] : r.checks) checks[name] = state;
  answer(request, response, r.ready ? 200 : 503,
         json::Object{{"status", r.ready ? "ready" : "not ready"}, {"checks", std::move(checks)}});
  return true;
}

}  // namespace atoms::drivers
