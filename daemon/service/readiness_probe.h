// ReadinessProbe: what GET /readyz on the service's HTTP listeners checks (docs/api.md "Health
// checks"; the listeners answer it through drivers/http/health_probe.h):
//   service      every service of `serve` has started and none is stopping
//   engine       the engine runs a posted turn within the deadline (a stuck or stopped engine
//                fails this, and then nothing below is known)
//   store        a read of the encrypted database succeeds on the engine thread
//   connections  no connection breaker (BRK-CONN-*: the SMS provider, the modem, the time
//                clocks, the broker) is open; an open one is named with its reason
// Each check is "ok" or one line saying what is wrong; ready when all are ok. A probe writes
// nothing: no audit entry, no log line.
//
// Threading: check() from any thread (the listeners' threads), blocking at most the deadline;
// setServing() from the main thread.
#pragma once

#include <atomic>
#include <chrono>

#include "drivers/http/health_probe.h"

namespace atoms {

class EngineSubsystem;
class PolicySubsystem;
class StoreSubsystem;

class ReadinessProbe {
 public:
  // All three must outlive the probe.
  ReadinessProbe(StoreSubsystem& store, EngineSubsystem& engine, PolicySubsystem& policy,
                 std::chrono::milliseconds deadline = std::chrono::milliseconds(2000));

  // True once every service has started, false from the moment stopping begins.
  void setServing(bool serving) { serving_ = serving; }
  drivers::Readiness check();

 private:
  StoreSubsystem& store_;
  EngineSubsystem& engine_;
  PolicySubsystem& policy_;
  std::chrono::milliseconds deadline_;
  std::atomic<bool> serving_{false};
};

}  // namespace atoms
