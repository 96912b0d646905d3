#include "sync/backoff.h"

#include <algorithm>

namespace atoms::sync {

Backoff::Backoff(BackoffPolicy policy, RandomSource random)
    : policy_(policy), random_(std::move(random)) {}

std::chrono::milliseconds Backoff::next() {
  const std::int64_t initial = policy_.initial.count();
  const std::int64_t max = policy_.max.count();
  std::int64_t ceiling = initial;
  for (std::uint32_t i = 0; i < attempts_ && ceiling < max; ++i) ceiling *= 2;
  ceiling = std::min(ceiling, max);
  if (attempts_ < 64) ++attempts_;
  const std::int64_t half = ceiling / 2;
  const auto span = static_cast<std::uint64_t>(ceiling - half) + 1;
  return std::chrono::milliseconds(half + static_cast<std::int64_t>(random_() % span));
}

}  // namespace atoms::sync
