// Sign-in throttling (docs/panel-accounts.md, "Throttling"): after kFreeFailures failed attempts in
// a row, every further attempt waits: 1 minute after the 5th failure, doubling with each one after
// (2, 4, 8 ...), at most 1 hour. Attempts during the wait are refused without looking at the
// password or code, so they cost the box nothing and teach the guesser nothing. A success clears
// the count.
//
// Two counts, both checked: per account, kept in the store (panel_account.failed_count and
// next_try_at: a restart does not reset a guesser's wait), and per client address, kept here in
// memory (addresses come and go; a restart forgetting them is acceptable as the account count
// stays). The address count also covers unknown logins, so it bounds enumeration.
//
// Threading: AddressThrottle is thread-safe (one mutex, no I/O under it). throttleDelay is pure.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "base/time_point.h"

namespace atoms::panel {

inline constexpr int kFreeFailures = 4;  // the 5th failure in a row starts the waits
inline constexpr std::chrono::minutes kFirstWait{1};
inline constexpr std::chrono::minutes kLongestWait{60};

// How long to wait after the `failures`-th failure in a row: zero up to kFreeFailures.
std::chrono::minutes throttleDelay(int failures);

class AddressThrottle {
 public:
  // Keeps at most `capacity` addresses; past it, addresses not waiting are forgotten first.
  explicit AddressThrottle(std::size_t capacity = 4096) : capacity_(capacity) {}

  // When `address` may try again, if that is after `now`.
  std::optional<TimePoint> waitUntil(std::string_view address, TimePoint now) const;
  // Counts a failure from `address`; returns the end of the wait it now has, if any.
  std::optional<TimePoint> recordFailure(std::string_view address, TimePoint now);
  void recordSuccess(std::string_view address);

 private:
  struct Entry {
    int failures = 0;
    TimePoint nextTry{};
  };
  void makeRoomLocked(TimePoint now);

  std::size_t capacity_;
  mutable std::mutex mutex_;
  std::map<std::string, Entry, std::less<>> entries_;
};

}  // namespace atoms::panel
