// Byte strings and their text encodings (hex, base64) used by the audit log and the key files.
// All functions are pure and thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace atoms {

using Bytes = std::vector<std::uint8_t>;
using Hash32 = std::array<std::uint8_t, 32>;

inline std::span<const std::uint8_t> asBytes(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

std::string toHex(std::span<const std::uint8_t> bytes);
// Lowercase or uppercase hex; nullopt on odd length or a non-hex character.
std::optional<Bytes> fromHex(std::string_view hex);
// Standard base64 with padding (RFC 4648 section 4), as C2SP notes use.
std::string toBase64(std::span<const std::uint8_t> bytes);
// Strict: padding required, no whitespace; nullopt on any error.
std::optional<Bytes> fromBase64(std::string_view text);

// SHA-256 (OpenSSL, one context per thread).
Hash32 sha256(std::span<const std::uint8_t> data);
// SHA-256(prefix || data): the Merkle tree's domain-separated leaf and node hashes.
Hash32 sha256Prefixed(std::uint8_t prefix, std::span<const std::uint8_t> data);

}  // namespace atoms
