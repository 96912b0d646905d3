// AuditBudget: how many entries for one kind of refused outside input (a forged webhook, a bad
// terminal request, an unsigned cloud command) go into the audit log: at most `perWindow` in each
// window, so a flood cannot flood the log; the next entry that is written says how many were left
// out since the last one. Pure bookkeeping on times the caller passes; no I/O.
//
// Use: if (budget.admit(now)) { write an entry carrying budget.leftOut(); on success
// budget.written(); }. A clock that went backwards starts a new window.
// Not synchronised (each owner uses it from one thread: the engine, the sync worker).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

namespace atoms {

class AuditBudget {
 public:
  using TimePoint = std::chrono::system_clock::time_point;

  explicit AuditBudget(std::uint64_t perWindow,
                       std::chrono::system_clock::duration window = std::chrono::minutes(1))
      : perWindow_(perWindow), window_(window) {}

  // True: write this one. False: it is left out (counted in leftOut()).
  bool admit(TimePoint now) {
    if (!windowStart_ || now - *windowStart_ >= window_ || now < *windowStart_) {
      windowStart_ = now;
      inWindow_ = 0;
    }
    if (inWindow_ >= perWindow_) {
      ++leftOut_;
      return false;
    }
    ++inWindow_;
    return true;
  }
  // Entries left out since the last one written.
  std::uint64_t leftOut() const { return leftOut_; }
  // The admitted entry (which carried leftOut()) is in the log: the count starts again.
  void written() { leftOut_ = 0; }

 private:
  std::uint64_t perWindow_;
  std::chrono::system_clock::duration window_;
  std::optional<TimePoint> windowStart_;
  std::uint64_t inWindow_ = 0;
  std::uint64_t leftOut_ = 0;
};

}  // namespace atoms
