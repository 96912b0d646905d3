// A client of the approvals API (daemon/api/approvals_server.h) for tests: one request over real
// HTTP on 127.0.0.1, its status, Allow header and body (parsed as JSON when it is JSON).
#pragma once

#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/StreamCopier.h>

#include <cstdint>
#include <optional>
#include <string>

#include "base/canonical_json.h"

namespace atoms::testing {

struct ApiReply {
  int status = 0;
  std::string allow;
  std::string retryAfter;
  std::string body;
  json::Value json;  // null when the body is not JSON

  const json::Object& object() const { return json.asObject(); }
  std::string error() const {
    if (!json.isObject() || json.asObject().count("error") == 0) return "";
    return json.asObject().at("error").asString();
  }
};

inline ApiReply apiRequest(std::uint16_t port, const std::string& method, const std::string& path,
                           const std::optional<std::string>& token, const std::string& body = "") {
  Poco::Net::HTTPClientSession session("127.0.0.1", port);
  session.setTimeout(Poco::Timespan(10, 0));
  Poco::Net::HTTPRequest request(method, path, Poco::Net::HTTPMessage::HTTP_1_1);
  if (token) request.set("Authorization", "Bearer " + *token);
  if (method != "GET") {  // a POST without a length would be read until the connection closes
    request.setContentType("application/json");
    request.setContentLength(static_cast<std::streamsize>(body.size()));
  }
  session.sendRequest(request) << body;
  Poco::Net::HTTPResponse response;
  std::istream& in = session.receiveResponse(response);
  ApiReply reply;
  Poco::StreamCopier::copyToString(in, reply.body);
  reply.status = static_cast<int>(response.getStatus());
  reply.allow = response.get("Allow", "");
  reply.retryAfter = response.get("Retry-After", "");
  if (auto parsed = json::parse(reply.body)) reply.json = std::move(*parsed);
  return reply;
}

}  // namespace atoms::testing
