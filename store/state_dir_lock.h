// StateDirLock: the one-owner lock of a state directory, DIR/state.lock (an exclusive flock(2),
// never waited for). `serve` holds it for as long as it runs and `restore` while it replaces the
// database, so a restore never swaps the file under a running service and a service never starts
// on a half-restored directory. Reading commands (verify, backup, export-segments) do not take it:
// they run beside the service. The kernel drops the lock when the holder dies, so a crashed
// service leaves nothing to clean up; the file itself is never removed (base/file_system.h).
// Thread-safe in the sense that instances share nothing; a second acquire in the same process is
// refused like one from another process.
#pragma once

#include <memory>
#include <string>

#include "base/result.h"

namespace atoms {

// DIR/state.lock.
std::string stateLockPath(const std::string& dir);

class StateDirLock {
 public:
  // Takes the lock of DIR without waiting. Errors (one line): DIR missing or the lock file cannot
  // be created; held by someone else, kind kRefused: "state directory DIR is in use (a running
  // atoms-edge serve holds DIR/state.lock); stop it first: systemctl stop atoms-edge".
  static Result<std::unique_ptr<StateDirLock>> acquire(const std::string& dir);

  ~StateDirLock();
  StateDirLock(const StateDirLock&) = delete;
  StateDirLock& operator=(const StateDirLock&) = delete;

 private:
  explicit StateDirLock(int fd) : fd_(fd) {}
  int fd_;
};

}  // namespace atoms
