// Fuzz target: readKeyFile (store/key_file.h), which reads the key files under the state directory
// (or systemd credentials) at every start: a damaged file must be a clear error, never a crash
// and never a wrong key.
//
// The input becomes the content of a mode-0600 file in a private temporary directory, read as
// both kinds. Properties: an accepted file yields exactly keyKindSize(kind) bytes, and is exactly
// the header line and those bytes in lowercase hex (the final newline may be missing); every
// error names the path.
#include <fcntl.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "base/bytes.h"
#include "store/key_file.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

// A directory for this process's key files, removed at exit.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "atoms-fuzz-XXXXXX").string();
    atoms::fuzz::require(::mkdtemp(pattern.data()) != nullptr, "mkdtemp works");
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

void writeFile(const std::string& path, const std::uint8_t* data, std::size_t size) {
  // A new file each time: truncating and rewriting one makes ext4 flush it at close
  // (auto_da_alloc), which slows the target down a hundredfold.
  ::unlink(path.c_str());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  atoms::fuzz::require(fd >= 0, "the scratch file can be created");
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd, data + done, size - done);
    atoms::fuzz::require(n > 0, "the scratch file can be written");
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace atoms;
  using fuzz::require;
  static const ScratchDir dir;  // one per process: creating a directory per input is too slow
  const std::string path = dir.file("key");
  writeFile(path, data, size);

  for (const KeyKind kind : {KeyKind::Database, KeyKind::SiteSigning}) {
    const Result<SecretBytes> key = readKeyFile(path, kind);
    if (!key) {
      require(key.message().find(path) != std::string::npos, "a key file error names the path");
      continue;
    }
    require(key->size() == keyKindSize(kind), "an accepted key file holds a key of its kind");
    // The format has exactly one text per key: the header line, the key in lowercase hex, and
    // the final newline, which only a truncation may have cut.
    const std::string text =
        "atoms-edge-key v1 " + std::string(keyKindName(kind)) + "\n" + toHex(key->view());
    const std::string_view input = fuzz::asText(data, size);
    require(input == text || input == text + "\n", "an accepted key file is header + hex key");
  }
  return 0;
}
