// Key files: secret keys on disk in a small text format, so that a truncated, corrupted or
// wrong-kind file is detected instead of being used:
//
//   atoms-edge-key v1 <kind>\n
//   <key as lowercase hex>\n
//
// Kinds: "database" (32-byte raw SQLCipher key), "site-ed25519" (64-byte libsodium Ed25519
// secret key, seed || public key; on read the public half must match the seed) and
// "vendor-ed25519" (the same, for the vendor's update-signing key: docs/update.md; it never lives
// on a box).
// Files are mode 0600 and are never overwritten. Thread-safe (no shared state). The key bytes only
// ever live in guarded memory (SecretBytes); file contents are read into guarded memory too. All
// file access goes through `fs` (the POSIX file system unless a test passes a faulty one).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "base/file_system.h"
#include "base/result.h"
#include "base/secret.h"

namespace atoms {

enum class KeyKind { Database, SiteSigning, VendorSigning };

// "database" / "site-ed25519", as written on the header line.
std::string_view keyKindName(KeyKind kind);
// 32 / 64.
std::size_t keyKindSize(KeyKind kind);

// Reads and validates a key file. Errors (one line, naming the path): missing, unreadable, not a
// regular file, accessible by group or others ("key file X is accessible by group or others (mode
// 0644); run chmod 600 X"), not a key file, a different kind, bad hex, wrong length (truncated),
// trailing data, and for SiteSigning a public half that does not match the seed.
Result<SecretBytes> readKeyFile(const std::string& path, KeyKind kind,
                                FileSystem& fs = posixFileSystem());

// Creates path with O_CREAT|O_EXCL and mode 0600, writes the key, fsyncs the file and its
// directory. Never overwrites: an existing path is an error. key.size() must be keyKindSize(kind).
// On a failure after the file was created, the file is removed again (a partial file is left only
// when that removal fails too, and readKeyFile refuses it as truncated).
Status writeKeyFile(const std::string& path, KeyKind kind, const SecretBytes& key,
                    FileSystem& fs = posixFileSystem());

}  // namespace atoms
