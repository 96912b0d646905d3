// How the outbox spaces its attempts at a message the gateway did not take: capped exponential
// backoff with jitter, and a cap on attempts after which the message is failed for good (and the
// failure audited) rather than retried for ever.
//
// Pure functions, thread-safe. Operator documentation: docs/sms-mailbox.md, "Retries".
#pragma once

#include <chrono>

#include "base/result.h"

namespace atoms::sms::mailbox {

struct RetryPolicy {
  std::chrono::milliseconds initialDelay{30'000};   // after the first failed attempt
  std::chrono::milliseconds maxDelay{30 * 60'000};  // the doubling stops here
  int maxAttempts = 8;                              // sends of one message, at most
  // Each delay is shortened by up to this fraction, at random, so that the messages of a burst
  // (and the boxes of a chain after a provider outage) do not all retry in the same second.
  double jitter = 0.2;
};

// Ok when initialDelay >= 0, maxDelay >= initialDelay, maxAttempts >= 1, 0 <= jitter <= 1.
Status validatePolicy(const RetryPolicy& policy);

// The wait after the attempt numbered `attempts` (1 for the first) failed:
//   min(maxDelay, initialDelay * 2^(attempts-1)) * (1 - jitter * unit),
// `unit` in [0, 1) from the injected random source. Never negative, never above maxDelay.
std::chrono::milliseconds retryDelay(const RetryPolicy& policy, int attempts, double unit);

}  // namespace atoms::sms::mailbox
