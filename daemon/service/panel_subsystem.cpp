#include "daemon/service/panel_subsystem.h"

#include <chrono>

#include "base/timestamp.h"
#include "base/writer_call.h"
#include "daemon/log/log.h"
#include "daemon/panel/box_certificate.h"
#include "daemon/panel/change_feed.h"
#include "daemon/panel/panel_api.h"
#include "daemon/panel/panel_auth.h"
#include "daemon/panel/panel_config.h"
#include "daemon/panel/panel_server.h"
#include "daemon/service/api_subsystem.h"
#include "daemon/service/config_schema.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/listen_address.h"
#include "daemon/service/sms_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "sms/mailbox/outbox.h"
#include "store/site_store.h"
#include "store/store_runner.h"

namespace atoms {
namespace {

constexpr std::chrono::minutes kSweepEvery{1};
// Live pages at once (each holds one of the server's threads, PanelServerOptions::threads).
constexpr int kLiveStreams = 8;

// https://host[:port] from panel.listen; empty when that is no one address browsers could use.
std::string panelOriginFrom(const std::string& host, std::uint16_t port) {
  if (host.empty() || host == "0.0.0.0" || host == "::" || host == "[::]" || port == 0) return "";
  const std::string name =
      host.find(':') != std::string::npos && host.front() != '[' ? "[" + host + "]" : host;
  return "https://" + name + (port == 443 ? std::string() : ":" + std::to_string(port));
}

}  // namespace

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
  if (Status s = startAccounts(app, listen->host, listen->port, options); !s) {
    stop();
    return s;
  }
  const std::string redirectHost = options.redirectAddress;
  server_ = std::make_unique<panel::PanelServer>(std::move(options));
  if (Status s = server_->start(); !s) {
    stop();
    return makeError("panel: " + s.message(), s.kind());
  }
  fingerprint_ = info.fingerprint;
  std::vector<std::pair<std::string, std::string>> fields{
      {"listen", listen->host + ":" + std::to_string(server_->port())},
      {"fingerprint", info.fingerprint}};
  fields.emplace_back("sign_in", origin_.empty() ? "off" : origin_);
  if (!redirectHost.empty()) {
    fields.emplace_back("redirect", redirectHost + ":" + std::to_string(server_->redirectPort()));
  }
  logEvent(logger_, Poco::Message::PRIO_INFORMATION, "panel started", fields);
  return Status::success();
}

Status PanelSubsystem::startAccounts(Poco::Util::Application& app, const std::string& listenHost,
                                     std::uint16_t listenPort, panel::PanelServerOptions& options) {
  if (engine_ == nullptr || sms_ == nullptr) return Status::success();
  const auto& config = app.config();
  std::string origin = configString(config, "panel.origin");
  if (origin.empty()) origin = panelOriginFrom(listenHost, listenPort);
  if (origin.empty()) {
    logWarning(logger_,
               "sign-in is off: set panel.origin to the https://name:port browsers open the panel "
               "at (panel.listen names no single address)",
               {{"listen", listenHost + ":" + std::to_string(listenPort)}});
    return Status::success();
  }
  Engine& engine = engine_->engine();
  const Clock& clock = engine_->clock();
  runner_ = std::make_unique<PostingStoreRunner>(store_.store(), engine);
  sms::mailbox::Outbox* outbox = sms_->outbox();
  if (outbox == nullptr) {
    ownOutbox_ = std::make_unique<sms::mailbox::Outbox>(
        *runner_, [&clock] { return clock.now(); }, [] { return 0.5; });
    outbox = ownOutbox_.get();
    logWarning(logger_, "sms.driver is off: sign-in codes cannot be texted, use passwords");
  }
  panel::PanelAuthOptions authOptions = panel::panelAuthOptionsFrom(config);
  authOptions.panelOrigin = origin;
  auth_ = std::make_unique<panel::PanelAuth>(*runner_, *outbox, clock, store_.store().identity(),
                                             std::move(authOptions));
  panel::PanelApiOptions apiOptions;
  if (resources_ != nullptr && resources_->router() != nullptr) {
    apiOptions.router = resources_->router();
    ApiSubsystem* resources = resources_;
    apiOptions.onRefused = [resources](const api::RefusedApiRequest& e) {
      resources->reportRefused(e);
    };
  }
  feed_ = std::make_unique<panel::ChangeFeed>(kLiveStreams);
  apiOptions.feed = feed_.get();
  api_ =
      std::make_unique<panel::PanelApi>(*auth_, *runner_, clock, &logger_, std::move(apiOptions));
  options.api = api_.get();
  const auto armed = callOnWriter(engine, [this, &clock] {
    AuditLog& log = store_.store().log();
    feed_->published(log.size());
    panel::ChangeFeed* feed = feed_.get();
    log.setCommitObserver([feed](std::uint64_t size) { feed->published(size); });
    sweeping_ = true;
    sweepTimer_ = engine_->engine().schedule(clock.now() + kSweepEvery, [this] { sweep(); });
    return true;
  });
  if (!armed) return makeError("panel: the engine did not answer at start");
  origin_ = origin;
  return Status::success();
}

void PanelSubsystem::sweep() {
  if (!sweeping_) return;
  if (auto ended = auth_->sweepExpired(); !ended) {
    logWarning(logger_, "could not end expired panel sessions", {{"error", ended.message()}});
  }
  sweepTimer_ =
      engine_->engine().schedule(engine_->clock().now() + kSweepEvery, [this] { sweep(); });
}

void PanelSubsystem::stop() {
  // Live streams end first (the server waits for its requests), then the server: after it
  // stopped (joined its threads) nothing calls the API or PanelAuth.
  if (feed_) feed_->close();
  if (server_) server_->stop();
  server_.reset();
  if (runner_ && sweeping_) {
    (void)callOnWriter(engine_->engine(), [this] {
      store_.store().log().setCommitObserver({});
      sweeping_ = false;
      if (sweepTimer_ != 0) engine_->engine().cancel(sweepTimer_);
      sweepTimer_ = 0;
      return true;
    });
  }
  sweeping_ = false;
  api_.reset();
  feed_.reset();
  auth_.reset();
  ownOutbox_.reset();
  runner_.reset();
  fingerprint_.clear();
  origin_.clear();
}

}  // namespace atoms
