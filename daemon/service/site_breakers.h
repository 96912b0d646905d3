// SiteBreakers: the site's breakers in `atoms-edge serve` (issue 7 item 3; operator page
// docs/policy-breakers.md): the BreakerBoard (domain/policy/breaker_board.h) over the store, fed
// with live signals and ticked by an engine timer. PolicySubsystem owns it.
// - Breakers: BRK-OUT (its volume limit follows the number of people on the site, read again at
//   every tick), BRK-SCH, and BRK-CONN-<system> for every connection configured
//   (configuredConnections()). Only `broker` has the 1-hour staleness rule: it is the one
//   connection the box hears from while all is quiet (the MQTT session); an SMS provider or a
//   time clock says nothing on a quiet night, which is not an outage.
// - report() takes a signal from any thread (the SMS dispatcher, HTTP server threads, the sync
//   uplink), posts it to the engine and applies it there at the engine clock's now. A report for a
//   breaker the site does not have is dropped (a debug line); an error is logged.
// - Every kTickInterval: tick() of the board (staleness, cooldown end, probe window end), and a
//   heartbeat for every connection whose last report was kConnected.
// Threading: create(), stop() and the rest on the engine thread; report() from any thread (a
// report posted after stop() is dropped). Errors: values, one line.
#pragma once

#include <Poco/Logger.h>
#include <Poco/Util/AbstractConfiguration.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "daemon/engine/engine.h"
#include "domain/policy/breaker_board.h"
#include "store/site_store.h"

namespace atoms {

// One live signal for a breaker.
struct BreakerReport {
  enum class Kind {
    kSuccess,       // a call of the connection worked (a text the provider took, a punch)
    kFailure,       // a call failed (detail: what)
    kAuthFailure,   // the connection refused our credentials (detail: what)
    kConnected,     // a session came up: a success, and heartbeats at each tick from now
    kDisconnected,  // a session went down or could not come up: a failure, heartbeats stop
    kSignal,        // a counted signal (detail: its name, breaker.h kSignal...)
    kTrip,          // a condition computed elsewhere (detail: the reason)
  };
  Kind kind = Kind::kSuccess;
  std::string breaker;  // "BRK-OUT", "BRK-CONN-twilio"
  std::string detail;
  std::string actor;  // the audit actor of a transition it causes: "sms", "terminals", "sync"
};

// "BRK-CONN-" + system.
std::string connectionBreakerId(std::string_view system);

// The connections the configuration turns on: the SMS gateway by its driver's name ("twilio",
// "modem", "simulated") and the modem behind Twilio when sms.failover = modem; "terminals" when
// terminal.listen is set; "broker" when sync.broker is set; "pos" when any POS driver is
// (docs/pos.md).
std::vector<std::string> configuredConnections(const Poco::Util::AbstractConfiguration& config);

class SiteBreakers {
 public:
  static constexpr std::chrono::seconds kTickInterval{60};

  // Engine thread. Loads the board for `connections` and starts the timer; `onTrip` and
  // `onChange` are the board's hooks (breaker_board.h). Errors: the board's.
  static Result<std::unique_ptr<SiteBreakers>> create(
      Engine& engine, SiteStore& store, Poco::Logger& logger,
      const std::vector<std::string>& connections, policy::BreakerBoard::TripHook onTrip,
      policy::BreakerBoard::ChangeListener onChange);
  ~SiteBreakers();
  SiteBreakers(const SiteBreakers&) = delete;
  SiteBreakers& operator=(const SiteBreakers&) = delete;

  // Engine thread: cancels the timer; reports already posted find the board gone and do nothing.
  void stop();
  // Any thread.
  void report(BreakerReport r);

  // Engine thread.
  policy::BreakerBoard& board() { return *board_; }
  // A person acknowledges a half-open breaker whose probe window is clean (audited both ways).
  Result<policy::BreakerEvent> acknowledge(std::string_view id, const policy::BreakerAcker& who);
  // Every breaker as the panel shows it.
  std::vector<policy::BreakerView> list();
  // Runs one tick now (tests and the timer).
  void tick();

 private:
  struct Shared;
  SiteBreakers(Engine& engine, SiteStore& store, Poco::Logger& logger);
  void apply(const BreakerReport& r);
  void schedule();
  int managedPeople();

  Engine& engine_;
  SiteStore& store_;
  Poco::Logger& logger_;
  std::unique_ptr<policy::BreakerBoard> board_;
  std::shared_ptr<Shared> shared_;  // outlives this for reports still queued
  std::set<std::string> connected_;
  int people_ = -1;
  Engine::TimerId timer_ = 0;
};

}  // namespace atoms
