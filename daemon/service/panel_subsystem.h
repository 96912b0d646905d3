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
// Sign-in (daemon/panel/panel_api.h, docs/panel-accounts.md): with setAccounts(), a PanelAuth over
// the engine (a PostingStoreRunner: the engine owns the store) and the SMS subsystem's outbox for
// the texted codes (its own outbox over the store when sms.driver = off: the codes then wait
// there and expire unsent), the JSON API under /api/, and a timer on the engine that ends
// sessions past their limits every minute (PanelAuth::sweepExpired). The panel's origin for the
// CSRF checks is panel.origin, else https://<panel.listen> when that names one address and a
// port; otherwise (0.0.0.0, ::, port 0) sign-in is off, with a warning, and the pages still serve.
// The pages of the site come later.
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
namespace panel {
struct PanelServerOptions;
}

class StoreSubsystem;
class EngineSubsystem;
class SmsSubsystem;
class ApiSubsystem;
class PostingStoreRunner;
namespace panel {
class PanelServer;
class PanelAuth;
class PanelApi;
class ChangeFeed;
}  // namespace panel
namespace sms::mailbox {
class Outbox;
}

class PanelSubsystem final : public ServiceSubsystem {
 public:
  PanelSubsystem(Poco::Logger& logger, StoreSubsystem& store);
  ~PanelSubsystem() override;
  const char* name() const override { return "panel"; }

  // What GET /readyz on the panel checks (drivers/http/health_probe.h). Before start().
  void setReadiness(drivers::ReadinessCheck readiness) { readiness_ = std::move(readiness); }
  // Before start(): sign-in, over the engine and the SMS subsystem's outbox. Both must be started
  // before this subsystem and stopped after it. Without it the panel serves no sign-in.
  void setAccounts(EngineSubsystem& engine, SmsSubsystem& sms) {
    engine_ = &engine;
    sms_ = &sms;
  }
  // Before start(): the box's JSON API resources (ApiSubsystem::router()), served under /api/v1/
  // to whoever is signed in. Started before this subsystem, stopped after it.
  void setResources(ApiSubsystem& api) { resources_ = &api; }
  // Whether sign-in is served (started, accounts set, an origin known).
  bool signInServed() const { return api_ != nullptr; }
  // The origin sign-in checks requests against; empty when sign-in is off.
  const std::string& origin() const { return origin_; }

  // The bound ports (useful with port 0); 0 when stopped, off, or (redirect) not configured.
  std::uint16_t port() const;
  std::uint16_t redirectPort() const;
  // The SHA-256 fingerprint of the certificate served; empty when stopped or off.
  const std::string& fingerprint() const { return fingerprint_; }

 protected:
  Status start(Poco::Util::Application& app) override;
  void stop() override;

 private:
  // Builds the accounts and the API into `options` when setAccounts() was called and an origin
  // is known; logs why not otherwise.
  Status startAccounts(Poco::Util::Application& app, const std::string& listenHost,
                       std::uint16_t listenPort, panel::PanelServerOptions& options);
  void sweep();  // engine thread
  Poco::Logger& logger_;
  StoreSubsystem& store_;
  drivers::ReadinessCheck readiness_;
  EngineSubsystem* engine_ = nullptr;
  SmsSubsystem* sms_ = nullptr;
  ApiSubsystem* resources_ = nullptr;
  std::unique_ptr<PostingStoreRunner> runner_;
  std::unique_ptr<sms::mailbox::Outbox> ownOutbox_;  // only when sms.driver = off
  std::unique_ptr<panel::PanelAuth> auth_;
  std::unique_ptr<panel::ChangeFeed> feed_;
  std::unique_ptr<panel::PanelApi> api_;
  std::uint64_t sweepTimer_ = 0;  // engine thread
  bool sweeping_ = false;         // engine thread
  std::unique_ptr<panel::PanelServer> server_;
  std::string fingerprint_;
  std::string origin_;
};

}  // namespace atoms
