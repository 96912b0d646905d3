// EdgeServer: `atoms-edge serve` on Poco's ServerApplication. It starts the services
// (EdgeServices: the wiring) on the system clock, logs ready, waits for SIGTERM/SIGINT/SIGQUIT,
// and stops the started services in reverse order. If one fails to start, those already started
// are stopped in reverse, the failure is logged as one fatal line, and run() returns EXIT_CONFIG.
// Under systemd (Type=notify) it tells systemd READY=1 once every service runs, STATUS= lines,
// WATCHDOG=1 from the engine thread when the unit sets WatchdogSec (held back while the
// silent-stall watchdog's own thread is stuck: either one stuck gets the service restarted), and
// STOPPING=1 (systemd_notify.h).
//
// Threading: everything here runs on the main thread, except the watchdog pings (engine thread).
// The caller must have called prepareServiceSignals() (process.h) before constructing it.
#pragma once

#include <Poco/AutoPtr.h>
#include <Poco/Logger.h>
#include <Poco/Util/AbstractConfiguration.h>
#include <Poco/Util/ServerApplication.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "daemon/service/edge_services.h"
#include "daemon/service/systemd_notify.h"

namespace atoms {

class EdgeServer final : public Poco::Util::ServerApplication {
 public:
  // fileConfig: the validated configuration file (config_schema.h); the schema's defaults are
  // layered under it. configPath is only logged.
  EdgeServer(Poco::AutoPtr<Poco::Util::AbstractConfiguration> fileConfig, std::string configPath);

  const char* name() const override { return "atoms-edge"; }

 protected:
  void initialize(Poco::Util::Application& self) override;
  void uninitialize() override;
  int main(const std::vector<std::string>& args) override;

 private:
  // Engine thread: WATCHDOG=1, then again after a third of systemd's watchdog interval.
  void pingWatchdog(std::chrono::milliseconds every);
  bool watchdogSilent_ =
      false;  // engine thread: WATCHDOG=1 held back (the stall watchdog is stuck)
  void tellSystemd(const std::string& message);

  Poco::Logger& logger_;
  std::string configPath_;
  SystemClock clock_;
  std::unique_ptr<EdgeServices> services_;
  SystemdNotify systemd_ = SystemdNotify::fromEnvironment();
  std::atomic<bool> systemdFailureLogged_{false};
  bool startFailed_ = false;
};

}  // namespace atoms
