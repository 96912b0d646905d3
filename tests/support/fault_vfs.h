// FaultVfs: a SQLite VFS shim for tests, after SQLite's own test_vfs.c and test_devsym.c. While it
// lives it is the default VFS (sqlite3_vfs_register(vfs, 1)), wrapping the one that was the
// default (unix), so every Database opened meanwhile goes through it and store/database.* needs
// no hook. SQLCipher encrypts above the VFS, so the shim sees the encrypted pages and works for
// our store as for plain SQLite. It
//  - counts the calls of each kind and fails the nth call of a chosen set (xRead, xWrite, xSync,
//    xTruncate, xLock, xShmLock, xDelete) with that call's own error (SQLITE_IOERR_READ, _WRITE,
//    _FSYNC, ...) or a chosen one (SQLITE_FULL for a write, SQLITE_BUSY for a lock), once, or with
//    `persist` for every later call of every kind too (the disk is gone: a crash seen from inside);
//  - simulates a power cut: powerCut() reverts every write (and truncation) of a database, WAL or
//    journal file that no xSync of that file followed, which is what a disk cache may lose.
// Only lock requests count as xLock / xShmLock calls (unlocking never fails). Memory-mapped I/O is
// refused (xFetch hands out no pages), so every page read is an xRead.
// How to write a test with it: docs/testing-faults.md.
//
// Threading: arm(), disarm() and the counters are thread-safe; SQLite may call the shim from any
// thread. At most one FaultVfs at a time. Every connection opened through it must be closed
// before it is destroyed, and before powerCut() (a crashed process holds none).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"

namespace atoms::testing {

enum class VfsOp { kRead, kWrite, kSync, kTruncate, kLock, kShmLock, kDelete };
std::string_view vfsOpName(VfsOp op);
// The error a call of `op` fails with unless the fault names one: SQLITE_IOERR_READ, ...
int defaultVfsError(VfsOp op);

struct VfsFault {
  std::vector<VfsOp> ops;  // the calls that count; empty: every kind
  std::uint64_t nth = 1;   // the one that fails, 1-based, counted from arm()
  int code = 0;            // its result code; 0: defaultVfsError(op)
  bool persist = false;    // from the nth on, every call of every kind fails with its own error
};

class FaultVfs {
 public:
  // Registers the shim as the default VFS. The previous default comes back when it is destroyed.
  FaultVfs();
  ~FaultVfs();
  FaultVfs(const FaultVfs&) = delete;
  FaultVfs& operator=(const FaultVfs&) = delete;

  // Arms `fault` (replacing any other) and starts counting calls from zero.
  void arm(VfsFault fault);
  // No more faults: calls go through again. Counting goes on.
  void disarm();
  // Whether the armed fault has failed a call since arm().
  bool fired() const;
  // Calls of `op` since arm() (or construction); all kinds together without an argument.
  std::uint64_t calls(VfsOp op) const;
  std::uint64_t calls() const;
  // "xRead 2, xWrite 7, ...": the counts of every kind, for test messages.
  std::string describeCalls() const;

  // Reverts what no xSync made durable (see above), then disarms. Precondition: no connection is
  // open through the shim. Errors: a file could not be put back.
  Status powerCut();

  struct State;  // the registered sqlite3_vfs and its bookkeeping (fault_vfs.cpp)

 private:
  std::unique_ptr<State> state_;
};

// One way for the disk to fail, run at every step of an operation in turn (FaultSteps).
struct VfsScenario {
  std::string name;
  VfsFault fault;  // nth is set for each step. With `persist` the disk stays dead until restart()
  bool powerCut = false;  // restart() cuts the power (only with a persistent fault)
};

// The scenarios the store's fault tests run: an I/O error on a read, a write, a sync or a
// truncation; a full disk on a write; a busy lock; a disk dead from any call on, then a restart
// (what the dead disk was handed stays on it); the same, then a power cut (what no sync covered
// is lost).
std::vector<VfsScenario> vfsScenarios();

// The loop of a fault test: fail the 1st counted call of the operation, then the 2nd, and so on
// until a run of the operation hits no fault. Per step:
//   while (steps.next()) {
//     ... prepare on a healthy disk ...
//     steps.arm();                    // the fault, on this step's call
//     ... run the operation ...
//     steps.operationDone();          // notes whether the fault fired
//     ... close every connection ...
//     steps.restart();                // the disk works again (after the power cut, if any)
//     ... reopen, check ...
//   }
class FaultSteps {
 public:
  FaultSteps(FaultVfs& vfs, VfsScenario scenario) : vfs_(vfs), scenario_(std::move(scenario)) {}

  // Moves on to the next call; false once the previous run went by without the fault firing.
  bool next();
  // Arms the fault on this step's call (counting starts now).
  void arm();
  void operationDone();
  // Throws (failing the test) when the power cut fails.
  void restart();

  // Whether the fault fired during the current step's operation.
  bool fired() const { return fired_; }
  // Whether the disk died (a persistent fault fired): then a commit reported failed may still
  // be found on the disk after the restart, since its writes reached the disk before its sync
  // failed. Without a crash a failed operation leaves nothing.
  bool crashed() const { return fired_ && scenario_.fault.persist; }
  std::uint64_t step() const { return step_; }
  // How many steps had the fault fire.
  std::uint64_t faults() const { return faults_; }
  // "<scenario>, failing call <n>", for test contexts.
  std::string describe() const;
  // "<scenario>: <n> steps, <f> faults; the last run made xRead 3, ...", for the test log.
  std::string summary() const;

 private:
  FaultVfs& vfs_;
  VfsScenario scenario_;
  std::uint64_t step_ = 0;
  std::uint64_t faults_ = 0;
  bool fired_ = true;
  std::string operationCalls_;
};

}  // namespace atoms::testing
