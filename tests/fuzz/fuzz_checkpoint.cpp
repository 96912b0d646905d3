// Fuzz target: parseCheckpointBody (store/checkpoint.h), the body of every checkpoint note a site
// or a mirror publishes.
//
// Properties: an accepted body re-serialises (checkpointBody) to a prefix of the input (only the
// opaque extension lines may follow) and parses back to the same checkpoint.
#include <cstddef>
#include <cstdint>
#include <string>

#include "store/checkpoint.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace atoms;
  using fuzz::require;
  const std::string_view text = fuzz::asText(data, size);

  const Result<Checkpoint> cp = parseCheckpointBody(text);
  if (!cp) {
    require(!cp.message().empty(), "a rejected body has a message");
    return 0;
  }
  const std::string body = checkpointBody(*cp);
  require(text.starts_with(body), "the input is checkpointBody(parsed) plus extension lines");
  const Result<Checkpoint> again = parseCheckpointBody(body);
  require(again.ok() && *again == *cp, "parseCheckpointBody(checkpointBody(c)) == c");
  return 0;
}
