#include "daemon/service/pos_subsystem.h"

#include <sys/stat.h>

#include <exception>

#include "base/canonical_json.h"
#include "base/file_io.h"
#include "base/timestamp.h"
#include "daemon/engine/engine.h"
#include "daemon/log/log.h"
#include "daemon/panel/box_certificate.h"
#include "daemon/service/config_schema.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/forecast_config.h"
#include "daemon/service/intraday_watcher.h"
#include "daemon/service/listen_address.h"
#include "daemon/service/refusal_audit.h"
#include "daemon/service/store_subsystem.h"
#include "domain/pos/sales_book.h"
#include "domain/pos/site_local_time.h"
#include "domain/site/site_repository.h"
#include "drivers/http/bearer_tokens.h"
#include "drivers/http/server_tls.h"
#include "drivers/pos/csv_folder.h"
#include "drivers/pos/feed_poller.h"
#include "drivers/pos/poll_thread.h"
#include "drivers/pos/push_server.h"
#include "drivers/pos/square_feed.h"
#include "store/store_runner.h"

namespace atoms {
namespace {

using drivers::pos::SourceStatus;

// The site's time zone, read on the engine thread.
Result<site::TimeZone> siteZone(StoreRunner& runner) {
  std::string name;
  Status read = runner.run([&](SiteStore& store) -> Status {
    auto model = site::loadSite(store.db());
    if (!model) return model.error();
    name = model->site.timeZone;
    return Status::success();
  });
  if (!read || name.empty()) {
    return makeError("pos: the site has no time zone yet; import the site file first (" +
                         (read ? std::string("no time zone") : read.message()) + ")",
                     ErrorKind::kInvalid);
  }
  return site::TimeZone::locate(name);
}

// A token file must be the owner's alone, like the key files.
Status privateFile(const std::string& path, const std::string& key) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return makeError(key + " " + path + " cannot be read");
  if ((st.st_mode & 077) != 0) {
    return makeError(key + " " + path + " is readable by others: chmod 600 it",
                     ErrorKind::kInvalid);
  }
  return Status::success();
}

}  // namespace

PosSubsystem::PosSubsystem(Poco::Logger& logger, StoreSubsystem& store, EngineSubsystem& engine)
    : logger_(logger), store_(store), engine_(engine) {}

PosSubsystem::~PosSubsystem() { tearDown(); }

std::uint16_t PosSubsystem::pushPort() const { return pushServer_ ? pushServer_->port() : 0; }

Status PosSubsystem::start(Poco::Util::Application& app) {
  const auto& config = app.config();
  const bool square = !configString(config, "pos.square.location_ids").empty();
  const bool push = !configString(config, "pos.push.listen").empty();
  const bool csv = !configString(config, "pos.csv.directory").empty();
  if (!square && !push && !csv) {
    logInfo(logger_,
            "POS is off (no pos.square.location_ids, pos.push.listen or pos.csv.directory)");
    return Status::success();
  }
  runner_ = std::make_unique<PostingStoreRunner>(store_.store(), engine_.engine());
  auto zone = siteZone(*runner_);
  if (!zone) {
    tearDown();
    return zone.error();
  }
  const Clock& clock = engine_.clock();
  book_ = std::make_unique<pos::SalesBook>(*runner_, *zone, [&clock] { return clock.now(); });
  active_ = true;
  Status started = Status::success();
  if (square) started = startSquare(config);
  if (started && push) started = startPush(config);
  if (started && csv) started = startCsv(config);
  if (started) started = startIntraday(config, *zone);
  if (!started) {
    tearDown();
    return started;
  }
  return Status::success();
}

Status PosSubsystem::startIntraday(const Poco::Util::AbstractConfiguration& config,
                                   const site::TimeZone& zone) {
  auto settings = forecastSettings(config);
  if (!settings) return settings.error();
  const std::chrono::minutes period(configInteger(config, "intraday.check_minutes"));
  if (settings->standards.empty() || period.count() == 0) return Status::success();
  intraday_ = std::make_unique<IntradayWatcher>(
      engine_.engine(), store_.store(), health_, zone, std::move(*settings),
      configString(config, "labor.rules_dir"), period, logger_);
  intraday_->setAnnounce(announce_);
  IntradayWatcher* watcher = intraday_.get();
  return runner_->run([watcher](SiteStore&) {
    watcher->start();
    return Status::success();
  });
}

