// Signed updates with two slots and rollback (`atoms-edge update`; docs/update.md, decision 0025).
//
// The update root R (default /opt/atoms-edge) holds
//   R/slots/a/atoms-edge, R/slots/a/manifest.json   one installed version per slot
//   R/slots/b/...
//   R/current -> slots/a                            the running slot; the unit starts
//                                                   R/current/atoms-edge; switched by rename(2)
//   R/update.json                                   what is pending and the last result
//   R/update.log                                    one line per event, for the record
//   R/update.lock                                   one update command at a time
// The first apply seeds slot a with the binary that runs it (the packaged one), so the version
// before the first update can be rolled back to.
//
// Rules, each checked before anything is switched (a refusal is kind kRefused and changes nothing
// but the last result):
//  - the bundle verifies against the pinned key (bundle.h);
//  - a bundle not newer than the running version is a downgrade: refused unless allowDowngrade;
//  - migrations only go forward: a binary whose manifest schema is older than the state
//    directory's database is refused, whatever the flags; the same holds for every rollback, so a
//    rollback across a migration is refused before switching;
//  - an update waiting for its health check must be confirmed or rolled back first.
// After switching, restartService() starts the new version and waitHealthy() waits up to
// healthTimeout for its health mark (health_mark.h); without it the previous slot comes back
// (when its schema allows) and is restarted. Without restartService the switch stays pending for
// `update check-health`, which a boot-time unit runs.
//
// Not thread-safe; processes are serialised by R/update.lock.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "daemon/update/bundle.h"

namespace atoms::update {

struct UpdateEnv {
  std::string root;      // R
  std::string stateDir;  // its database's schema; the health mark
  PublicKey trustedKey{};
  // What the first apply puts in slot a: the running binary and what it is.
  std::string runningBinary;
  std::string runningVersion;
  int runningSchema = 0;
  const Clock* clock = nullptr;
  // Restarts the service (systemctl restart atoms-edge); an error counts as not healthy. Empty:
  // switch only, and leave the health check to `update check-health`.
  std::function<Status()> restartService;
  // Waits until healthy() or the timeout passed; returns the last healthy(). The command polls
  // with the system clock; tests decide at once.
  std::function<bool(const std::function<bool()>& healthy, std::chrono::milliseconds timeout)>
      waitHealthy;
  std::chrono::milliseconds healthTimeout{std::chrono::minutes(2)};
  std::chrono::milliseconds rollbackTimeout{std::chrono::minutes(2)};
};

enum class Outcome {
  kApplied,          // switched, and the new version reported healthy
  kSwitched,         // switched, not restarted: pending until check-health or confirm
  kRolledBack,       // the previous slot is active again
  kRollbackRefused,  // the new version failed its check, but its migration forbids going back
  kConfirmed,        // a pending update marked good
  kNothingPending,   // check-health / confirm / init with nothing to do
  kInitialised,      // init: slot a holds the running binary, R/current points at it
};

struct UpdateReport {
  Outcome outcome = Outcome::kNothingPending;
  std::string slot;     // active afterwards
  std::string version;  // of that slot
  std::string detail;   // one or two sentences for the operator
  bool healthy = true;  // the active version reported healthy (false: it still has not)
};

struct Pending {
  std::string slot, from, version, since;
};
struct LastResult {
  std::string result, version, at, detail;
};

struct SlotView {
  std::string name;
  std::optional<Manifest> manifest;  // nullopt: empty slot
  bool active = false;
};

struct UpdateStatus {
  std::vector<SlotView> slots;
  std::optional<Pending> pending;
  std::optional<LastResult> last;
  std::optional<int> stateSchema;  // nullopt: no database yet
};

// Sets R up without a bundle: slot a gets the running binary and R/current points at it, so the
// unit can start R/current/atoms-edge before the first update (docs/update.md). kNothingPending
// with a detail when R is already set up.
Result<UpdateReport> initSlots(const UpdateEnv& env);
Result<UpdateReport> applyUpdate(const UpdateEnv& env, const std::string& bundle,
                                 bool allowDowngrade);
// Back to the other slot (refused when its schema is older than the database's).
Result<UpdateReport> rollbackUpdate(const UpdateEnv& env);
// Waits for the pending update's health mark: confirms it, or rolls back.
Result<UpdateReport> checkHealth(const UpdateEnv& env);
// Marks the pending update good without waiting.
Result<UpdateReport> confirmUpdate(const UpdateEnv& env);
Result<UpdateStatus> updateStatus(const UpdateEnv& env);

// The schema version the state directory's database records (max of schema_migrations); nullopt
// when DIR has no database. Opens it read-only with DIR's key (or the credential's); when that
// key cannot be read (a credential only the service gets), the schema in serve's health mark.
Result<std::optional<int>> stateSchemaVersion(const std::string& stateDir);

}  // namespace atoms::update
