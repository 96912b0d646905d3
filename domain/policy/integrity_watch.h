// IntegrityWatch: re-verifies the whole audit log while the box runs, and reports a broken chain
// at once (seed 001 section 7: L3 is raised automatically on an integrity failure; operator page
// docs/policy-kill-switch.md). At start the store only checks the log's tail and newest checkpoint;
// this checks every entry, leaf hash, checkpoint and receipt signature (store/log_verifier.h
// verifyDatabase, as `atoms-edge verify` does), on its own read-only connection in one read
// transaction (WAL: the writer is never blocked), on its own thread: once at start, then every
// `interval` (zero: only at start) and whenever checkNow() asks.
//
// `onProblem` is called on the watch's thread with the report of a failed check, once per distinct
// problem (a log that stays broken is not reported again every interval); the daemon raises the
// kill switch to L3 from it. A store that cannot be opened is logged, not reported as a broken
// chain (a busy or missing file is not tampering).
//
// Threading: start/stop/checkNow from any one thread; callbacks on the watch's thread. stop()
// joins the thread; a check in progress finishes first.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "store/log_verifier.h"
#include "store/signed_note.h"
#include "store/state_dir.h"

namespace atoms::policy {

struct IntegrityWatchOptions {
  StateDirPaths paths;
  VerifierKey key;  // the site's verifier key
  std::string siteId;
  std::chrono::seconds interval{std::chrono::hours(6)};
};

struct IntegrityCallbacks {
  std::function<void(const VerifyReport&)> onProblem;
  std::function<void(const VerifyReport&)> onPassed;    // may be empty
  std::function<void(const std::string&)> onUnchecked;  // the store could not be read; may be empty
};

class IntegrityWatch {
 public:
  IntegrityWatch(IntegrityWatchOptions options, IntegrityCallbacks callbacks);
  ~IntegrityWatch();
  IntegrityWatch(const IntegrityWatch&) = delete;
  IntegrityWatch& operator=(const IntegrityWatch&) = delete;

  void start();
  void stop();
  // Asks for a check as soon as the thread is free (coalesced with one already asked for).
  void checkNow();
  // Checks completed so far (passed or failed; not those that could not read the store).
  std::uint64_t checks() const;
  // Waits until checks() >= atLeast or the timeout passes; true in the first case.
  bool waitForChecks(std::uint64_t atLeast, std::chrono::milliseconds timeout) const;

 private:
  void run();
  void checkOnce();

  IntegrityWatchOptions options_;
  IntegrityCallbacks callbacks_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  mutable std::condition_variable checked_;
  bool stopping_ = false;
  bool asked_ = true;  // the first check runs at start
  std::uint64_t checks_ = 0;
  std::string reported_;  // the last problem reported, so it is not repeated
  std::thread thread_;
};

}  // namespace atoms::policy
