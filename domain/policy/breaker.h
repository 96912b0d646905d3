// Breaker: one per-function circuit breaker (seed 001 section 8; operator page
// docs/policy-breakers.md) as a pure state machine: Closed -> Open -> HalfOpen -> Closed, and
// HalfOpen -> Open on any trip signal during the probe window.
//
// - Closed: actions run. Any configured trip condition opens it: an error rate over a sliding
//   window (with a minimum number of samples), a count of a named signal over a sliding window,
//   staleness (no success or heartbeat for longer than a limit), or an explicit trip(reason) for
//   conditions computed elsewhere (fairness warn, reply-rate drop).
// - Open: the function is clamped (the gate's job: PROPOSE, outreach frozen). After the cooldown,
//   and only once every cause signal is below its threshold at that time, it goes HalfOpen.
// - HalfOpen: at most `probeDecisions` probe actions may start (allowProbe/beginProbe). The probe
//   window is clean after that many successes, or after `probeDuration` without a trip signal.
//   Clean + a human ack closes it (the seed requires the ack for every breaker; a config may drop
//   it, then clean closes). Any failure, staleness or counted signal during the probe re-opens it
//   and the cooldown starts again (the seed gives no growth, so the cooldown is constant).
// - An automated caller can never acknowledge.
//
// Time is passed in; nothing here reads a clock. A time earlier than the latest one seen is taken
// as the latest (a clock stepping back neither reopens a window nor shortens a cooldown). Counts
// "per day"/"per week" are sliding 24 h / 7 d windows, not calendar days. Every transition is
// returned as a BreakerEvent for the caller to audit; this class writes nothing.
// Threading: none (one owner thread, the engine thread). Errors: values, one line.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/canonical_json.h"
#include "base/clock.h"
#include "base/result.h"

namespace atoms::policy {

enum class BreakerState { kClosed, kOpen, kHalfOpen };

// "closed", "open", "half-open".
std::string breakerStateName(BreakerState state);

// Trips when samples in (at - window, at] >= minSamples and errors * 100 > maxErrorPercent *
// samples.
struct ErrorRateRule {
  std::chrono::seconds window{300};
  int minSamples = 5;
  int maxErrorPercent = 20;
};

// Trips when the number of `signal` events in (at - window, at] reaches `threshold` (>=).
// `reopensProbe`: one such event during HalfOpen re-opens the breaker (a bad signal: a stop-class
// reply, a swap reversal); false for volume signals (a message sent), which re-open only at the
// threshold.
struct CountRule {
  std::string signal;
  int threshold = 1;
  std::chrono::seconds window{std::chrono::hours(24)};
  bool reopensProbe = true;
};

struct BreakerConfig {
  std::string id;  // "BRK-OUT", "BRK-SCH", "BRK-CONN-<system>"
  std::optional<ErrorRateRule> errorRate;
  std::vector<CountRule> counts;
  std::optional<std::chrono::seconds> staleAfter;  // no success/heartbeat for longer trips it
  std::chrono::seconds cooldown{std::chrono::hours(24)};
  int probeDecisions = 20;                                     // seed 001 section 8
  std::chrono::seconds probeDuration{std::chrono::hours(48)};  // seed 001 section 8
  bool humanAckToClose = true;                                 // seed 001 section 8
};

// Signal names of the shipped configurations.
inline constexpr std::string_view kSignalOutreachSent = "outreach.sent";
inline constexpr std::string_view kSignalStopReply = "outreach.stop_reply";
inline constexpr std::string_view kSignalLaborViolationAtAct = "schedule.labor_violation_at_act";
inline constexpr std::string_view kSignalSwapReversal = "schedule.swap_reversal";
inline constexpr std::string_view kSignalAuthFailure = "conn.auth_failure";

// BRK-OUT: outreach > 4 x managed people per sliding day (so the threshold is 4N + 1); >= 3
// stop-class replies per day; cooldown 12 h. `managedPeople` below 1 counts as 1. Per-Chonk
// stop-class and the week-over-week reply-rate drop are computed by the caller and passed as
// trip(reason) (one Chonk per box: the per-Chonk count equals the box count at >= 2, see docs).
BreakerConfig outreachBreakerConfig(int managedPeople);
// BRK-SCH: any labor-rule violation reaching Act; >= 3 swap reversals per 7 days; cooldown 24 h.
// Fairness warn (RISK-03) is passed as trip(reason). A violation counts for 24 h (our choice).
BreakerConfig scheduleBreakerConfig();
// BRK-CONN-<system>: error rate > 20 % over 5 min; any auth failure; staleness > 1 h; cooldown
// 30 min. An auth failure counts for 1 h (our choice: the breaker stays open at least that long
// after one). The seed gives no minimum sample count: 5 is this project's choice (fewer would let
// one failed send out of two trip it; staleness covers quiet connectors).
BreakerConfig connectionBreakerConfig(std::string_view system);

// Empty message when the configuration is usable; else one line naming the field.
Status validateBreakerConfig(const BreakerConfig& config);

struct BreakerEvent {
  std::string breaker;
  BreakerState from = BreakerState::kClosed;
  BreakerState to = BreakerState::kClosed;
  std::string reason;  // "error rate 3/5 > 20% over 300 s", "acknowledged by panel:ana", ...
  TimePoint at;
  std::string by;  // the acknowledging person for a close by ack; else empty
  // "BRK-SCH closed -> open: ...".
  std::string describe() const;
};

struct BreakerAcker {
  std::string actor;       // "panel:ana", "cloud:ops:bo"
  bool automated = false;  // always refused
};

class Breaker {
 public:
  // Errors: an invalid configuration. `start` is where staleness starts counting.
  static Result<Breaker> create(BreakerConfig config, TimePoint start);
  // A breaker in the state toJson() wrote, under `config` (which may differ from the one it was
  // written under: a signal no rule watches any more is dropped). Errors: an invalid
  // configuration, a state that does not parse (the field named); nothing is half-loaded.
  static Result<Breaker> fromJson(BreakerConfig config, const json::Value& state);
  // Everything that moves: state, since, the latest time seen, the last sign of life, probe
  // progress, and the samples and signals still inside their windows (instants in Unix ms).
  json::Value toJson() const;

