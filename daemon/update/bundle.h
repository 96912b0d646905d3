// Update bundles: one file that carries a new atoms-edge binary and a manifest signed by the
// vendor's Ed25519 key (docs/update.md, decision 0025). The layout, all of it covered by a check:
//
//   atoms-edge-bundle v1\n
//   <manifest: canonical JSON, one line>\n
//   <key id: 16 hex digits> <signature: base64 Ed25519 over "atoms-edge-bundle v1\n" + manifest>\n
//   <the binary: exactly manifest.binary.size bytes>
//
// The manifest is {"binary":{"blake2b":"<hex BLAKE2b-512 of the binary>","size":N},"format":1,
// "schema":S,"version":"X.Y.Z"}: the signature covers the manifest, the manifest covers the binary
// through its hash, so one changed byte anywhere is refused. The binary is hashed while it is
// streamed to where it goes, never held in memory whole.
//
// Thread-safe: no shared state. Errors are one line each, naming the file.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "base/result.h"
#include "base/secret.h"

namespace atoms::update {

using PublicKey = std::array<std::uint8_t, 32>;

// Largest binary a bundle may carry: the shipped binary is a few MiB stripped, a sanitizer build
// (which the tests bundle) a few hundred.
inline constexpr std::uint64_t kMaxBundleBinary = std::uint64_t{1} << 30;

struct Manifest {
  std::string version;  // "0.2.0": digits and dots (compareVersions)
  int schema = 0;       // the store schema version the binary expects (store/migrations.h)
  std::uint64_t binarySize = 0;
  std::string binaryHash;  // lowercase hex BLAKE2b-512
};

// The manifest's canonical JSON, and back. parseManifest refuses anything else (unknown format,
// missing or extra fields, a version that is not digits and dots, a schema below 1).
std::string manifestJson(const Manifest& manifest);
Result<Manifest> parseManifest(const std::string& text);

// The first 8 bytes of BLAKE2b-256 of the key, hex: how bundles and messages name a key.
std::string keyId(const PublicKey& key);

// The public half of a libsodium Ed25519 secret key (seed || public key).
PublicKey publicKeyOf(const SecretBytes& secretKey);

// Writes the bundle for `binary` to `out` (a new file; never overwrites), the manifest's size and
// hash taken from the binary as read. Errors: the binary unreadable or too big, out exists.
Status makeBundle(const std::string& binary, const std::string& version, int schema,
                  const SecretBytes& secretKey, const std::string& out);

// A bundle whose header and signature checked out; its binary is still to be checked.
struct SignedBundle {
  Manifest manifest;
  std::uint64_t binaryOffset = 0;
};

// Reads the header of `path` and checks the signature against `trusted`. Errors: not a bundle,
// a damaged header, signed by another key (kind kRefused, naming both key ids), a bad signature
// (kCorrupt), a file whose length does not match the manifest (kCorrupt).
Result<SignedBundle> openBundle(const std::string& path, const PublicKey& trusted);

// Streams the bundle's binary to `to` (a new file, mode 0755, fsynced) while hashing it; a hash
// or size that differs from the manifest removes `to` again and is kCorrupt. An empty `to` only
// checks.
Status extractBinary(const std::string& path, const SignedBundle& bundle, const std::string& to);

// openBundle, then extractBinary to nowhere: the whole bundle checked.
Result<Manifest> verifyBundle(const std::string& path, const PublicKey& trusted);

// Orders "1.2.10" after "1.2.9". Both must be digits and dots (parseManifest checks bundles).
int compareVersions(const std::string& a, const std::string& b);

}  // namespace atoms::update
