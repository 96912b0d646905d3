// Fuzz target: readKeyFile (store/key_file.h), which reads the key files under the state directory
// (or systemd credentials) at every start: a damaged file must be a clear error, never a crash
// and never a wrong key.
//
// The input becomes the content of a mode-0600 file in a private temporary directory, read as
// both kinds. Properties: an accepted file yields exactly keyKindSize(kind) bytes, and is exactly
// the header line and those bytes in lowercase hex (the final newline may be missing); every
// error names the path.
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/bytes.h"
#include "store/key_file.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace atoms;
  using fuzz::require;
  static const fuzz::ScratchDir dir;  // one per process: creating a directory per input is too slow
  const std::string path = dir.file("key");
  fuzz::writeScratchFile(path, data, size);

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
