// PanelSubsystem: the manager's panel in `atoms-edge serve` (daemon/panel/panel_server.h,
// docs/panel.md). Off unless panel.listen is set. Then it serves HTTPS on panel.listen with the
// operator's certificate (panel.cert_file and panel.key_file, both or neither) or else the box's
// own from the state directory (DIR/panel.crt, DIR/panel.key: made by `init`, and made again here
// when missing or within 30 days of expiry, ensureBoxCertificate), and, when
// panel.redirect_listen is set, plain HTTP there that only redirects to it. Logs the
// certificate's SHA-256 fingerprint at start.
//
// Refuses to start, with one line naming the key, when an address does not parse or cannot be
// bound, when only one of panel.cert_file and panel.key_file is set, or when a certificate or key
// file is missing, unreadable or not a match.
//
// For now the panel serves its embedded shell (sign-in placeholder, navigation) and nothing of
// the site; pages and accounts come with their own services.
//
// Threading: construction, start and stop on the main thread. Started after the store (for the
// state directory).
#pragma once

#include <Poco/Logger.h>

#include <cstdint>
#include <memory>
#include <string>

#include "daemon/service/service_subsystem.h"
#include "drivers/http/health_probe.h"

namespace atoms {

class StoreSubsystem;
namespace panel {
class PanelServer;
}

class PanelSubsystem final : public ServiceSubsystem {
 public:
  PanelSubsystem(Poco::Logger& logger, StoreSubsystem& store);
  ~PanelSubsystem() override;
  const char* name() const override { return "panel"; }

  // What GET /readyz on the panel checks (drivers/http/health_probe.h). Before start().
  void setReadiness(drivers::ReadinessCheck readiness) { readiness_ = std::move(readiness); }

  // The bound ports (useful with port 0); 0 when stopped, off, or (redirect) not configured.
  std::uint16_t port() const;
  std::uint16_t redirectPort() const;
  // The SHA-256 fingerprint of the certificate served; empty when stopped or off.
  const std::string& fingerprint() const { return fingerprint_; }

 protected:
  Status start(Poco::Util::Application& app) override;
  void stop() override;

 private:
  Poco::Logger& logger_;
  StoreSubsystem& store_;
  drivers::ReadinessCheck readiness_;
  std::unique_ptr<panel::PanelServer> server_;
  std::string fingerprint_;
};

}  // namespace atoms
