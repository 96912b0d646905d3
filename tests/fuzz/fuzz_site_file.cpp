// Fuzz target: parseSiteFile and writeSiteFile (domain/site/site_file.h), which read the site file
// an operator imports or checks (`atoms-edge site import`, `atoms-edge check`): a damaged or
// hostile file must be a clear error, never a crash, never a half-valid model.
//
// Properties checked on every input, beyond "no crash, no sanitizer report":
//   - a refused file gets a non-empty, one-line message;
//   - a parsed model written back parses to an equal model, and writing that gives the same text
//     (the exported form is a fixed point, so an export re-imports to the same site).
#include <cstddef>
#include <cstdint>
#include <string>

#include "domain/site/site_file.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace atoms;
  using fuzz::require;
  const auto model = site::parseSiteFile(fuzz::asText(data, size));
  if (!model) {
    require(!model.message().empty(), "a refused site file has a message");
    require(model.message().find('\n') == std::string::npos, "a site file error is one line");
    return 0;
  }
  const std::string text = site::writeSiteFile(*model);
  const auto again = site::parseSiteFile(text);
  require(again.ok(), "a parsed site file written back parses");
  require(*again == *model, "a parsed site file written back parses to an equal model");
  require(site::writeSiteFile(*again) == text, "writing a site file is a fixed point");
  return 0;
}
