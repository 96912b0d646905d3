// StallWatchdog: the silent-stall watcher of seed 001 RISK-09 (issue 7 item 6; docs/watchdog.md).
// It runs on its own thread and reads the clock itself, so it does not depend on the engine's
// normal flow: when the engine thread is stuck, the watchdog still notices and still escalates.
//
// What it escalates (each a Stall with a stable key):
//   (a) "engine": the engine's heartbeat timer (which calls beat()) has not run for its cadence
//       plus `missAfter` (10 minutes: the seed's "a run not started within 10 minutes is a miss");
//   (b) "approval:<id>": an approval past its expiry that is still pending;
//   (c) "human_packet:<id>" / "safety:<id>": a HUMAN_ONLY packet or an unacknowledged safety
//       incident older than twice its SLA.
// (b) and (c) come from the facts the engine publishes with each heartbeat (publish()), judged at
// the time the engine read them: only what the engine itself still saw waiting past its limit is
// escalated, so facts a minute old never raise a stall the engine has just resolved (and when the
// engine is stuck, (a) says so).
//
// Each stall is escalated through `escalate` (the independent path: direct SMS through the gateway,
// never the engine or the outbox, docs/watchdog.md), logged always (error), and handed to `audit`
// (which posts it to the engine to be written when the store is reachable again). The same key
// is escalated at most once per `repeatAfter` (an hour).
//
// Threading: beat() and publish() from the engine thread (any thread is safe); check() from any
// thread; start()/stop() from the owner's. On a clock that follows system time the thread checks
// every `checkEvery`; on a simulated clock after each change of the clock. The callbacks run on
// the watchdog's thread (or check()'s caller), outside its lock; a callback's exception is caught
// and logged. Errors: none returned; a failed escalation is the callback's to log.
#pragma once

#include <Poco/Logger.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/clock.h"

namespace atoms {

// Something the engine knows is waiting for a human, as of its last heartbeat.
struct WatchedItem {
  enum class Kind { kApproval, kHumanPacket, kSafetyIncident };
  Kind kind = Kind::kApproval;
  std::string id;
  // kApproval: when it expires; the others: when it was opened.
  TimePoint since{};
  // The SLA of a packet or incident (stalled at since + 2 x sla); unused for an approval.
  std::chrono::minutes sla{0};
};

struct Stall {
  std::string key;   // "engine", "approval:12", "safety:3"
  std::string text;  // one line for people: what is stuck and what to do (SMS and log)
};

struct StallWatchdogOptions {
  std::chrono::milliseconds heartbeatEvery{60'000};  // the cadence of the engine's beat()
  std::chrono::milliseconds missAfter{10 * 60'000};  // a beat this late is a stalled engine
  std::chrono::milliseconds repeatAfter{60 * 60'000};
  std::chrono::milliseconds checkEvery{30'000};  // system time only
  std::string site;                              // the site's display name, for the texts
};

class StallWatchdog {
 public:
  using Callback = std::function<void(const Stall&)>;

  // `clock` and `logger` must outlive the watchdog. `escalate` and `audit` may be empty.
  StallWatchdog(Clock& clock, Poco::Logger& logger, StallWatchdogOptions options, Callback escalate,
                Callback audit);
  ~StallWatchdog();  // stop()
  StallWatchdog(const StallWatchdog&) = delete;
  StallWatchdog& operator=(const StallWatchdog&) = delete;

  // The engine's heartbeat timer ran at `at`. Until the first beat the engine is not watched.
  void beat(TimePoint at);
  // What was waiting for a human at `at`, the engine's reading of the clock (replaces the last).
  void publish(std::vector<WatchedItem> items, TimePoint at);

  // One pass at the clock's now(): escalates every stall not escalated within repeatAfter;
  // returns those it escalated.
  std::vector<Stall> check();

  void start();
  void stop();
  // Whether the watchdog's own thread is alive enough to vouch for the process (systemd's
  // WATCHDOG=1 is sent only then, edge_server.h): true while it has passed within three of its
  // `checkEvery` intervals (steady time), or has not been started on a clock that follows system
  // time; false when its thread is stuck, so that systemd restarts a process whose safety net is
  // gone. Any thread.
  bool vouches(std::chrono::steady_clock::time_point now) const;
  // The rule behind vouches(), for tests: a pass at `lastPass` vouches at `now`.
  static bool passIsRecent(std::optional<std::chrono::steady_clock::time_point> lastPass,
                           std::chrono::steady_clock::time_point now,
                           std::chrono::milliseconds checkEvery);

  // Test helper: waits (real time, at most `deadline`) until a pass has run at a clock reading of
  // at least `at`. False on timeout.
  bool waitUntilChecked(TimePoint at, std::chrono::milliseconds deadline);

 private:
  std::vector<Stall> stallsAt(TimePoint now);
  void threadMain();
  void call(const Callback& callback, const Stall& stall, const char* what);

  Clock& clock_;
  Poco::Logger& logger_;
  StallWatchdogOptions options_;
  Callback escalate_;
  Callback audit_;

  mutable std::mutex mutex_;  // guards the fields below
  std::condition_variable changed_;
  std::optional<TimePoint> lastBeat_;
  std::vector<WatchedItem> items_;
  TimePoint itemsAt_{};
  std::map<std::string, TimePoint> escalatedAt_;
  std::optional<TimePoint> checkedAt_;
  std::optional<std::chrono::steady_clock::time_point> passedAt_;  // the thread's last pass
  std::optional<std::chrono::steady_clock::time_point> startedAt_;
  bool woken_ = false;
  bool stopping_ = false;
  std::optional<Clock::ListenerId> listener_;
  std::thread thread_;
};

}  // namespace atoms
