// PanelServer: the manager's panel over HTTPS (docs/panel.md). One HttpService with TLS serves the
// embedded assets (panel_assets.h); an optional second, plain-HTTP listener answers every request
// with a redirect to the same path over HTTPS and nothing else (no health checks, no content).
//
// Every response of the HTTPS listener, errors and health checks included, carries the security
// headers of panelSecurityHeaders(): a strict Content-Security-Policy (no inline script or style,
// no framing), HSTS, nosniff, no referrer, same-origin opener.
//
// TLS: 1.2 and 1.3 only; for 1.2 only ECDHE with AES-GCM or ChaCha20-Poly1305 (Mozilla's
// "intermediate" list). The certificate and key are read once at start().
//
// Routes: under /api/ the sign-in API (panel_api.h) when options.api is set, else 404 JSON;
// elsewhere GET and HEAD only (anything else 405): an asset by its exact path, "/" and the page
// names (panelPageRoutes()) as /index.html (the pages route on the client), /healthz and /readyz;
// everything else 404. Assets answer 304 to a matching If-None-Match, gzip when the client
// accepts it, and Cache-Control: no-cache (revalidate each time; the ETag makes that cheap).
//
// Threading: start/stop on one thread; requests run on the service's threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "daemon/panel/panel_api.h"
#include "daemon/panel/panel_assets.h"
#include "drivers/http/health_probe.h"
#include "drivers/http/http_service.h"

namespace atoms::panel {

struct PanelServerOptions {
  std::string address = "127.0.0.1";
  std::uint16_t port = 0;  // 0: any free port (tests); port() says which
  std::string certFile, keyFile;
  std::string certKey = "panel.cert_file";  // the config keys named in errors
  std::string keyKey = "panel.key_file";
  // Plain HTTP that only redirects; empty address: none.
  std::string redirectAddress;
  std::uint16_t redirectPort = 0;
  // A browser keeps up to six connections open, each holding a thread while it is kept alive,
  // and each live page holds one for its event stream: room for a few browsers at once.
  int threads = 48;
  drivers::ReadinessCheck readiness;
  // The JSON API under /api/ (sign-in); null: none (404). Must outlive the server.
  PanelApi* api = nullptr;
};

// The headers on every HTTPS response.
std::vector<std::pair<std::string, std::string>> panelSecurityHeaders();
// The page names served as index.html: "/today", "/approvals", ...
const std::vector<std::string>& panelPageRoutes();

class PanelServer {
 public:
  explicit PanelServer(PanelServerOptions options, PanelAssets assets = PanelAssets());
  ~PanelServer();
  PanelServer(const PanelServer&) = delete;
  PanelServer& operator=(const PanelServer&) = delete;

  // Loads the certificate and key and binds both listeners. Errors are one line: a missing or
  // unreadable file names its config key and path; a key that does not match the certificate,
  // or an address that cannot be bound, says so. Nothing keeps running after an error.
  Status start();
  void stop();
  std::uint16_t port() const { return https_.boundPort(); }
  std::uint16_t redirectPort() const { return redirect_.boundPort(); }

 private:
  void serve(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response);
  void redirect(Poco::Net::HTTPServerRequest& request, Poco::Net::HTTPServerResponse& response);

  PanelServerOptions options_;
  PanelAssets assets_;
  drivers::HttpService https_;
  drivers::HttpService redirect_;
};

}  // namespace atoms::panel
