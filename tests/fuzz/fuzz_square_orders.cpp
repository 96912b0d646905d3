// Fuzz target: the Square Orders API search answer (drivers/pos/square_orders.h), what the box
// reads from Square (or from whatever answers at the configured base URL).
//
// Input: the answer body. Properties, beyond "no crash, no sanitizer report":
//   - an error is one short line of printable ASCII (it is logged and shown on the panel);
//   - every order read passes validateOrder (ids, ranges, a returned amount only with its sale);
//   - every time prints in the documented form and parses back to itself.
#include <cstddef>
#include <cstdint>
#include <string>

#include "drivers/pos/square_orders.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace atoms::drivers::pos;
  const std::string_view body = atoms::fuzz::asText(data, size);
  const atoms::Result<FeedPage> page = square::parseSearchResponse(body);
  if (!page) {
    atoms::fuzz::require(!page.message().empty() && atoms::fuzz::isOneLine(page.message()),
                         "an error is one line");
    atoms::fuzz::require(page.message().size() < 600, "an error is short");
    return 0;
  }
  for (const PosOrder& o : page->orders) {
    atoms::fuzz::require(validateOrder(o, "order").ok(), "an order read is valid");
    atoms::fuzz::require(parsePosTime(formatPosTime(o.at)) == o.at, "a time parses back");
  }
  (void)square::describeErrors(body);
  return 0;
}
