#include "drivers/sms/modem/modem_health.h"

namespace atoms::drivers::modem {

std::string_view modemStateName(ModemHealth::State state) {
  switch (state) {
    case ModemHealth::State::kStopped:
      return "stopped";
    case ModemHealth::State::kConnecting:
      return "connecting";
    case ModemHealth::State::kReady:
      return "ready";
    case ModemHealth::State::kBackoff:
      return "backoff";
  }
  return "stopped";
}

void HealthBoard::setError(const std::string& message) {
  update([&](ModemHealth& h) { h.lastError = message; });
}

ModemHealth HealthBoard::snapshot() const {
  std::lock_guard lock(mutex_);
  return health_;
}

bool HealthBoard::waitFor(const std::function<bool(const ModemHealth&)>& predicate,
                          std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return predicate(health_); });
}

}  // namespace atoms::drivers::modem