void PosSubsystem::onStatus(const SourceStatus& status) {
  const Clock& clock = engine_.clock();
  const TimePoint now = clock.now();
  if (breakerReports_) {
    const BreakerReport::Kind kind =
        status.kind == SourceStatus::Kind::kOk           ? BreakerReport::Kind::kSuccess
        : status.kind == SourceStatus::Kind::kAuthFailed ? BreakerReport::Kind::kAuthFailure
                                                         : BreakerReport::Kind::kFailure;
    breakerReports_({kind, connectionBreakerId("pos"), status.detail, "pos"});
  }
  if (!health_.record(status, now)) return;
  const std::string state = status.kind == SourceStatus::Kind::kOk           ? "fresh"
                            : status.kind == SourceStatus::Kind::kAuthFailed ? "halted"
                                                                             : "failing";
  if (status.kind == SourceStatus::Kind::kOk) {
    logInfo(logger_, "POS data flows again", {{"source", status.source}});
  } else {
    logWarning(logger_, "POS connection problem",
               {{"source", status.source}, {"state", state}, {"error", status.detail}});
  }
  // Audited from the engine thread, which owns the store; never wait here.
  (void)engine_.engine().post([this, status, state, now] {
    if (!active_) return;
    json::Object body{{"source", status.source}, {"state", state}};
    if (!status.detail.empty()) body["detail"] = status.detail;
    if (auto s = store_.store().log().append(formatTimestamp(now), "pos.health",
                                             "pos:" + status.source, json::Value(std::move(body)));
        !s) {
      logError(logger_, "cannot audit a POS health change", {{"error", s.message()}});
    }
  });
}

Status PosSubsystem::startSquare(const Poco::Util::AbstractConfiguration& config) {
  drivers::pos::SquareConfig c;
  c.baseUrl = configString(config, "pos.square.base_url");
  c.squareVersion = configString(config, "pos.square.version");
  c.locationIds = splitConfigList(configString(config, "pos.square.location_ids"));
  c.currency = configString(config, "pos.square.currency");
  const std::string tokenFile = configString(config, "pos.square.access_token_file");
  if (tokenFile.empty()) {
    return makeError("pos.square.access_token_file must be set with pos.square.location_ids");
  }
  if (Status s = privateFile(tokenFile, "pos.square.access_token_file"); !s) return s;
  auto token = readSecretLine(tokenFile, "pos.square.access_token_file");
  if (!token) return token.error();
  c.accessToken = std::move(*token);
  if (Status s = drivers::pos::validateSquareConfig(c); !s) return s;
  const std::string source = c.source;
  squareFeed_ = std::make_unique<drivers::pos::SquareFeed>(std::move(c));
  drivers::pos::FeedPollerOptions options;
  options.interval = std::chrono::seconds(configInteger(config, "pos.square.poll_seconds"));
  options.overlap = std::chrono::minutes(configInteger(config, "pos.square.overlap_minutes"));
  squarePoller_ = std::make_unique<drivers::pos::FeedPoller>(
      *squareFeed_, *book_, options, [this](const SourceStatus& s) { onStatus(s); });
  std::optional<TimePoint> lastContact;
  (void)runner_->run([&](SiteStore& store) -> Status {
    auto last = pos::sourceLastContact(store.db(), source);
    if (last) lastContact = *last;
    return Status::success();
  });
  const Clock& clock = engine_.clock();
  health_.watch(source, options.interval * 3 + std::chrono::minutes(2), lastContact, clock.now());
  squareThread_ = std::make_unique<drivers::pos::PollThread>([this, &clock] {
    return squarePoller_->pollOnce(
        std::chrono::time_point_cast<std::chrono::milliseconds>(clock.now()));
  });
  squareThread_->start();
  logInfo(logger_, "Square POS polling started",
          {{"locations", configString(config, "pos.square.location_ids")},
           {"every_s", static_cast<std::int64_t>(options.interval.count())}});
  return Status::success();
}

Status PosSubsystem::startPush(const Poco::Util::AbstractConfiguration& config) {
  const std::string listenText = configString(config, "pos.push.listen");
  const std::optional<ListenAddress> listen = parseListenAddress(listenText);
  if (!listen) return makeError("pos.push.listen '" + listenText + "': expected host:port");
  const std::string tokensFile = configString(config, "pos.push.tokens_file");
  if (tokensFile.empty()) return makeError("pos.push.tokens_file must be set with pos.push.listen");
  auto tokens = drivers::BearerTokens::load(tokensFile, "pos.push.tokens_file", "pos");
  if (!tokens) return tokens.error();
  drivers::pos::PushServerOptions options;
  options.address = listen->host;
  options.port = listen->port;
  options.readiness = readiness_;
  options.onStatus = [this](const SourceStatus& s) { onStatus(s); };
  refusalAudit_ =
      std::make_unique<RefusalAudit>("pos.refused", "POS push refused", kRefusalAuditsPerMinute);
  options.onRefused = [this](const drivers::pos::RefusedPush& r) {
    if (breakerReports_ && (r.httpStatus == 401 || r.httpStatus == 403)) {
      breakerReports_(
          {BreakerReport::Kind::kAuthFailure, connectionBreakerId("pos"), r.reason, "pos"});
    }
    // Server thread: hand the audit to the engine, which owns the store; never wait here.
    const TimePoint now = engine_.clock().now();
    (void)engine_.engine().post([this, r, now] {
      if (!active_) return;
      json::Object body{{"status", static_cast<std::int64_t>(r.httpStatus)},
                        {"reason", r.reason},
                        {"peer", r.peer}};
      if (!r.pos.empty()) body["pos"] = r.pos;
      refusalAudit_->record(
          store_.store(), logger_, r.pos.empty() ? "pos" : "pos:" + r.pos, std::move(body), now,
          {{"status", r.httpStatus}, {"reason", r.reason}, {"pos", r.pos}, {"peer", r.peer}});
    });
  };
  if (configString(config, "pos.push.tls") == "on") {
    drivers::ServerTlsFiles files{configString(config, "pos.push.cert_file"),
                                  configString(config, "pos.push.key_file"), "pos.push.cert_file",
                                  "pos.push.key_file"};
    if (files.certFile.empty() != files.keyFile.empty()) {
      return makeError("pos.push.cert_file and pos.push.key_file go together: set both or neither");
    }
    if (files.certFile.empty()) {
      const auto paths = panel::BoxCertificatePaths::under(store_.stateDir());
      auto own = panel::ensureBoxCertificate(paths, panel::boxCertificateNames({}),
                                             std::chrono::system_clock::now());
      if (!own) return makeError("pos.push: the box's certificate: " + own.message());
      files = {paths.cert, paths.key, "the box's certificate", "the box's key"};
    }
    auto tls = drivers::serverTlsContext(files);
    if (!tls) return tls.error();
    options.tls = *tls;
  }
  for (const std::string& id : tokens->ids()) {
    health_.watch(drivers::pos::pushSource(id), std::chrono::seconds(0), std::nullopt,
                  engine_.clock().now());
  }
  pushServer_ =
      std::make_unique<drivers::pos::PushServer>(std::move(*tokens), *book_, std::move(options));
  if (Status s = pushServer_->start(); !s)
    return makeError("pos.push.listen " + listenText + ": " + s.message());
  logInfo(logger_, "POS push server started",
          {{"listen", listen->host + ":" + std::to_string(pushServer_->port())},
           {"tls", configString(config, "pos.push.tls")}});
  return Status::success();
}

