// Fuzz target: the time-clock punch request (drivers/terminal/punch_request.h), the body any
// device on the site LAN can POST once it has a terminal token.
//
// Input: the request body. Properties, beyond "no crash, no sanitizer report":
//   - an error is one short line of printable ASCII (it is answered and audited as is);
//   - an accepted batch has 1-500 punches with valid ids, and encodes to a body that parses back
//     to the same batch (so the simulated terminal speaks exactly what the server accepts);
//   - every accepted time prints in the documented form and parses back to itself.
#include <cstddef>
#include <cstdint>
#include <string>

#include "drivers/terminal/punch_request.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using namespace atoms::drivers::terminal;
using atoms::fuzz::isOneLine;
using atoms::fuzz::require;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view body = atoms::fuzz::asText(data, size);
  const atoms::Result<PunchBatch> batch = parsePunchRequest(body);
  if (!batch) {
    require(!batch.message().empty() && isOneLine(batch.message()), "an error is one line");
    require(batch.message().size() < 400, "an error is short");
    return 0;
  }
  require(!batch->punches.empty() && batch->punches.size() <= kMaxPunchesPerRequest,
          "1-500 punches");
  require(isValidTerminalId(batch->terminal), "the terminal id is valid");
  for (const Punch& p : batch->punches) {
    require(isValidTerminalId(p.person), "a person id is valid");
    require(!p.id.empty() && p.id.size() <= kMaxEventIdLength && isOneLine(p.id),
            "an event id is 1-128 printable characters");
    const std::string at = formatPunchTime(p.at);
    require(parsePunchTime(at) == p.at, "a time prints and parses back to itself");
  }
  const atoms::Result<PunchBatch> again = parsePunchRequest(encodePunchRequest(*batch));
  require(again.ok() && *again == *batch, "parse(encode(batch)) == batch");
  return 0;
}
