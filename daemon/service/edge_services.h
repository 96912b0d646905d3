// EdgeServices: the services of `atoms-edge serve` and how they are wired together, in start
// order: store, engine, policy, SMS (with the conversation layer and the call-out desk behind
// it), time-clock terminals, the POS drivers, the approvals API, the panel, sync. EdgeServer runs
// them on the system clock under Poco's ServerApplication; tests of the whole service run the very
// same wiring in-process on a SimulatedClock (tests/callout/served_site.h), which is why it is a
// class of its own.
//
// Adding a service: write a ServiceSubsystem, then add one line to the constructor in
// edge_services.cpp (later services may take earlier ones in their constructors). Every HTTP
// listener answers /healthz and /readyz (readiness_probe.h).
//
// Threading: construction, start and stop on the main thread. The accessors return services
// owned by `app`; use them between start() and stop() as each service's header says.
#pragma once

#include <Poco/Logger.h>
#include <Poco/Util/Application.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "daemon/service/readiness_probe.h"
#include "daemon/service/service_subsystem.h"
#include "daemon/sms/conversation_processor.h"

namespace atoms {

class ApiSubsystem;
class Clock;
class EngineSubsystem;
class PanelSubsystem;
class PolicySubsystem;
class SmsSubsystem;
class StoreSubsystem;
class SyncSubsystem;
class TerminalSubsystem;
class PosSubsystem;
class WatchdogSubsystem;

class EdgeServices {
 public:
  // Adds the services to `app`, which owns them (Poco's addSubsystem) and whose configuration
  // they read at start. `clock` is the engine's; both must outlive this object.
  EdgeServices(Poco::Util::Application& app, Clock& clock);

  // Starts the services in order, logging each ("starting sms"). When one fails, those already
  // started are stopped in reverse and its error is returned; failedService() names it.
  Status start();
  const std::string& failedService() const { return failed_; }
  // Stops the started services in reverse order (idempotent).
  void stop();

  StoreSubsystem& store() { return *store_; }
  EngineSubsystem& engine() { return *engine_; }
  PolicySubsystem& policy() { return *policy_; }
  SmsSubsystem& sms() { return *sms_; }
  TerminalSubsystem& terminal() { return *terminal_; }
  PosSubsystem& pos() { return *pos_; }
  ApiSubsystem& api() { return *api_; }
  PanelSubsystem& panel() { return *panel_; }
  SyncSubsystem& sync() { return *sync_; }
  WatchdogSubsystem& watchdog() { return *watchdog_; }

 private:
  template <class S, class... A>
  S& add(A&&... args) {
    S* service = new S(std::forward<A>(args)...);
    app_.addSubsystem(service);  // the Application owns it
    services_.push_back(service);
    return *service;
  }
  // The call-out flow's options from the configuration (labor.rules_dir, callout.*), with the
  // policy gate over the live policy state.
  sms_site::CalloutOptions calloutOptions();

  Poco::Util::Application& app_;
  Poco::Logger& logger_;
  std::vector<ServiceSubsystem*> services_;  // in start order
  std::string failed_;
  StoreSubsystem* store_ = nullptr;
  EngineSubsystem* engine_ = nullptr;
  PolicySubsystem* policy_ = nullptr;
  SmsSubsystem* sms_ = nullptr;            // later services send through sms_->outbox()
  TerminalSubsystem* terminal_ = nullptr;  // setPunchListener for who watches clock-ins
  PosSubsystem* pos_ = nullptr;
  ApiSubsystem* api_ = nullptr;  // the approvals of sms_'s call-out desk
  PanelSubsystem* panel_ = nullptr;
  SyncSubsystem* sync_ = nullptr;
  WatchdogSubsystem* watchdog_ = nullptr;
  // GET /readyz on the SMS webhooks, the time clocks, the API and the panel (readiness_probe.h).
  std::unique_ptr<ReadinessProbe> readiness_;
};

}  // namespace atoms
