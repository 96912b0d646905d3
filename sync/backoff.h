// Backoff: capped exponential backoff with jitter for reconnecting to the broker. The n-th delay
// (n = 0, 1, ...) is drawn uniformly from [c/2, c] with c = min(max, initial * 2^n): never zero
// (no reconnect storm when the broker comes back and every box of a fleet retries at once), and
// spread so that those boxes do not retry in lockstep. The random source is injected so tests
// can pin the sequence.
//
// Not thread-safe (one per uplink, owner thread).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>

namespace atoms::sync {

// Uniform 64-bit random numbers.
using RandomSource = std::function<std::uint64_t()>;

struct BackoffPolicy {
  std::chrono::milliseconds initial{1000};
  std::chrono::milliseconds max{300000};
};

class Backoff {
 public:
  // Preconditions: 0 < policy.initial <= policy.max; random is callable.
  Backoff(BackoffPolicy policy, RandomSource random);

  // The delay before the next attempt; each call counts one more failed attempt.
  std::chrono::milliseconds next();
  // After a successful connection: the next delay is drawn from the initial range again.
  void reset() { attempts_ = 0; }
  std::uint32_t attempts() const { return attempts_; }
  const BackoffPolicy& policy() const { return policy_; }

 private:
  BackoffPolicy policy_;
  RandomSource random_;
  std::uint32_t attempts_ = 0;
};

}  // namespace atoms::sync
