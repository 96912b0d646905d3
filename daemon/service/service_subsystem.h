// ServiceSubsystem: one service of `atoms-edge serve` (store, engine; later panel, sync, SMS). It
// is a Poco Subsystem, so the Application owns it; EdgeServer starts the services in the order they
// were added and stops them in reverse. Unlike a bare Subsystem, start() reports failure as a
// value, and stop() runs only after a successful start(), so a service that failed to come up, or
// was never reached, is never torn down.
//
// Threading: start/stop are called on the main thread only.
#pragma once

#include <Poco/Util/Application.h>
#include <Poco/Util/Subsystem.h>

#include "base/result.h"

namespace atoms {

class ServiceSubsystem : public Poco::Util::Subsystem {
 public:
  // EdgeServer's entry points. startService() is a no-op success when already started;
  // stopService() a no-op when not started.
  Status startService(Poco::Util::Application& app);
  void stopService();
  bool started() const { return started_; }

 protected:
  // Reads its settings from app.config(). An error is one line an operator can act on.
  virtual Status start(Poco::Util::Application& app) = 0;
  // Releases everything start() acquired. Must not fail; logs what it cannot undo.
  virtual void stop() = 0;

  // Poco's entry points, for code that drives subsystems the Poco way: initialize() throws
  // Poco::Exception with start()'s message.
  void initialize(Poco::Util::Application& app) override;
  void uninitialize() override;

 private:
  bool started_ = false;
};

}  // namespace atoms
