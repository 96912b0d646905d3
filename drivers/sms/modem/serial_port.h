// A serial line to a modem through termios: raw 8N1, the configured baud rate, optional RTS/CTS,
// non-blocking with poll(2) for timeouts. Works on real ttys (USB modems' /dev/ttyUSB*,
// /dev/ttyACM*, /dev/serial/by-id/...) and on pseudo-terminals (the simulated modem of the tests).
//
// open() takes an exclusive advisory lock (flock), so a second atoms-edge on the same device is
// refused with a clear error instead of both reading half of each answer (ModemManager ignores
// flock: docs/sms-modem.md says how to keep it away). Errors are values naming the device.
// Threading: one thread at a time.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "base/result.h"

namespace atoms::drivers::modem {

struct SerialSettings {
  std::string device;                // path of the tty
  int baud = 115200;                 // 1200..921600 (the standard termios rates)
  bool hardwareFlowControl = false;  // RTS/CTS
};

// True for the rates termios can set.
bool isSupportedBaud(int baud);

class SerialPort {
 public:
  static Result<std::unique_ptr<SerialPort>> open(const SerialSettings& settings);
  ~SerialPort();
  SerialPort(const SerialPort&) = delete;
  SerialPort& operator=(const SerialPort&) = delete;

  const std::string& device() const { return device_; }

  enum class ReadOutcome { kData, kTimeout, kWoken };
  struct ReadResult {
    ReadOutcome outcome = ReadOutcome::kTimeout;
    std::size_t bytes = 0;  // > 0 only for kData
  };
  // Waits up to `timeout` for bytes and reads what is there (at most into.size()). Returns early
  // with kWoken when `wakeFd` (if >= 0; not consumed here) becomes readable. An Error when the
  // device is gone (unplugged USB modem, closed pty master): the caller reopens.
  Result<ReadResult> read(std::span<std::uint8_t> into, std::chrono::milliseconds timeout,
                          int wakeFd = -1);
  // Writes all of `data` within `timeout` (a modem holding CTS low counts as a timeout).
  Status write(std::string_view data, std::chrono::milliseconds timeout);
  // Discards input not yet read and output not yet sent.
  void flush();

 private:
  SerialPort(std::string device, int fd);
  std::string device_;
  int fd_ = -1;
};

}  // namespace atoms::drivers::modem
