// EngineSubsystem: runs the Engine (daemon/engine/engine.h) on the system clock: its thread starts
// at start() and is joined at stop(), after which no event runs.
//
// Threading: engine() may be handed to other services while started; Engine::post is thread-safe.
#pragma once

#include <Poco/Logger.h>

#include <memory>

#include "daemon/engine/clock.h"
#include "daemon/engine/engine.h"
#include "daemon/service/service_subsystem.h"

namespace atoms {

class EngineSubsystem final : public ServiceSubsystem {
 public:
  explicit EngineSubsystem(Poco::Logger& logger) : logger_(logger) {}
  const char* name() const override { return "engine"; }

  // Precondition: started().
  Engine& engine() { return *engine_; }
  const Clock& clock() const { return clock_; }

 protected:
  Status start(Poco::Util::Application& app) override;
  void stop() override;

 private:
  Poco::Logger& logger_;
  SystemClock clock_;
  std::unique_ptr<Engine> engine_;
};

}  // namespace atoms
