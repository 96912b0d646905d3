#include "sms/text/offer_code.h"

#include <algorithm>

namespace atoms::sms {

namespace {

constexpr int kLowest = 1000;  // no leading zero
constexpr int kCount = 9000;   // 1000..9999

bool readsAsTime(int n) { return n / 100 < 24 && n % 100 < 60; }

bool readsAsYear(int n) { return n >= 1900 && n <= 2099; }

bool isPattern(int n) {
  const int d[4] = {n / 1000, n / 100 % 10, n / 10 % 10, n % 10};
  bool same = true;
  bool up = true;
  bool down = true;
  for (int i = 1; i < 4; ++i) {
    same = same && d[i] == d[i - 1];
    up = up && d[i] == d[i - 1] + 1;
    down = down && d[i] == d[i - 1] - 1;
  }
  return same || up || down;
}

bool usable(int n) { return !readsAsTime(n) && !readsAsYear(n) && !isPattern(n); }

// Uniform in [0, bound) from 32-bit draws, without modulo bias (rejection sampling; a broken
// source that only returns values above the limit still ends, slightly biased, after 64 draws).
std::uint32_t uniform(const RandomSource& random, std::uint32_t bound) {
  const std::uint32_t limit = UINT32_MAX - UINT32_MAX % bound;
  std::uint32_t r = random();
  for (int i = 0; i < 64 && r >= limit; ++i) r = random();
  return r % bound;
}

}  // namespace

bool isUsableOfferCode(std::string_view code) {
  if (code.size() != static_cast<std::size_t>(kOfferCodeDigits)) return false;
  int n = 0;
  for (char c : code) {
    if (c < '0' || c > '9') return false;
    n = n * 10 + (c - '0');
  }
  return n >= kLowest && usable(n);
}

Result<std::string> makeOfferCode(const RandomSource& random, std::span<const std::string> avoid) {
  std::vector<int> candidates;
  candidates.reserve(kCount);
  for (int n = kLowest; n < kLowest + kCount; ++n) {
    if (!usable(n)) continue;
    const std::string code = std::to_string(n);
    if (std::find(avoid.begin(), avoid.end(), code) != avoid.end()) continue;
    candidates.push_back(n);
  }
  if (candidates.empty()) return makeError("no offer code is left: every usable code is in use");
  const std::uint32_t pick = uniform(random, static_cast<std::uint32_t>(candidates.size()));
  return std::to_string(candidates[pick]);
}

}  // namespace atoms::sms
