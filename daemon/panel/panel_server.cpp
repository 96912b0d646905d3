#include "daemon/panel/panel_server.h"

#include <Poco/Net/Context.h>
#include <Poco/Net/HTTPRequest.h>

#include <algorithm>
#include <cctype>
#include <ostream>

#include "drivers/http/server_tls.h"

namespace atoms::panel {
namespace {

Result<Poco::Net::Context::Ptr> serverContext(const PanelServerOptions& o) {
  return drivers::serverTlsContext({o.certFile, o.keyFile, o.certKey, o.keyKey});
}

std::string pathOf(const std::string& uri) { return uri.substr(0, uri.find_first_of("?#")); }

// A Host header's host part if it is a plain host name, IPv4 address or bracketed IPv6 address;
// empty otherwise (nothing else goes into a Location header).
std::string hostOf(const std::string& hostHeader) {
  std::string host = hostHeader;
  if (!host.empty() && host.front() == '[') {
    const std::size_t close = host.find(']');
    if (close == std::string::npos) return "";
    host = host.substr(0, close + 1);
    const bool ok = std::all_of(host.begin() + 1, host.end() - 1, [](char c) {
      return std::isxdigit(static_cast<unsigned char>(c)) || c == ':' || c == '.';
    });
    return ok && host.size() > 2 ? host : "";
  }
  host = host.substr(0, host.find(':'));
  const bool ok = std::all_of(host.begin(), host.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.';
  });
  return ok ? host : "";
}

// Whether Accept-Encoding lists gzip with a weight above zero.
bool acceptsGzip(const std::string& acceptEncoding) {
  std::string lower;
  for (char c : acceptEncoding) {
    if (c != ' ' && c != '\t')
      lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  std::size_t start = 0;
  while (start < lower.size()) {
    const std::size_t end = std::min(lower.find(',', start), lower.size());
    const std::string item = lower.substr(start, end - start);
    start = end + 1;
    if (item == "gzip") return true;
    if (!item.starts_with("gzip;q=")) continue;
    const std::string q = item.substr(7);
    return q.find_first_not_of("0.") != std::string::npos;  // "0", "0.0", "0.000": refused
  }
  return false;
}

bool etagMatches(const std::string& ifNoneMatch, const std::string& etag) {
  if (ifNoneMatch == "*") return true;
  return ifNoneMatch.find(etag) != std::string::npos;
}

void sendText(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response,
              Poco::Net::HTTPResponse::HTTPStatus status, const std::string& text) {
  response.setStatusAndReason(status);
  response.set("Cache-Control", "no-store");
  response.setContentType("text/plain; charset=utf-8");
  response.setContentLength(static_cast<std::streamsize>(text.size()));
  std::ostream& out = response.send();
  if (request.getMethod() != Poco::Net::HTTPRequest::HTTP_HEAD) {
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  }
}

}  // namespace

std::vector<std::pair<std::string, std::string>> panelSecurityHeaders() {
  return {
      {"Content-Security-Policy",
       "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"},
      // No includeSubDomains: the box's name may be a host in a domain the site uses otherwise.
      {"Strict-Transport-Security", "max-age=31536000"},
      {"X-Content-Type-Options", "nosniff"},
      {"Referrer-Policy", "no-referrer"},
      {"Cross-Origin-Opener-Policy", "same-origin"},
      {"X-Frame-Options", "DENY"},  // frame-ancestors for browsers that predate it
  };
}

const std::vector<std::string>& panelPageRoutes() {
  static const std::vector<std::string> kRoutes = {
      "/today",  "/approvals", "/call-outs", "/schedule", "/sales",   "/people",
      "/safety", "/policy",    "/audit",     "/settings", "/sign-in",
  };
  return kRoutes;
}

PanelServer::PanelServer(PanelServerOptions options, PanelAssets assets)
    : options_(std::move(options)),
      assets_(std::move(assets)),
      https_(
          "atoms-edge panel", [this](auto& rq, auto& rs) { serve(rq, rs); }, options_.readiness),
      redirect_("atoms-edge panel redirect", [this](auto& rq, auto& rs) { redirect(rq, rs); }) {
  https_.setResponseHeaders(panelSecurityHeaders());
  redirect_.setHealthChecks(false);
}

PanelServer::~PanelServer() { stop(); }

Status PanelServer::start() {
  auto context = serverContext(options_);
  if (!context) return context.error();
  if (Status s = https_.start(options_.address, options_.port, options_.threads, *context); !s) {
    return s;
  }
  if (!options_.redirectAddress.empty()) {
    if (Status s = redirect_.start(options_.redirectAddress, options_.redirectPort, 2); !s) {
      https_.stop();
      return s;
    }
  }
  return {};
}

void PanelServer::stop() {
  redirect_.stop();
  https_.stop();
}

void PanelServer::serve(Poco::Net::HTTPServerRequest& request,
                        Poco::Net::HTTPServerResponse& response) {
  const std::string& method = request.getMethod();
  if (PanelApi::isApiPath(pathOf(request.getURI()))) {
    if (options_.api != nullptr) return options_.api->handle(request, response);
    response.setStatusAndReason(Poco::Net::HTTPResponse::HTTP_NOT_FOUND);
    response.set("Cache-Control", "no-store");
    response.setKeepAlive(false);  // a body may be left unread
    const std::string text = "{\"error\":\"sign-in is not available on this box\"}";
    response.setContentType("application/json; charset=utf-8");
    response.setContentLength(static_cast<std::streamsize>(text.size()));
    response.send().write(text.data(), static_cast<std::streamsize>(text.size()));
    return;
  }
  if (method != Poco::Net::HTTPRequest::HTTP_GET && method != Poco::Net::HTTPRequest::HTTP_HEAD) {
    response.set("Allow", "GET, HEAD");
    sendText(request, response, Poco::Net::HTTPResponse::HTTP_METHOD_NOT_ALLOWED,
             "method not allowed\n");
    return;
  }
  // The path exactly as sent: no decoding, so "%2e%2e" or "%2f" can only miss.
  std::string path = pathOf(request.getURI());
  const auto& pages = panelPageRoutes();
  if (std::find(pages.begin(), pages.end(), path) != pages.end()) path = "/index.html";
  const PanelAsset* asset = assets_.find(path);
  if (asset == nullptr) {
    sendText(request, response, Poco::Net::HTTPResponse::HTTP_NOT_FOUND, "not found\n");
    return;
  }
  const bool gzip = !asset->gzipped.empty() && acceptsGzip(request.get("Accept-Encoding", ""));
  const std::string& etag = gzip ? asset->gzipEtag : asset->etag;
  const std::string& body = gzip ? asset->gzipped : asset->body;
  response.set("Cache-Control", "no-cache");
  response.set("ETag", etag);
  if (!asset->gzipped.empty()) response.set("Vary", "Accept-Encoding");
  if (etagMatches(request.get("If-None-Match", ""), etag)) {
    response.setStatusAndReason(Poco::Net::HTTPResponse::HTTP_NOT_MODIFIED);
    response.setContentLength(0);
    response.send();
    return;
  }
  response.setContentType(asset->contentType);
  if (gzip) response.set("Content-Encoding", "gzip");
  response.setContentLength(static_cast<std::streamsize>(body.size()));
  std::ostream& out = response.send();
  if (method != Poco::Net::HTTPRequest::HTTP_HEAD) {
    out.write(body.data(), static_cast<std::streamsize>(body.size()));
  }
}

void PanelServer::redirect(Poco::Net::HTTPServerRequest& request,
                           Poco::Net::HTTPServerResponse& response) {
  const std::string host = hostOf(request.getHost());
  if (host.empty()) {
    sendText(request, response, Poco::Net::HTTPResponse::HTTP_BAD_REQUEST,
             "this address only redirects to HTTPS; send a Host header\n");
    return;
  }
  std::string target = request.getURI();
  if (target.empty() || target.front() != '/') target = "/";
  const std::uint16_t port = https_.boundPort();
  const std::string location =
      "https://" + host + (port == 443 ? std::string() : ":" + std::to_string(port)) + target;
  // Poco 1.11 knows no reason phrase for 308.
  response.setStatusAndReason(Poco::Net::HTTPResponse::HTTP_PERMANENT_REDIRECT,
                              "Permanent Redirect");
  response.set("Location", location);
  response.set("Cache-Control", "no-store");
  response.setContentLength(0);
  response.send();
}

}  // namespace atoms::panel
