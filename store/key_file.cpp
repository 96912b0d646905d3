#include "store/key_file.h"

#include <sodium.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "base/file_io.h"

namespace atoms {
namespace {

constexpr std::string_view kMagic = "atoms-edge-key";
constexpr std::string_view kVersion = "v1";
// Far above any real key file (64-byte key: ~160 bytes); refuses to slurp a wrong, huge file.
constexpr std::uint64_t kMaxFileSize = 4096;

std::string modeText(unsigned mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", mode & 07777);
  return buf;
}

int hexValue(std::uint8_t c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;  // uppercase is refused too: the format is lowercase only
}

// Reads the whole file into guarded memory after the mode checks.
Result<SecretBytes> readGuarded(const std::string& path, FileSystem& fs) {
  auto file = fs.openForRead(path);
  if (!file) {
    if (file.kind() == ErrorKind::kNotFound) {
      return makeError("key file " + path + " does not exist");
    }
    return makeError("cannot read key file " + path + ": " + file.message());
  }
  auto st = (*file)->info();
  if (!st) return makeError("cannot read key file " + path + ": " + st.message());
  if (st->type != FileType::kRegular) {
    return makeError("key file " + path + " is not a regular file");
  }
  if ((st->mode & 077) != 0) {
    return makeError("key file " + path + " is accessible by group or others (mode " +
                     modeText(st->mode) + "); run chmod 600 " + path);
  }
  if (st->size == 0) return makeError("key file " + path + " is empty");
  if (st->size > kMaxFileSize) {
    return makeError("key file " + path + " is too large to be an atoms-edge key file");
  }
  SecretBytes buf(static_cast<std::size_t>(st->size));
  std::size_t got = 0;
  while (got < buf.size()) {
    auto n = (*file)->read(std::span<std::uint8_t>(buf.data() + got, buf.size() - got));
    if (!n) return makeError("cannot read key file " + path + ": " + n.message());
    if (*n == 0) break;
    got += *n;
  }
  if (got != buf.size()) {
    // The file shrank under us; copy what there is (still guarded).
    SecretBytes shorter(std::span<const std::uint8_t>(buf.data(), got));
    return shorter;
  }
  return buf;
}

// For a libsodium Ed25519 secret key (seed || pk): the pk half must be the one the seed gives.
bool ed25519HalvesMatch(const SecretBytes& sk) {
  std::uint8_t pk[crypto_sign_PUBLICKEYBYTES];
  SecretBytes derived(crypto_sign_SECRETKEYBYTES);
  if (crypto_sign_seed_keypair(pk, derived.data(), sk.data()) != 0) return false;
  return sodium_memcmp(pk, sk.data() + crypto_sign_SEEDBYTES, sizeof pk) == 0;
}

}  // namespace

std::string_view keyKindName(KeyKind kind) {
  switch (kind) {
    case KeyKind::Database:
      return "database";
    case KeyKind::SiteSigning:
      return "site-ed25519";
    case KeyKind::VendorSigning:
      return "vendor-ed25519";
  }
  return "unknown";
}

std::size_t keyKindSize(KeyKind kind) {
  switch (kind) {
    case KeyKind::Database:
      return 32;
    case KeyKind::SiteSigning:
    case KeyKind::VendorSigning:
      return crypto_sign_SECRETKEYBYTES;  // 64
  }
  return 0;
}

Result<SecretBytes> readKeyFile(const std::string& path, KeyKind kind, FileSystem& fs) {
  if (!initSodium()) return makeError("cannot initialise libsodium");
  auto content = readGuarded(path, fs);
  if (!content) return content.error();
  const std::uint8_t* data = content->data();
  const std::size_t size = content->size();

  // Header line: public text, fine to handle as a string.
  std::size_t nl = 0;
  while (nl < size && data[nl] != '\n') ++nl;
  const std::string header(reinterpret_cast<const char*>(data), nl);
  const std::string expected =
      std::string(kMagic) + " " + std::string(kVersion) + " " + std::string(keyKindName(kind));
  if (header.rfind(std::string(kMagic) + " ", 0) != 0) {
    return makeError("key file " + path +
                     " is not an atoms-edge key file (its first line must be '" + expected + "')");
  }
  if (header.rfind(std::string(kMagic) + " " + std::string(kVersion) + " ", 0) != 0) {
    return makeError("key file " + path + " has an unsupported format version ('" + header +
                     "', this atoms-edge reads " + std::string(kVersion) + ")");
  }
  if (header != expected) {
    const std::string other = header.substr(kMagic.size() + kVersion.size() + 2);
    return makeError("key file " + path + " holds a '" + other + "' key, expected a '" +
                     std::string(keyKindName(kind)) + "' key");
  }
  if (nl == size) return makeError("key file " + path + " is truncated (no key line)");

  // Key line: hex digits up to the final newline (which a truncation may have cut; the length
  // check below catches any real loss).
  const std::size_t begin = nl + 1;
  std::size_t end = begin;
  while (end < size && data[end] != '\n') ++end;
  if (end + 1 < size) {
    return makeError("key file " + path + " has data after the key line");
  }
  const std::size_t digits = end - begin;
  for (std::size_t i = begin; i < end; ++i) {
    if (hexValue(data[i]) < 0) {
      return makeError("key file " + path + ": the key line is not lowercase hex");
    }
  }
  const std::size_t want = keyKindSize(kind);
  if (digits != 2 * want) {
    return makeError("key file " + path + " holds " + std::to_string(digits / 2) +
                     (digits % 2 != 0 ? ".5" : "") + " bytes of key, expected " +
                     std::to_string(want) + " (truncated or damaged)");
  }
  SecretBytes key(want);
  for (std::size_t i = 0; i < want; ++i) {
    key.data()[i] = static_cast<std::uint8_t>((hexValue(data[begin + 2 * i]) << 4) |
                                              hexValue(data[begin + 2 * i + 1]));
  }
  if ((kind == KeyKind::SiteSigning || kind == KeyKind::VendorSigning) &&
      !ed25519HalvesMatch(key)) {
    return makeError("key file " + path +
                     " is damaged: its public key does not match its secret seed");
  }
  return key;
}

Status writeKeyFile(const std::string& path, KeyKind kind, const SecretBytes& key, FileSystem& fs) {
  if (!initSodium()) return makeError("cannot initialise libsodium");
  const std::size_t want = keyKindSize(kind);
  if (key.size() != want) {
    return makeError("cannot write key file " + path + ": a '" + std::string(keyKindName(kind)) +
                     "' key is " + std::to_string(want) + " bytes, got " +
                     std::to_string(key.size()));
  }
  const std::string header = std::string(kMagic) + " " + std::string(kVersion) + " " +
                             std::string(keyKindName(kind)) + "\n";
  SecretBytes content(header.size() + 2 * want + 1);
  std::memcpy(content.data(), header.data(), header.size());
  // sodium_bin2hex writes lowercase hex plus a NUL; the NUL's slot becomes the final newline.
  sodium_bin2hex(reinterpret_cast<char*>(content.data() + header.size()), 2 * want + 1, key.data(),
                 want);
  content.data()[content.size() - 1] = '\n';

  auto file = fs.createFile(path, CreateMode::kExclusive, 0600);
  if (!file) {
    if (file.kind() == ErrorKind::kRefused) {
      return makeError("key file " + path + " already exists; refusing to overwrite");
    }
    return makeError("cannot create key file " + path + ": " + file.message());
  }
  auto fail = [&](const std::string& what, const Status& s) -> Status {
    (void)(*file)->close();
    (void)fs.remove(path);
    return makeError("cannot write key file " + path + ": " + what + ": " + s.message());
  };
  // The umask can only remove bits; set the mode exactly so it never depends on it.
  if (Status s = (*file)->setMode(0600); !s) return fail("chmod", s);
  const std::string_view text(reinterpret_cast<const char*>(content.data()), content.size());
  if (Status s = (*file)->append(text); !s) return fail("write", s);
  if (Status s = (*file)->sync(); !s) return fail("fsync", s);
  if (Status s = (*file)->close(); !s) return fail("close", s);
  if (auto s = fsyncDirectory(directoryOf(path), fs); !s) {
    (void)fs.remove(path);
    return makeError("cannot write key file " + path + ": " + s.message());
  }
  return Status::success();
}

}  // namespace atoms
