// BreakerBoard: the site's breakers (seed 001 section 8; operator page docs/policy-breakers.md)
// kept in the store and audited: BRK-OUT, BRK-SCH and one BRK-CONN-<system> per connection the
// box has (the SMS gateway by its name, `terminals`, `broker`). The caller names them with their
// configurations (breaker.h); the board adds persistence and the audit trail to the pure Breaker:
// - table breaker (migration 14), one row per breaker: the state, since, the reason of the last
//   transition, and the whole Breaker::toJson() state (probe progress and every sample and signal
//   still inside its window), so a restart neither closes an open breaker nor forgets the signals
//   that are pushing a closed one towards its threshold. Not kept: a row whose breaker is no longer
//   configured is left as it is and not loaded (a connection taken out of the config stops
//   nothing); the configuration itself is the code's (BRK-OUT's volume follows the people on the
//   site, reconfigure()).
// - every transition is audited as "breaker.changed" {"breaker", "from", "to", "reason", "by"?}
//   in the same transaction as the row; a refused acknowledgement as "breaker.ack_refused"
//   {"breaker", "by", "automated", "reason"}. An input that changes no state writes the row only.
// - the trip hook runs inside the transaction of a trip (the trust budget's regression); the
//   change listener hears every committed transition (the policy subsystem: the outreach freeze).
//
// Threading: the owner thread of the Database and AuditLog (the engine thread); holds references,
// both must outlive it. Errors: values, one line; on an error nothing is written and the breaker
// is as it was.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/canonical_json.h"
#include "base/result.h"
#include "domain/policy/breaker.h"
#include "store/audit_log.h"
#include "store/database.h"

namespace atoms::policy {

// One breaker as the panel and the API show it.
struct BreakerView {
  std::string id;
  BreakerState state = BreakerState::kClosed;
  TimePoint since;
  std::string reason;  // of the transition into `state`; empty for a breaker never moved
  int probesStarted = 0;
  int cleanProbes = 0;
  int probeDecisions = 0;
  bool awaitingAck = false;
  // {"id", "state", "since" (RFC 3339), "reason", "probes": {"started", "clean", "of"},
  //  "awaitingAck"}.
  json::Value toJson() const;
};

class BreakerBoard {
 public:
  using ChangeListener = std::function<void(const BreakerEvent&)>;
  using Events = std::vector<BreakerEvent>;

  // Loads every configured breaker's row; one without a row starts Closed at `now` (written at its
  // first input). Errors: a duplicate or invalid configuration, a row that does not parse (named),
  // the store's.
  static Result<std::unique_ptr<BreakerBoard>> open(AuditLog& log, Database& db,
                                                    std::vector<BreakerConfig> configs,
                                                    TimePoint now);

  // Called after the commit, once per transition, in order.
  void setOnChange(ChangeListener listener) { onChange_ = std::move(listener); }
  // Called inside the transaction of every trip (a transition into Open), after its audit entry:
  // the trust budget's regression of the functions behind the breaker (seed 001 section 6:
  // PolicyService::recordBreakerTripIn) commits with the trip or not at all. An error fails the
  // input: nothing is written and the breaker stays as it was.
  using TripHook = std::function<Status(AuditLog::Batch&, const BreakerEvent&)>;
  void setOnTrip(TripHook hook) { onTrip_ = std::move(hook); }

  // Inputs of one breaker (breaker.h), stored and audited with `actor` ("sms", "terminals",
  // "engine"). Errors: an unknown breaker, the breaker's (an unwatched signal), the store's.
  Result<Events> recordSuccess(std::string_view id, TimePoint at, std::string_view actor);
  Result<Events> recordFailure(std::string_view id, TimePoint at, std::string_view actor,
                               std::string_view what);
  Result<Events> recordHeartbeat(std::string_view id, TimePoint at, std::string_view actor);
  Result<Events> recordSignal(std::string_view id, TimePoint at, std::string_view actor,
                              std::string_view signal);
  Result<Events> trip(std::string_view id, TimePoint at, std::string_view actor,
                      std::string_view reason);
  // Time passing for every breaker (staleness, cooldown end, probe window end); stores only the
  // breakers that moved. Returns every transition.
  Result<Events> tick(TimePoint at);
  // A person closes a half-open breaker whose probe window is clean. A refusal (an automated
  // acker, too early, a trip signal present, not half-open) is audited and returned as the error;
  // an unknown breaker is an error and audits nothing (there is nothing to attribute it to).
  Result<BreakerEvent> acknowledge(std::string_view id, TimePoint at, const BreakerAcker& who);

  // An incident during the probe window (seed 001 EC-RISK-006): every half-open breaker starts
  // its probe window again at `at` (Breaker::restartProbe), audited as "breaker.probe_restarted"
  // {"breaker", "reason"} with `actor`, all in one transaction. Returns the ids restarted (none:
  // nothing is written). Errors: the store's; nothing changes then.
  Result<std::vector<std::string>> restartProbes(TimePoint at, std::string_view actor,
                                                 std::string_view reason);

  // New rules for a breaker already on the board (same id), keeping its state: BRK-OUT's volume
  // when the number of people on the site changes. Not audited (no state moves); stored at the
  // next input. Errors: unknown id, an invalid configuration.
  Status reconfigure(BreakerConfig config);

  bool has(std::string_view id) const { return breakers_.count(std::string(id)) > 0; }
  // Open or half-open breakers: what the gate clamps on (PolicyState::openBreakers).
  std::set<std::string> openBreakers() const;
  bool isOpen(std::string_view id) const;
  // nullopt for a breaker the site does not have.
  std::optional<BreakerState> stateOf(std::string_view id) const;
  // Every breaker, by id.
  std::vector<BreakerView> list(TimePoint at) const;

 private:
  struct Entry {
    Breaker breaker;
    std::string reason;
  };
  using Step = std::function<Result<Events>(Breaker&)>;

  BreakerBoard(AuditLog& log, Database& db) : log_(&log), db_(&db) {}
  Result<Events> apply(std::string_view id, TimePoint at, std::string_view actor, const Step& step);
  Status store(AuditLog::Batch& batch, const std::string& id, const Entry& entry, TimePoint at,
               std::string_view actor, const Events& events);
  void announce(const Events& events);

  AuditLog* log_;
  Database* db_;
  std::map<std::string, Entry> breakers_;
  ChangeListener onChange_;
  TripHook onTrip_;
};

}  // namespace atoms::policy
