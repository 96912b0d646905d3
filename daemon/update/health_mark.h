// The health mark: how a version that was just switched to says it runs (docs/update.md).
//
// `serve` writes DIR/update.health once every service has started and it told systemd READY=1:
// {"exe":"<its own binary, every symlink resolved>","pid":N,"schema":S,"version":"X.Y.Z"}, S being
// the store schema the database is at once serve has migrated it (what `update` reads when the
// database key is a systemd credential it cannot open). `atoms-edge
// update` removes the mark before it (re)starts the service and then waits for one whose exe is
// the binary of the slot it switched to: a mark from another binary, or a stale one, never counts.
// The service runs with ProtectSystem=strict, so the mark lives in the state directory, the one
// place it may write. Thread-safe: no shared state.
#pragma once

#include <string>

#include "base/result.h"

namespace atoms::update {

struct HealthMark {
  std::string exe;
  long pid = 0;
  std::string version;
  int schema = 0;  // 0: not said (a mark from a stand-in)
};

// DIR/update.health.
std::string healthMarkPath(const std::string& stateDir);

// Written atomically (a temporary file renamed over the old mark), exe from /proc/self/exe.
Status writeHealthMark(const std::string& stateDir, const std::string& version, int schema);

// kNotFound when there is none; kCorrupt when it is not the JSON above.
Result<HealthMark> readHealthMark(const std::string& stateDir);

// Removes the mark if there is one. Errors: it is there and cannot be removed.
Status clearHealthMark(const std::string& stateDir);

// True when DIR holds a mark whose exe is `binary` (both with symlinks resolved).
bool markedHealthyBy(const std::string& stateDir, const std::string& binary);

}  // namespace atoms::update
