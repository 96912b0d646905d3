// ModemHealth: what the modem driver says about itself (ModemGateway::health(), docs/sms-modem.md),
// and the HealthBoard its worker writes it on and its callers read and wait on.
//
// Threading: HealthBoard is thread-safe. update() runs `change` under the board's lock (it must be
// quick and must not call the board) and then wakes every waitFor().
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "drivers/sms/sms_gateway.h"

namespace atoms::drivers::modem {

struct ModemHealth {
  enum class State { kStopped, kConnecting, kReady, kBackoff };
  State state = State::kStopped;
  std::string lastError;  // the last failure, one line; "" when none yet
  // Why the port was last closed and reopened, naming the command the modem stopped answering
  // (the first of the run of failures, not the last poll); "" when it never was.
  std::string lastResetReason;
  std::string modem;  // manufacturer and model as the modem reports them
  int opens = 0;      // successful opens of the port
  int inits = 0;      // completed init sequences
  int resets = 0;     // closes after failures (silence, garbage, I/O errors)
  int consecutiveFailures = 0;
  std::uint64_t garbageLines = 0;
  std::uint64_t sent = 0;      // messages accepted by the modem
  std::uint64_t received = 0;  // messages committed by the sink
  std::uint64_t reports = 0;   // delivery reports committed by the sink
  std::uint64_t refusedBySink = 0;
  std::uint64_t duplicateParts = 0;  // parts of handled messages delivered again, dropped
  std::uint64_t sendsRefused = 0;    // AT+CMGS answered with an error (+CMS ERROR)
  int undecodable = 0;               // stored messages that cannot be read (left in storage)
  int signal = -1;                   // +CSQ rssi 0..31, -1 unknown
  int storageUsed = -1, storageTotal = -1;
  std::optional<SmsClock::time_point> lastAnswerAt;
};
std::string_view modemStateName(ModemHealth::State state);  // "stopped", "connecting", ...

class HealthBoard {
 public:
  template <class F>
  void update(F&& change) {
    {
      std::lock_guard lock(mutex_);
      change(health_);
    }
    changed_.notify_all();
  }
  // update() of lastError.
  void setError(const std::string& message);
  ModemHealth snapshot() const;
  // Waits until `predicate(snapshot())` holds or `timeout` passes; returns whether it held.
  bool waitFor(const std::function<bool(const ModemHealth&)>& predicate,
               std::chrono::milliseconds timeout) const;

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  ModemHealth health_;
};

}  // namespace atoms::drivers::modem
