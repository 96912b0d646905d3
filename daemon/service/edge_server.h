// EdgeServer: `atoms-edge serve` on Poco's ServerApplication. It starts the services
// (ServiceSubsystem) in the order added, logs ready, waits for SIGTERM/SIGINT/SIGQUIT, and stops
// the started services in reverse order. If one fails to start, those already started are stopped
// in reverse, the failure is logged as one fatal line, and run() returns EXIT_CONFIG.
//
// Adding a service: write a ServiceSubsystem, then add one line to addServices() in
// edge_server.cpp (later services may take earlier ones in their constructors).
//
// Threading: everything here runs on the main thread. The caller must have called
// prepareServiceSignals() (process.h) before constructing it.
#pragma once

#include <Poco/AutoPtr.h>
#include <Poco/Logger.h>
#include <Poco/Util/AbstractConfiguration.h>
#include <Poco/Util/ServerApplication.h>

#include <string>
#include <utility>
#include <vector>

#include "daemon/service/service_subsystem.h"
#include "daemon/sms/conversation_processor.h"

namespace atoms {

class EngineSubsystem;
class PolicySubsystem;
class SmsSubsystem;
class StoreSubsystem;
class TerminalSubsystem;

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
  void addServices();
  // The call-out flow's options from the configuration (labor.rules_dir, callout.*), with the
  // policy gate over the live policy state.
  sms_site::CalloutOptions calloutOptions();
  template <class S, class... A>
  S& addService(A&&... args) {
    S* service = new S(std::forward<A>(args)...);
    addSubsystem(service);  // the Application owns it
    services_.push_back(service);
    return *service;
  }
  void stopStarted();

  Poco::Logger& logger_;
  std::string configPath_;
  std::vector<ServiceSubsystem*> services_;  // in start order
  StoreSubsystem* store_ = nullptr;
  EngineSubsystem* engine_ = nullptr;
  PolicySubsystem* policy_ = nullptr;
  SmsSubsystem* sms_ = nullptr;            // later services send through sms_->outbox()
  TerminalSubsystem* terminal_ = nullptr;  // setPunchListener for who watches clock-ins
  bool startFailed_ = false;
};

}  // namespace atoms
