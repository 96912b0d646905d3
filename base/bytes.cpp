#include "base/bytes.h"

#include <openssl/sha.h>
#include <sodium.h>

#include <algorithm>

namespace atoms {

std::string toHex(std::span<const std::uint8_t> bytes) {
  std::string out(bytes.size() * 2 + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), bytes.data(), bytes.size());
  out.pop_back();
  return out;
}

std::optional<Bytes> fromHex(std::string_view hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  if (hex.empty()) return Bytes{};  // sodium_hex2bin must not get a null output buffer
  Bytes out(hex.size() / 2);
  size_t len = 0;
  const char* end = nullptr;
  if (sodium_hex2bin(out.data(), out.size(), hex.data(), hex.size(), nullptr, &len, &end) != 0 ||
      len != out.size() || end != hex.data() + hex.size()) {
    return std::nullopt;
  }
  return out;
}

std::string toBase64(std::span<const std::uint8_t> bytes) {
  const size_t cap = sodium_base64_ENCODED_LEN(bytes.size(), sodium_base64_VARIANT_ORIGINAL);
  std::string out(cap, '\0');
  sodium_bin2base64(out.data(), cap, bytes.data(), bytes.size(), sodium_base64_VARIANT_ORIGINAL);
  out.resize(cap - 1);
  return out;
}

std::optional<Bytes> fromBase64(std::string_view text) {
  Bytes out(text.size() / 4 * 3 + 3);
  size_t len = 0;
  const char* end = nullptr;
  if (sodium_base642bin(out.data(), out.size(), text.data(), text.size(), nullptr, &len, &end,
                        sodium_base64_VARIANT_ORIGINAL) != 0 ||
      end != text.data() + text.size()) {
    return std::nullopt;
  }
  out.resize(len);
  // Reject non-canonical encodings (stray bits in the last character) so one value has one text.
  if (toBase64(out) != text) return std::nullopt;
  return out;
}

// OpenSSL's SHA-256 rather than libsodium's: it uses the CPU's SHA extensions where present
// (several times faster on the audit log's hot path), and SQLCipher links libcrypto anyway.
Hash32 sha256(std::span<const std::uint8_t> data) {
  Hash32 h;
  SHA256(data.data(), data.size(), h.data());
  return h;
}

Hash32 sha256Prefixed(std::uint8_t prefix, std::span<const std::uint8_t> data) {
  constexpr std::size_t kStackBytes = 4096;
  if (data.size() < kStackBytes) {
    std::uint8_t buf[kStackBytes];
    buf[0] = prefix;
    std::copy(data.begin(), data.end(), buf + 1);
    return sha256({buf, data.size() + 1});
  }
  Bytes buf;
  buf.reserve(data.size() + 1);
  buf.push_back(prefix);
  buf.insert(buf.end(), data.begin(), data.end());
  return sha256(buf);
}

}  // namespace atoms