  const std::string& id() const { return config_.id; }
  const BreakerConfig& config() const { return config_; }
  BreakerState state() const { return state_; }
  // When the current state began.
  TimePoint since() const { return since_; }

  // May an action of the guarded function run unclamped at `at`? True only in Closed and not
  // stale at `at` (call tick() to record the staleness trip).
  bool allows(TimePoint at) const;
  // May one more probe action start at `at`? HalfOpen, probe slots left, not stale.
  bool allowProbe(TimePoint at) const;
  // Takes one probe slot. Errors: not HalfOpen, or no slot left.
  Status beginProbe(TimePoint at);

  // Inputs. Each first applies time (as tick) and returns every transition, in order.
  // A success counts as a sample for the error rate, a heartbeat, and a clean probe outcome.
  std::vector<BreakerEvent> recordSuccess(TimePoint at);
  std::vector<BreakerEvent> recordFailure(TimePoint at, std::string_view what = {});
  std::vector<BreakerEvent> recordHeartbeat(TimePoint at);
  // Errors: a signal no CountRule of this breaker watches (nothing changes then).
  Result<std::vector<BreakerEvent>> recordSignal(TimePoint at, std::string_view signal);
  // A trip condition computed by the caller. Closed or HalfOpen -> Open; Open: nothing.
  std::vector<BreakerEvent> trip(TimePoint at, std::string_view reason);
  // Staleness, cooldown end, probe window end by time.
  std::vector<BreakerEvent> tick(TimePoint at);

  // A person's ack closes a HalfOpen breaker whose probe window is clean. Errors (nothing
  // changes): an automated acker, an empty actor, not HalfOpen, window not yet clean, a trip
  // signal present at `at` (the next tick() records that transition).
  Result<BreakerEvent> acknowledge(TimePoint at, const BreakerAcker& who);

  // An incident (a SEV of any function) during the probe window: a HalfOpen breaker starts its
  // probe window again at `at` (no probe started, none clean; seed 001 EC-RISK-006). Time is not
  // applied (as acknowledge). Returns false, changing nothing, when the breaker is not HalfOpen.
  bool restartProbe(TimePoint at);

  // HalfOpen progress, for the panel.
  int probesStarted() const { return probesStarted_; }
  int cleanProbes() const { return cleanProbes_; }
  bool probeWindowClean(TimePoint at) const;
  bool awaitingAck(TimePoint at) const;

 private:
  struct Signal {
    TimePoint at;
    std::string name;
  };
  struct Sample {
    TimePoint at;
    bool ok;
  };

  explicit Breaker(BreakerConfig config, TimePoint start);

  TimePoint clampTime(TimePoint at);
  void prune(TimePoint at);
  int countIn(const CountRule& rule, TimePoint at) const;
  // The first trip condition met at `at` (in config order: staleness, error rate, counts).
  std::optional<std::string> tripReason(TimePoint at) const;
  std::optional<std::string> staleReason(TimePoint at) const;
  void advanceTime(TimePoint at, std::vector<BreakerEvent>& out);
  void moveTo(BreakerState to, TimePoint at, std::string reason, std::string by,
              std::vector<BreakerEvent>& out);

  BreakerConfig config_;
  BreakerState state_ = BreakerState::kClosed;
  TimePoint since_;
  TimePoint latest_;
  TimePoint lastAlive_;
  std::deque<Sample> samples_;
  std::deque<Signal> signals_;
  int probesStarted_ = 0;
  int cleanProbes_ = 0;
};

}  // namespace atoms::policy