Status PosSubsystem::startCsv(const Poco::Util::AbstractConfiguration& config) {
  const std::string directory = configString(config, "pos.csv.directory");
  const std::string source = "csv:" + configString(config, "pos.csv.name");
  if (!pos::isValidSourceId(source)) {
    return makeError("pos.csv.name: letters, digits, '-', '_', '.' only", ErrorKind::kInvalid);
  }
  drivers::pos::CsvMapping mapping;
  mapping.id = configString(config, "pos.csv.column.id");
  mapping.closedAt = configString(config, "pos.csv.column.closed_at");
  mapping.net = configString(config, "pos.csv.column.net");
  mapping.covers = configString(config, "pos.csv.column.covers");
  mapping.revenueCenter = configString(config, "pos.csv.column.revenue_center");
  mapping.state = configString(config, "pos.csv.column.state");
  mapping.returnOf = configString(config, "pos.csv.column.return_of");
  mapping.returned = configString(config, "pos.csv.column.returned");
  mapping.version = configString(config, "pos.csv.column.version");
  const std::string delimiter = configString(config, "pos.csv.delimiter");
  mapping.delimiter = delimiter == "tab" ? '\t' : delimiter.empty() ? ',' : delimiter[0];
  mapping.amountsInCents = configString(config, "pos.csv.amounts") == "cents";
  const site::TimeZone zone = book_ ? book_->zone() : site::TimeZone::locate("UTC").value();
  mapping.localTime = [zone](std::string_view text) { return pos::parseSiteLocalTime(text, zone); };
  csvFolder_ =
      std::make_unique<drivers::pos::CsvFolder>(directory, source, std::move(mapping), *book_,
                                                [this](const SourceStatus& s) { onStatus(s); });
  // The folder must be usable now: a typo in the path is a start error, not a silent nothing.
  auto first = csvFolder_->scanOnce();
  if (!first) return first.error();
  health_.watch(source, std::chrono::seconds(0), std::nullopt, engine_.clock().now());
  const std::chrono::seconds every(configInteger(config, "pos.csv.scan_seconds"));
  csvThread_ = std::make_unique<drivers::pos::PollThread>(
      [this, every]() -> std::optional<std::chrono::seconds> {
        if (auto scan = csvFolder_->scanOnce(); !scan) {
          logError(logger_, "the POS drop folder cannot be scanned", {{"error", scan.message()}});
        }
        return every;
      });
  csvThread_->start();
  logInfo(logger_, "POS drop folder watched", {{"directory", directory}, {"source", source}});
  return Status::success();
}

void PosSubsystem::stop() { tearDown(); }

void PosSubsystem::tearDown() {
  // Threads and servers first: after they stopped nothing calls the book again.
  if (squareThread_) squareThread_->stop();
  if (csvThread_) csvThread_->stop();
  if (pushServer_) pushServer_->stop();
  if (runner_ && active_) {
    // Health audits already posted run before this; after it, none touches us.
    (void)runner_->run([this](SiteStore&) {
      active_ = false;
      if (intraday_) intraday_->stop();
      return Status::success();
    });
  }
  active_ = false;
  intraday_.reset();
  squareThread_.reset();
  csvThread_.reset();
  pushServer_.reset();
  squarePoller_.reset();
  squareFeed_.reset();
  csvFolder_.reset();
  refusalAudit_.reset();
  book_.reset();
  runner_.reset();
}

}  // namespace atoms
