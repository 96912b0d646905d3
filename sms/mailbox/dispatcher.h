// Dispatcher: the thread that hands due outbox rows to the gateway (DESIGN.md section 2). Each
// pass first reconciles every row in doubt (left in `sending` by a crash, or by a send that may
// have been accepted), then claims due rows one at a time: claim (committed) -> send() (blocking,
// outside any lock or transaction) -> record the answer (committed). One row at a time means at
// most one message is ever in doubt after a crash.
//
// Waiting: with a clock that follows system time the thread sleeps until the next row is due (at
// most options.idleRecheck); with a simulated clock it sleeps until wake(), which the owner calls
// after each change of the clock. Enqueue and release wake it through Outbox::setWakeUp.
//
// Threading: start()/stop() from the owning thread; wake() from any thread; runPass() only while
// the thread is not running (tests drive it synchronously). stop() lets a send in progress finish
// (drivers bound their own calls), then joins; no store call is made after it returns. Never call
// stop() from the writer thread of a PostingStoreRunner (the dispatcher may be waiting for it).
// Errors: a store error ends the pass; it is reported through options.onError and the pass is
// tried again after options.errorPause (or the next wake() on a simulated clock).
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "base/result.h"
#include "drivers/sms/sms_gateway.h"
#include "sms/mailbox/outbox.h"

namespace atoms::sms::mailbox {

struct DispatcherOptions {
  // True when the Outbox's clock is the system time (production); false for a simulated clock.
  bool followsSystemTime = true;
  std::chrono::milliseconds idleRecheck{30'000};
  std::chrono::milliseconds errorPause{5'000};
  // One line per failed pass (the service logs it). Called on the dispatcher thread.
  std::function<void(const std::string&)> onError;
  // What the gateway answered to each send(), with its name, after the answer is recorded (the
  // service feeds the connection's breaker). Called on the dispatcher thread; must be quick.
  std::function<void(std::string_view gateway, const drivers::SendResult&)> onSendResult;
};

class Dispatcher {
 public:
  // `outbox` and `gateway` must outlive the dispatcher. Registers itself as the outbox's wake-up.
  Dispatcher(Outbox& outbox, drivers::SmsGateway& gateway, DispatcherOptions options = {});
  ~Dispatcher();  // stop(), and unregisters from the outbox
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  // Starts the thread (which reconciles anything in doubt first). Error when already started.
  Status start();
  void stop();
  void wake();

  // One pass on the caller's thread: reconcile every due in-doubt row, then send every due row.
  // Returns the first store error. Precondition: the thread is not running.
  Status runPass();

  // Test helper: waits (real time, at most `deadline`) until the thread has finished a pass and
  // waits with no wake() pending, i.e. everything due before the call has been handled. True when
  // it is idle (or not running), false on timeout.
  bool waitUntilIdle(std::chrono::milliseconds deadline);

 private:
  void threadMain();
  bool stopping();

  Outbox& outbox_;
  drivers::SmsGateway& gateway_;
  DispatcherOptions options_;

  std::mutex mutex_;  // guards the fields below
  std::condition_variable changed_;
  bool woken_ = false;
  bool stopping_ = false;
  bool running_ = false;
  bool idle_ = false;  // the thread waits after a finished pass

  std::thread thread_;
};

}  // namespace atoms::sms::mailbox
