// EngineSubsystem: runs the Engine (daemon/engine/engine.h) on the system clock, or on a clock
// the caller gives (a SimulatedClock in tests of the whole service): its thread starts at start()
// and is joined at stop(), after which no event runs.
//
// Threading: engine() may be handed to other services while started; Engine::post is thread-safe.
// The main thread has work done on the engine with callOnWriter (base/writer_call.h).
#pragma once

#include <Poco/Logger.h>

#include <memory>

#include "base/clock.h"
#include "daemon/engine/engine.h"
#include "daemon/service/service_subsystem.h"

namespace atoms {

class EngineSubsystem final : public ServiceSubsystem {
 public:
  explicit EngineSubsystem(Poco::Logger& logger) : logger_(logger), clock_(systemClock_) {}
  // `clock` must outlive the subsystem.
  EngineSubsystem(Poco::Logger& logger, Clock& clock) : logger_(logger), clock_(clock) {}
  const char* name() const override { return "engine"; }

  // Precondition: started().
  Engine& engine() { return *engine_; }
  Clock& clock() const { return clock_; }

 protected:
  Status start(Poco::Util::Application& app) override;
  void stop() override;

 private:
  Poco::Logger& logger_;
  SystemClock systemClock_;
  Clock& clock_;
  std::unique_ptr<Engine> engine_;
};

}  // namespace atoms
