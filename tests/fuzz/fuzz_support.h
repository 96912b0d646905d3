// Shared helpers of the fuzz targets in tests/fuzz/ (docs/fuzzing.md).
//
// Every target defines LLVMFuzzerTestOneInput. Built with ATOMS_FUZZ=ON (clang) each target is a
// libFuzzer binary; otherwise the same sources are compiled into one replay executable that runs
// the checked-in corpus (the symbol is renamed per target by the build). A target returns 0 for
// any input the code under test rejects cleanly, and aborts through require() when a property that
// must hold for every input does not: libFuzzer then saves the input, the replay test fails.
//
// Single-threaded: libFuzzer and the replay call one input at a time.
#pragma once

#include <fcntl.h>
#include <sodium.h>
#include <unistd.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/secret.h"
#include "store/signed_note.h"

namespace atoms::fuzz {

inline std::string_view asText(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// True when `s` is printable ASCII only: what errors and refusal reasons must be, since they go
// into answers, log lines and audit entries.
inline bool isOneLine(std::string_view s) {
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f) return false;
  }
  return true;
}

// Aborts with the property that failed, so the crash report names it.
inline void require(bool holds, const char* property) {
  if (holds) return;
  std::fprintf(stderr, "fuzz property violated: %s\n", property);
  std::abort();
}

// "first\nrest" -> {"first", "rest"}; no newline -> {text, ""}. Targets that need a verifier key
// take it from the first line of the input, so a seed made from a real site (its key, its
// signatures) reaches the code behind the signature checks.
inline std::pair<std::string_view, std::string_view> splitFirstLine(std::string_view text) {
  const std::size_t nl = text.find('\n');
  if (nl == std::string_view::npos) return {text, {}};
  return {text.substr(0, nl), text.substr(nl + 1)};
}

// The '\n'-separated lines of `text` (a final line without '\n' counts; at most maxLines).
inline std::vector<std::string_view> lines(std::string_view text, std::size_t maxLines) {
  std::vector<std::string_view> out;
  while (!text.empty() && out.size() < maxLines) {
    const std::size_t nl = text.find('\n');
    out.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

// Name of fixedKey(): a site key, so checkpoints signed with it are valid for site "fuzz".
inline constexpr std::string_view kFixedKeyName = "atoms-edge/fuzz";

// A signing key derived from a constant seed: the targets sign with it to check that what the
// parsers accept also survives a sign/verify round trip. Created once per process (a fuzz run
// calls the target millions of times; deriving a key each time would dominate).
inline const SigningKey& fixedKey() {
  static const SigningKey key = [] {
    initSodium();
    std::array<std::uint8_t, crypto_sign_SEEDBYTES> seed{};
    seed.fill(0x5a);
    std::array<std::uint8_t, crypto_sign_PUBLICKEYBYTES> pk{};
    SecretBytes secret(crypto_sign_SECRETKEYBYTES);
    crypto_sign_seed_keypair(pk.data(), secret.data(), seed.data());
    auto k = SigningKey::fromSecret(std::string(kFixedKeyName), std::move(secret));
    require(k.ok(), "the fixed fuzz key can be built");
    return std::move(*k);
  }();
  return key;
}

// A private directory for a target that reads files (one per process: creating one per input is
// too slow), removed at exit.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "atoms-fuzz-XXXXXX").string();
    require(::mkdtemp(pattern.data()) != nullptr, "mkdtemp works");
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::string file(const char* name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

inline void writeScratchFile(const std::string& path, const std::uint8_t* data, std::size_t size) {
  // A new file each time: truncating and rewriting one makes ext4 flush it at close
  // (auto_da_alloc), which slows the target down a hundredfold.
  ::unlink(path.c_str());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  require(fd >= 0, "the scratch file can be created");
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd, data + done, size - done);
    require(n > 0, "the scratch file can be written");
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
}

}  // namespace atoms::fuzz
