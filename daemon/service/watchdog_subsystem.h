// WatchdogSubsystem: the silent-stall watchdog in `atoms-edge serve` (docs/watchdog.md). At start
// it reads who to text (sms.contact.phone, and the site's managers of record and safety contacts
// from the store), starts a heartbeat timer on the engine (every minute: StallWatchdog::beat()
// and publish() with the pending approvals and the open safety incidents, read from the store on
// the engine thread) and the watchdog's own thread. Escalations go straight through the SMS
// gateway (directSmsEscalation; only logged when SMS is off) and are audited as
// "watchdog.escalated" by the engine when it runs again.
//
// Only on a clock that follows system time, unless watchOnSimulatedClock(): on a simulated clock
// (tests of the whole service, the demo) a jump of the clock is not a stall, and the engine has
// not caught up with it at the instant the watchdog looks.
//
// Threading: start/stop on the main thread; after the engine and SMS have started, stopped before
// them (EdgeServices' order). Errors: start fails only when the engine does not answer.
#pragma once

#include <Poco/Logger.h>

#include <memory>

#include "daemon/engine/engine.h"
#include "daemon/service/service_subsystem.h"

namespace atoms {

class EngineSubsystem;
class SmsSubsystem;
class StoreSubsystem;
class StallWatchdog;

class WatchdogSubsystem final : public ServiceSubsystem {
 public:
  WatchdogSubsystem(Poco::Logger& logger, StoreSubsystem& store, EngineSubsystem& engine,
                    SmsSubsystem& sms);
  ~WatchdogSubsystem() override;
  const char* name() const override { return "watchdog"; }

  // nullptr while stopped, or off on a simulated clock (tests).
  StallWatchdog* watchdog() { return watchdog_.get(); }
  // Engine thread: whether the watchdog's own thread vouches for the process
  // (StallWatchdog::vouches); true while the watchdog is not running.
  bool vouches() const;
  // Before start(): run on a simulated clock too (the watchdog's own tests).
  void watchOnSimulatedClock() { onSimulatedClock_ = true; }

 protected:
  Status start(Poco::Util::Application& app) override;
  void stop() override;

 private:
  void heartbeat(TimePoint at);  // engine thread; `at`: the timer's deadline

  Poco::Logger& logger_;
  StoreSubsystem& store_;
  EngineSubsystem& engine_;
  SmsSubsystem& sms_;
  std::unique_ptr<StallWatchdog> watchdog_;
  std::chrono::minutes safetySla_{5};
  Engine::TimerId timer_ = 0;  // engine thread
  bool active_ = false;        // engine thread
  bool onSimulatedClock_ = false;
};

}  // namespace atoms
