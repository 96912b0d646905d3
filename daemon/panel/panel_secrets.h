// The small cryptographic pieces the panel's accounts share: a random source (passed in, so tests
// may replace it: STYLE.md), base64url for values that travel in cookies and links, keyed BLAKE2b
// for values the store keeps in place of secrets, constant-time comparison, and the keys the
// panel derives from the site key (so that a copy of the database alone is not enough).
//
// Threading: pure functions; systemRandom() is libsodium's randombytes_buf, thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "base/bytes.h"
#include "base/secret.h"

namespace atoms::panel {

// Fills the span with cryptographically secure random bytes.
using SecureRandom = std::function<void(std::span<std::uint8_t>)>;
SecureRandom systemRandom();

// RFC 4648 section 5, without padding; fromBase64Url refuses anything else (padding included).
std::string toBase64Url(std::span<const std::uint8_t> bytes);
std::optional<Bytes> fromBase64Url(std::string_view text);

// BLAKE2b-256 of `message` keyed with `key` (16..64 bytes) under `context`, so one key serves
// several purposes without one value standing in for another.
Hash32 keyedHash(std::span<const std::uint8_t> key, std::string_view context,
                 std::span<const std::uint8_t> message);

// Whether a == b, in time that depends only on their lengths.
bool equalConstantTime(std::string_view a, std::string_view b);

// A 32-byte key for `purpose` derived from the site's Ed25519 secret (store/state_dir.h
// SiteIdentity::signingSecret, whose first 32 bytes are the seed). Same secret and purpose: same
// key, in every process of the box (the CLI and serve).
SecretBytes derivedPanelKey(const SecretBytes& siteSigningSecret, std::string_view purpose);

// A number uniformly drawn from [0, bound), bound > 0, from `random` (rejection sampling).
std::uint32_t uniformBelow(const SecureRandom& random, std::uint32_t bound);

}  // namespace atoms::panel
