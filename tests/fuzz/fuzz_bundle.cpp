// Fuzz target: openBundle, extractBinary (daemon/update/bundle.h), which read an update bundle an
// operator copied onto the box before any signature is trusted.
//
// The input becomes the content of a file, checked against the tests' vendor key (the key every
// build without ATOMS_UPDATE_PUBLIC_KEY pins): a seed bundle signed with it gets past the
// signature, and mutations of its binary reach the hash check. Properties: every error is one
// line of printable ASCII; an accepted bundle is exactly the magic line, its manifest's canonical
// text, a signature line and a binary of the manifest's size.
#include <cstddef>
#include <cstdint>
#include <string>

#include "daemon/update/bundle.h"
#include "daemon/update/pinned_key.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace atoms;
  using fuzz::require;
  static const fuzz::ScratchDir dir;
  const std::string path = dir.file("bundle");
  fuzz::writeScratchFile(path, data, size);

  auto manifest = update::verifyBundle(path, update::pinnedUpdateKey());
  if (!manifest) {
    require(!manifest.message().empty() && fuzz::isOneLine(manifest.message()),
            "a bundle error is one line of printable ASCII");
    return 0;
  }
  const std::string_view input = fuzz::asText(data, size);
  const std::string head = "atoms-edge-bundle v1\n" + update::manifestJson(*manifest) + "\n";
  require(input.substr(0, head.size()) == head, "an accepted bundle starts with its manifest");
  const std::size_t sigEnd = input.find('\n', head.size());
  require(sigEnd != std::string_view::npos && size - (sigEnd + 1) == manifest->binarySize,
          "an accepted bundle carries exactly the manifest's binary");
  return 0;
}
