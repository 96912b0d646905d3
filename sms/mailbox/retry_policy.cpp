#include "sms/mailbox/retry_policy.h"

#include <algorithm>
#include <cmath>

namespace atoms::sms::mailbox {

Status validatePolicy(const RetryPolicy& policy) {
  if (policy.initialDelay.count() < 0) return makeError("retry initial delay must not be negative");
  if (policy.maxDelay < policy.initialDelay) {
    return makeError("retry max delay must not be below the initial delay");
  }
  if (policy.maxAttempts < 1) return makeError("retry max attempts must be at least 1");
  if (!(policy.jitter >= 0.0 && policy.jitter <= 1.0)) {
    return makeError("retry jitter must be between 0 and 1");
  }
  return Status::success();
}

std::chrono::milliseconds retryDelay(const RetryPolicy& policy, int attempts, double unit) {
  const std::int64_t cap = policy.maxDelay.count();
  std::int64_t delay = policy.initialDelay.count();
  for (int i = 1; i < attempts && delay < cap; ++i) delay = delay > cap / 2 ? cap : delay * 2;
  delay = std::min(delay, cap);
  const double u = std::clamp(unit, 0.0, 1.0);
  const auto jittered = static_cast<std::int64_t>(
      std::llround(static_cast<double>(delay) * (1.0 - policy.jitter * u)));
  return std::chrono::milliseconds(std::clamp<std::int64_t>(jittered, 0, cap));
}

}  // namespace atoms::sms::mailbox
