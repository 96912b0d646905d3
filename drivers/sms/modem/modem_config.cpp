#include "drivers/sms/modem/modem_config.h"

#include <algorithm>
#include <cctype>

#include "drivers/sms/modem/submit_builder.h"

namespace atoms::drivers::modem {

using std::chrono::milliseconds;

bool isStorageName(std::string_view s) {
  return s.size() >= 2 && s.size() <= 4 && std::all_of(s.begin(), s.end(), [](char c) {
           return std::isupper(static_cast<unsigned char>(c)) != 0;
         });
}

Status validateModemConfig(const ModemConfig& c) {
  if (c.serial.device.empty()) return makeError("modem: device is not set");
  if (!isSupportedBaud(c.serial.baud))
    return makeError("modem: baud " + std::to_string(c.serial.baud) +
                     " is not a standard rate (1200..921600)");
  if (!c.smsc.empty() && !isDialableNumber(c.smsc))
    return makeError("modem: smsc \"" + c.smsc + "\" is not a phone number");
  if (!c.storage.empty() && !isStorageName(c.storage))
    return makeError("modem: storage \"" + c.storage + "\" is not a storage name (SM, ME, MT)");
  if (c.simPin.size() > 8 || !std::all_of(c.simPin.begin(), c.simPin.end(), [](char ch) {
        return std::isdigit(static_cast<unsigned char>(ch)) != 0;
      }))
    return makeError("modem: the SIM PIN must be 4 to 8 digits");
  if (!c.simPin.empty() && c.simPin.size() < 4)
    return makeError("modem: the SIM PIN must be 4 to 8 digits");
  const auto positive = [](milliseconds m) { return m.count() > 0; };
  if (!positive(c.commandTimeout) || !positive(c.promptTimeout) || !positive(c.sendTimeout) ||
      !positive(c.queueTimeout) || !positive(c.keepaliveInterval) ||
      !positive(c.storageScanInterval) || !positive(c.refusedRetryInterval) ||
      !positive(c.reassemblyTimeout) || !positive(c.quietTime) || !positive(c.backoffInitial) ||
      c.backoffMax < c.backoffInitial)
    return makeError("modem: every timeout and interval must be positive (backoff max >= initial)");
  if (c.reassemblyTimeout > std::chrono::hours(24))
    return makeError("modem: the reassembly window must be at most 24 hours (1440 minutes)");
  if (c.maxConsecutiveFailures < 1) return makeError("modem: maxConsecutiveFailures must be >= 1");
  if (c.validity && c.validity->count() <= 0)
    return makeError("modem: the validity period must be positive");
  if (!c.now) return makeError("modem: no clock");
  return Status::success();
}

}  // namespace atoms::drivers::modem
