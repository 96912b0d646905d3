#include "store/key_file.h"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "base/file_io.h"

namespace atoms {
namespace {

constexpr std::string_view kMagic = "atoms-edge-key";
constexpr std::string_view kVersion = "v1";
// Far above any real key file (64-byte key: ~160 bytes); refuses to slurp a wrong, huge file.
constexpr off_t kMaxFileSize = 4096;

std::string modeText(mode_t mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(mode & 07777));
  return buf;
}

int hexValue(std::uint8_t c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;  // uppercase is refused too: the format is lowercase only
}

// Reads the whole file into guarded memory after the mode checks.
Result<SecretBytes> readGuarded(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    if (errno == ENOENT) return makeError("key file " + path + " does not exist");
    return makeError("cannot read key file " + path + ": " + errnoText(errno));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return makeError("cannot read key file " + path + ": " + errnoText(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return makeError("key file " + path + " is not a regular file");
  }
  if ((st.st_mode & 077) != 0) {
    ::close(fd);
    return makeError("key file " + path + " is accessible by group or others (mode " +
                     modeText(st.st_mode) + "); run chmod 600 " + path);
  }
  if (st.st_size == 0) {
    ::close(fd);
    return makeError("key file " + path + " is empty");
  }
  if (st.st_size > kMaxFileSize) {
    ::close(fd);
    return makeError("key file " + path + " is too large to be an atoms-edge key file");
  }
  SecretBytes buf(static_cast<std::size_t>(st.st_size));
  std::size_t got = 0;
  while (got < buf.size()) {
    ssize_t n = ::read(fd, buf.data() + got, buf.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      return makeError("cannot read key file " + path + ": " + errnoText(err));
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
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
  }
  return "unknown";
}

std::size_t keyKindSize(KeyKind kind) {
  switch (kind) {
    case KeyKind::Database:
      return 32;
    case KeyKind::SiteSigning:
      return crypto_sign_SECRETKEYBYTES;  // 64
  }
  return 0;
}

Result<SecretBytes> readKeyFile(const std::string& path, KeyKind kind) {
  if (!initSodium()) return makeError("cannot initialise libsodium");
  auto content = readGuarded(path);
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
  if (kind == KeyKind::SiteSigning && !ed25519HalvesMatch(key)) {
    return makeError("key file " + path +
                     " is damaged: its public key does not match its secret seed");
  }
  return key;
}

Status writeKeyFile(const std::string& path, KeyKind kind, const SecretBytes& key) {
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

  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    if (errno == EEXIST) {
      return makeError("key file " + path + " already exists; refusing to overwrite");
    }
    return makeError("cannot create key file " + path + ": " + errnoText(errno));
  }
  auto fail = [&](const std::string& what, int err) -> Status {
    if (fd >= 0) ::close(fd);
    ::unlink(path.c_str());
    return makeError("cannot write key file " + path + ": " + what + ": " + errnoText(err));
  };
  // The umask can only remove bits; set the mode exactly so it never depends on it.
  if (::fchmod(fd, 0600) != 0) return fail("chmod", errno);
  std::size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail("write", errno);
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) return fail("fsync", errno);
  int rc = ::close(fd);
  fd = -1;
  if (rc != 0) return fail("close", errno);
  if (auto s = fsyncDirectory(directoryOf(path)); !s) {
    ::unlink(path.c_str());
    return makeError("cannot write key file " + path + ": " + s.message());
  }
  return Status::success();
}

}  // namespace atoms
