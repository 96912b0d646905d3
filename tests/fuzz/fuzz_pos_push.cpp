// Fuzz target: the local POS push request (drivers/pos/push_request.h), the body any device on the
// site LAN can POST once it has a POS token.
//
// Input: the request body. Properties, beyond "no crash, no sanitizer report":
//   - an error is one short line of printable ASCII (it is answered and logged as is);
//   - an accepted request has 1-500 valid orders and encodes to a body that parses back to the
//     same request (what a test register sends is exactly what the server accepts).
#include <cstddef>
#include <cstdint>
#include <string>

#include "drivers/pos/push_request.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace atoms::drivers::pos;
  const atoms::Result<PushRequest> request = parsePushRequest(atoms::fuzz::asText(data, size));
  if (!request) {
    atoms::fuzz::require(!request.message().empty() && atoms::fuzz::isOneLine(request.message()),
                         "an error is one line");
    atoms::fuzz::require(request.message().size() < 600, "an error is short");
    return 0;
  }
  atoms::fuzz::require(!request->orders.empty() && request->orders.size() <= kMaxOrdersPerPush,
                       "1-500 orders");
  for (const PosOrder& o : request->orders) {
    atoms::fuzz::require(validateOrder(o, "order").ok(), "an order read is valid");
  }
  const atoms::Result<PushRequest> again = parsePushRequest(encodePushRequest(*request));
  atoms::fuzz::require(again.ok() && again->pos == request->pos && again->orders == request->orders,
                       "parse(encode(request)) == request");
  return 0;
}
