// SystemdNotify: the sd_notify(3) protocol, without libsystemd, for `serve` under a unit with
// Type=notify (image/atoms-edge.service; docs/service.md "Under systemd"): one datagram per message
// to the Unix socket named by $NOTIFY_SOCKET (a path, or "@name" in the abstract namespace).
// `serve` sends READY=1 once every service has started, STATUS= lines saying what it is doing,
// WATCHDOG=1 from a timer on the engine thread (so a stuck engine stops the pings and systemd
// restarts the service after WatchdogSec), and STOPPING=1 when it begins to stop.
//
// Without $NOTIFY_SOCKET (run by hand, in tests) every send is a no-op. Thread-safe: each send is
// one sendto(2) on its own socket.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace atoms {

class SystemdNotify {
 public:
  // Reads $NOTIFY_SOCKET, and $WATCHDOG_USEC when $WATCHDOG_PID is unset or this process's pid.
  static SystemdNotify fromEnvironment();

  bool enabled() const { return !socket_.empty(); }
  // How often systemd expects WATCHDOG=1 at the latest; nullopt: no watchdog is set.
  std::optional<std::chrono::microseconds> watchdogInterval() const { return watchdog_; }

  // One message ("READY=1", "STATUS=serving", "WATCHDOG=1", "STOPPING=1"; several lines may go
  // in one). Ok without a socket. Errors: the socket refused it (one line, with errno's text).
  Status send(std::string_view message) const;

 private:
  std::string socket_;  // as given, "@" for the abstract namespace
  std::optional<std::chrono::microseconds> watchdog_;
};

}  // namespace atoms
