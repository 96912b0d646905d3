// A small client for the panel tests: one request over HTTPS that trusts exactly the given
// certificate file (and checks the host name against it, as a browser does), or over plain HTTP.
// Requests are sent as written: the path is not normalised or encoded.
#pragma once

#include <Poco/Net/Context.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/HTTPSClientSession.h>
#include <Poco/Net/X509Certificate.h>
#include <Poco/StreamCopier.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "daemon/panel/box_certificate.h"

namespace atoms::test {

struct PanelReply {
  int status = 0;
  Poco::Net::NameValueCollection headers;
  std::string body;
  std::string peerFingerprint;  // HTTPS: SHA-256 of the certificate the server sent
};

inline Poco::Net::Context::Ptr trustingOnly(const std::string& certFile) {
  Poco::Net::Context::Params params;
  params.caLocation = certFile;
  params.verificationMode = Poco::Net::Context::VERIFY_RELAXED;
  params.loadDefaultCAs = false;
  return new Poco::Net::Context(Poco::Net::Context::TLS_CLIENT_USE, params);
}

inline PanelReply exchange(Poco::Net::HTTPClientSession& session, const std::string& method,
                           const std::string& path,
                           const std::map<std::string, std::string>& headers,
                           const std::string& body = "") {
  session.setTimeout(Poco::Timespan(10, 0));
  Poco::Net::HTTPRequest request(method, path, Poco::Net::HTTPMessage::HTTP_1_1);
  for (const auto& [k, v] : headers) request.set(k, v);
  if (!body.empty() || method == "POST") {
    request.setContentLength(static_cast<std::streamsize>(body.size()));
  }
  session.sendRequest(request) << body;
  Poco::Net::HTTPResponse response;
  std::istream& in = session.receiveResponse(response);
  PanelReply reply;
  reply.status = response.getStatus();
  for (const auto& [k, v] : response) reply.headers.add(k, v);
  std::ostringstream received;
  Poco::StreamCopier::copyStream(in, received);
  reply.body = received.str();
  return reply;
}

// GET (or `method`) https://host:port/path, trusting only certFile.
inline PanelReply httpsRequest(std::uint16_t port, const std::string& path,
                               const std::string& certFile, const std::string& method = "GET",
                               const std::map<std::string, std::string>& headers = {},
                               const std::string& host = "127.0.0.1",
                               const std::string& body = "") {
  Poco::Net::HTTPSClientSession session(host, port, trustingOnly(certFile));
  PanelReply reply = exchange(session, method, path, headers, body);
  const X509* peer = session.serverCertificate().certificate();
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (peer != nullptr && X509_digest(peer, EVP_sha256(), md, &n) == 1) {
    reply.peerFingerprint = panel::colonHex(std::vector<unsigned char>(md, md + n));
  }
  return reply;
}

inline PanelReply httpRequest(std::uint16_t port, const std::string& path,
                              const std::map<std::string, std::string>& headers = {}) {
  Poco::Net::HTTPClientSession session("127.0.0.1", port);
  return exchange(session, "GET", path, headers);
}

}  // namespace atoms::test
