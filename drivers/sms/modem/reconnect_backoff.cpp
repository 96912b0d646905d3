#include "drivers/sms/modem/reconnect_backoff.h"

#include <algorithm>
#include <utility>

namespace atoms::drivers::modem {

ReconnectBackoff::ReconnectBackoff(std::chrono::milliseconds initial, std::chrono::milliseconds max,
                                   UnitRandom random)
    : initial_(initial), max_(max), nominal_(initial), random_(std::move(random)) {}

std::chrono::milliseconds ReconnectBackoff::next() {
  const double jitter = 0.8 + 0.4 * random_();
  const auto wait = std::chrono::milliseconds(
      static_cast<long long>(static_cast<double>(nominal_.count()) * jitter));
  nominal_ = std::min(nominal_ * 2, max_);
  return wait;
}

}  // namespace atoms::drivers::modem
