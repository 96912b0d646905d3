#include "daemon/service/panel_subsystem.h"

#include <chrono>

#include "base/timestamp.h"
#include "daemon/log/log.h"
#include "daemon/panel/box_certificate.h"
#include "daemon/panel/panel_server.h"
#include "daemon/service/config_schema.h"
#include "daemon/service/listen_address.h"
#include "daemon/service/store_subsystem.h"

namespace atoms {

PanelSubsystem::PanelSubsystem(Poco::Logger& logger, StoreSubsystem& store)
    : logger_(logger), store_(store) {}

PanelSubsystem::~PanelSubsystem() { stop(); }

std::uint16_t PanelSubsystem::port() const { return server_ ? server_->port() : 0; }

std::uint16_t PanelSubsystem::redirectPort() const { return server_ ? server_->redirectPort() : 0; }

Status PanelSubsystem::start(Poco::Util::Application& app) {
  const auto& config = app.config();
  const std::string listenText = configString(config, "panel.listen");
  if (listenText.empty()) {
    logInfo(logger_, "the panel is off (panel.listen is empty)");
    return Status::success();
  }
  const std::optional<ListenAddress> listen = parseListenAddress(listenText);
  if (!listen) return makeError("panel.listen '" + listenText + "': expected host:port");
  panel::PanelServerOptions options;
  options.address = listen->host;
  options.port = listen->port;
  options.readiness = readiness_;
  const std::string redirectText = configString(config, "panel.redirect_listen");
  if (!redirectText.empty()) {
    const std::optional<ListenAddress> redirect = parseListenAddress(redirectText);
    if (!redirect) {
      return makeError("panel.redirect_listen '" + redirectText + "': expected host:port");
    }
    options.redirectAddress = redirect->host;
    options.redirectPort = redirect->port;
  }
  options.certFile = configString(config, "panel.cert_file");
  options.keyFile = configString(config, "panel.key_file");
  // Real time, not the engine's clock: browsers check the certificate against their own.
  const auto now = std::chrono::system_clock::now();
  panel::CertificateInfo info;
  if (options.certFile.empty() != options.keyFile.empty()) {
    return makeError("panel.cert_file and panel.key_file go together: set both or neither");
  }
  if (options.certFile.empty()) {
    const auto paths = panel::BoxCertificatePaths::under(store_.stateDir());
    std::vector<std::string> extra;
    if (listen->host != "0.0.0.0" && listen->host != "::") extra.push_back(listen->host);
    auto own = panel::ensureBoxCertificate(paths, panel::boxCertificateNames(extra), now);
    if (!own) return makeError("the panel's certificate: " + own.message());
    if (!own->made.empty()) {
      logWarning(
          logger_, "made a new certificate for the panel: browsers will ask to trust it again",
          {{"why", own->made}, {"file", paths.cert}, {"fingerprint", own->info.fingerprint}});
    }
    info = own->info;
    options.certFile = paths.cert;
    options.keyFile = paths.key;
    options.certKey = "the box's certificate";
    options.keyKey = "the box's key";
  } else {
    auto theirs = panel::readCertificate(options.certFile);
    if (!theirs) return makeError("panel.cert_file: " + theirs.message());
    info = *theirs;
    if (info.notAfter <= now) {
      logWarning(logger_, "panel.cert_file has expired: browsers will refuse the panel",
                 {{"file", options.certFile}, {"not_after", formatTimestamp(info.notAfter)}});
    } else if (info.notAfter - now < std::chrono::hours(24 * panel::kBoxCertificateRenewDays)) {
      logWarning(logger_, "panel.cert_file expires soon: replace it",
                 {{"file", options.certFile}, {"not_after", formatTimestamp(info.notAfter)}});
    }
  }
  const std::string redirectHost = options.redirectAddress;
  server_ = std::make_unique<panel::PanelServer>(std::move(options));
  if (Status s = server_->start(); !s) {
    server_.reset();
    return makeError("panel: " + s.message(), s.kind());
  }
  fingerprint_ = info.fingerprint;
  std::vector<std::pair<std::string, std::string>> fields{
      {"listen", listen->host + ":" + std::to_string(server_->port())},
      {"fingerprint", info.fingerprint}};
  if (!redirectHost.empty()) {
    fields.emplace_back("redirect", redirectHost + ":" + std::to_string(server_->redirectPort()));
  }
  logEvent(logger_, Poco::Message::PRIO_INFORMATION, "panel started", fields);
  return Status::success();
}

void PanelSubsystem::stop() {
  if (server_) server_->stop();
  server_.reset();
  fingerprint_.clear();
}

}  // namespace atoms
