// TerminalSubsystem: time-clock terminals in `atoms-edge serve` (docs/terminals.md). Off unless
// terminal.listen is set. Then it reads terminal.tokens_file (required, mode 0600), builds the
// PunchLedger over the engine thread (a PostingStoreRunner: the engine owns the store) and starts
// the TerminalServer on terminal.listen (host:port). stop() stops the server (joining its
// threads), so no punch is accepted after it returns.
//
// Refuses to start, with one line naming the key, when terminal.tokens_file is missing, unreadable,
// readable by others or malformed, or when the address cannot be bound.
//
// Refused requests (bad token, wrong terminal, bad body, ...) are audited as "terminal.refused"
// from the engine thread, at most kRefusalAuditsPerMinute a minute (the entry after a gap carries
// how many were left out), so a flood from the LAN cannot flood the log.
//
// Threading: construction, setPunchListener, start and stop on the main thread. The punch
// listener runs on the engine thread. Must be started after the store and the engine and stopped
// before them (EdgeServer's order does that).
#pragma once

#include <Poco/Logger.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/service/service_subsystem.h"
#include "daemon/service/site_breakers.h"
#include "domain/site/site_model.h"
#include "drivers/http/health_probe.h"

namespace atoms {

class RefusalAudit;
class StoreSubsystem;
class EngineSubsystem;
namespace drivers::terminal {
class TerminalServer;
}  // namespace drivers::terminal
class PostingStoreRunner;
namespace terminal {
class PunchLedger;
}  // namespace terminal

class TerminalSubsystem final : public ServiceSubsystem {
 public:
  static constexpr int kRefusalAuditsPerMinute = 20;
  using PunchListener = std::function<void(const std::vector<site::Punch>&)>;

  TerminalSubsystem(Poco::Logger& logger, StoreSubsystem& store, EngineSubsystem& engine);
  ~TerminalSubsystem() override;
  const char* name() const override { return "terminal"; }

  // Before start(). Called on the engine thread after each commit of accepted punches, with them
  // in request order (the store already holds them). Must not block on other threads; an
  // exception it throws is logged and does not undo the punches.
  void setPunchListener(PunchListener listener) { listener_ = std::move(listener); }
  // Before start(). Where BRK-CONN-terminals hears about the terminals (PolicySubsystem::
  // reportBreaker): a refused token (401/403) is an auth failure, a stored punch request a
  // success. Called on server and engine threads; must be quick.
  // What GET /readyz on this service's HTTP listener checks (drivers/http/health_probe.h).
  // Before start().
  void setReadiness(drivers::ReadinessCheck readiness) { readiness_ = std::move(readiness); }
  void setBreakerReports(std::function<void(BreakerReport)> reports) {
    breakerReports_ = std::move(reports);
  }

  // The port the server is bound to (useful with port 0); 0 when stopped or off.
  std::uint16_t port() const;

 protected:
  Status start(Poco::Util::Application& app) override;
  void stop() override;

 private:
  void tearDown();  // main thread

  Poco::Logger& logger_;
  StoreSubsystem& store_;
  EngineSubsystem& engine_;
  PunchListener listener_;
  std::function<void(BreakerReport)> breakerReports_;
  drivers::ReadinessCheck readiness_;

  std::unique_ptr<atoms::PostingStoreRunner> runner_;
  std::unique_ptr<terminal::PunchLedger> ledger_;
  std::unique_ptr<drivers::terminal::TerminalServer> server_;
  std::unique_ptr<RefusalAudit> refusalAudit_;  // used on the engine thread only
  bool active_ = false;  // engine thread (and main thread before the server starts)
};

}  // namespace atoms
