#include "daemon/panel/panel_secrets.h"

#include <sodium.h>

#include <algorithm>
#include <array>

namespace atoms::panel {

SecureRandom systemRandom() {
  return [](std::span<std::uint8_t> out) { randombytes_buf(out.data(), out.size()); };
}

std::string toBase64Url(std::span<const std::uint8_t> bytes) {
  std::string text = toBase64(bytes);
  while (!text.empty() && text.back() == '=') text.pop_back();
  std::replace(text.begin(), text.end(), '+', '-');
  std::replace(text.begin(), text.end(), '/', '_');
  return text;
}

std::optional<Bytes> fromBase64Url(std::string_view text) {
  if (text.size() % 4 == 1) return std::nullopt;
  std::string padded(text);
  for (char& c : padded) {
    if (c == '+' || c == '/' || c == '=') return std::nullopt;
    if (c == '-') c = '+';
    if (c == '_') c = '/';
  }
  while (padded.size() % 4 != 0) padded.push_back('=');
  return fromBase64(padded);
}

Hash32 keyedHash(std::span<const std::uint8_t> key, std::string_view context,
                 std::span<const std::uint8_t> message) {
  Hash32 out{};
  crypto_generichash_state state;
  crypto_generichash_init(&state, key.data(), key.size(), out.size());
  const std::uint8_t length = static_cast<std::uint8_t>(std::min<std::size_t>(context.size(), 255));
  crypto_generichash_update(&state, &length, 1);
  crypto_generichash_update(&state, reinterpret_cast<const unsigned char*>(context.data()), length);
  crypto_generichash_update(&state, message.data(), message.size());
  crypto_generichash_final(&state, out.data(), out.size());
  return out;
}

bool equalConstantTime(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  if (a.empty()) return true;
  return sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

SecretBytes derivedPanelKey(const SecretBytes& siteSigningSecret, std::string_view purpose) {
  SecretBytes key(32);
  const std::size_t seedBytes = std::min<std::size_t>(siteSigningSecret.size(), 32);
  const Hash32 h = keyedHash(siteSigningSecret.view().first(seedBytes), "atoms-edge panel key",
                             asBytes(purpose));
  std::copy(h.begin(), h.end(), key.data());
  return key;
}

std::uint32_t uniformBelow(const SecureRandom& random, std::uint32_t bound) {
  const std::uint32_t limit = static_cast<std::uint32_t>(-bound) % bound;  // 2^32 mod bound
  for (;;) {
    std::array<std::uint8_t, 4> b{};
    random(b);
    const std::uint32_t v =
        static_cast<std::uint32_t>(b[0]) | (static_cast<std::uint32_t>(b[1]) << 8) |
        (static_cast<std::uint32_t>(b[2]) << 16) | (static_cast<std::uint32_t>(b[3]) << 24);
    if (v >= limit) return v % bound;
  }
}

}  // namespace atoms::panel
