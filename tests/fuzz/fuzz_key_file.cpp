// Fuzz target: readKeyFile (store/key_file.h), which reads the key files under the state directory
// (or systemd credentials) at every start: a damaged file must be a clear error, never a crash
// and never a wrong key.
//
// The input becomes the content of a mode-0600 file in a private temporary directory, read as
// both kinds. Properties: an accepted file yields exactly keyKindSize(kind) bytes; writeKeyFile
// of that key gives a file that reads back to the same bytes.
#include <fcntl.h>
#include <sodium.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

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
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
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
    const std::string copy = dir.file("copy");
    ::unlink(copy.c_str());
    require(writeKeyFile(copy, kind, *key).ok(), "an accepted key can be written");
    const Result<SecretBytes> reread = readKeyFile(copy, kind);
    require(reread.ok() && reread->size() == key->size() &&
                sodium_memcmp(reread->data(), key->data(), key->size()) == 0,
            "a written key file reads back to the same key");
  }
  return 0;
}
