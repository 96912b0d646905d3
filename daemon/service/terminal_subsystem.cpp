#include "daemon/service/terminal_subsystem.h"

#include <exception>

#include "base/canonical_json.h"
#include "daemon/engine/engine.h"
#include "daemon/log/log.h"
#include "daemon/service/config_schema.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/listen_address.h"
#include "daemon/service/refusal_audit.h"
#include "daemon/service/store_subsystem.h"
#include "domain/terminal/punch_ledger.h"
#include "drivers/http/bearer_tokens.h"
#include "drivers/terminal/terminal_server.h"
#include "store/store_runner.h"

namespace atoms {

TerminalSubsystem::TerminalSubsystem(Poco::Logger& logger, StoreSubsystem& store,
                                     EngineSubsystem& engine)
    : logger_(logger), store_(store), engine_(engine) {}

TerminalSubsystem::~TerminalSubsystem() { tearDown(); }

std::uint16_t TerminalSubsystem::port() const { return server_ ? server_->port() : 0; }

Status TerminalSubsystem::start(Poco::Util::Application& app) {
  const std::string listenText = configString(app.config(), "terminal.listen");
  if (listenText.empty()) {
    logInfo(logger_, "time-clock terminals are off (terminal.listen is empty)");
    return Status::success();
  }
  const std::optional<ListenAddress> listen = parseListenAddress(listenText);
  if (!listen) {
    return makeError("terminal.listen '" + listenText + "': expected host:port");
  }
  const std::string tokensFile = configString(app.config(), "terminal.tokens_file");
  if (tokensFile.empty()) {
    return makeError("terminal.tokens_file must be set when terminal.listen is");
  }
  auto tokens = drivers::BearerTokens::load(tokensFile, "terminal.tokens_file", "terminal");
  if (!tokens) return tokens.error();
  const std::size_t terminals = tokens->size();

  Engine& engine = engine_.engine();
  const Clock& clock = engine_.clock();
  runner_ = std::make_unique<atoms::PostingStoreRunner>(store_.store(), engine);
  terminal::PunchLedger::Listener onAccepted;
  if (listener_ || breakerReports_) {
    onAccepted = [this](const std::vector<site::Punch>& punches) {
      if (breakerReports_) {
        breakerReports_(
            {BreakerReport::Kind::kSuccess, connectionBreakerId("terminals"), {}, "terminals"});
      }
      if (!listener_) return;
      try {
        listener_(punches);
      } catch (const std::exception& e) {
        logError(logger_, "the punch listener failed", {{"error", e.what()}});
      } catch (...) {
        logError(logger_, "the punch listener failed");
      }
    };
  }
  ledger_ = std::make_unique<terminal::PunchLedger>(
      *runner_, [&clock] { return clock.now(); }, std::move(onAccepted));
  refusalAudit_ = std::make_unique<RefusalAudit>("terminal.refused", "terminal request refused",
                                                 kRefusalAuditsPerMinute);

  drivers::terminal::TerminalServerOptions options;
  options.readiness = readiness_;
  options.address = listen->host;
  options.port = listen->port;
  options.onRefused = [this, &engine, &clock](const drivers::terminal::RefusedPunchRequest& e) {
    if (breakerReports_ && (e.httpStatus == 401 || e.httpStatus == 403)) {
      breakerReports_({BreakerReport::Kind::kAuthFailure, connectionBreakerId("terminals"),
                       e.reason, "terminals"});
    }
    // Server thread: hand the audit to the engine, which owns the store; never wait here.
    (void)engine.post([this, e, &clock] {
      if (!active_) return;
      json::Object body{{"status", static_cast<std::int64_t>(e.httpStatus)},
                        {"reason", e.reason},
                        {"path", e.path},
                        {"peer", e.peer}};
      if (!e.terminal.empty()) body["terminal"] = e.terminal;
      refusalAudit_->record(store_.store(), logger_,
                            e.terminal.empty() ? "terminal" : "terminal:" + e.terminal,
                            std::move(body), clock.now(),
                            {{"status", e.httpStatus},
                             {"reason", e.reason},
                             {"terminal", e.terminal},
                             {"peer", e.peer}});
    });
  };
  server_ = std::make_unique<drivers::terminal::TerminalServer>(std::move(*tokens), *ledger_,
                                                                std::move(options));
  active_ = true;  // before anything can post to the engine
  if (Status s = server_->start(); !s) {
    tearDown();
    return makeError("terminal.listen " + listenText + ": " + s.message());
  }
  logInfo(logger_, "time-clock terminals started",
          {{"listen", listen->host + ":" + std::to_string(server_->port())},
           {"terminals", static_cast<std::int64_t>(terminals)}});
  if (terminals == 0) {
    logWarning(logger_, "terminal.tokens_file lists no terminal: every request is refused",
               {{"file", tokensFile}});
  }
  return Status::success();
}

void TerminalSubsystem::stop() { tearDown(); }

void TerminalSubsystem::tearDown() {
  // After the server stopped (it joins its threads) the ledger is never called again.
  if (server_) server_->stop();
  if (runner_ && active_) {
    // Refusal audits already posted run before this; after it, none touches us. An error means
    // the engine stopped: then it runs nothing more either.
    (void)runner_->run([this](SiteStore&) {
      active_ = false;
      return Status::success();
    });
  }
  active_ = false;
  server_.reset();
  ledger_.reset();
  refusalAudit_.reset();
  runner_.reset();
}

}  // namespace atoms
