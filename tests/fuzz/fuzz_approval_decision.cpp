// Fuzz target: the body of a decision on the approvals API (daemon/api/approval_json.h), which any
// holder of a manager's token can POST.
//
// Input: the request body. Properties, beyond "no crash, no sanitizer report":
//   - an error is one short line of printable ASCII (it is answered and audited as is);
//   - an accepted remark is at most kMaxRemarkBytes of valid UTF-8 without control characters.
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/canonical_json.h"
#include "daemon/api/approval_json.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using atoms::fuzz::isOneLine;
using atoms::fuzz::require;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view body = atoms::fuzz::asText(data, size);
  const atoms::Result<atoms::callout::ApprovalAnswer> request =
      atoms::api::parseDecisionRequest(body);
  if (!request) {
    require(!request.message().empty() && isOneLine(request.message()), "an error is one line");
    require(request.message().size() < 400, "an error is short");
    return 0;
  }
  require(request->remark.size() <= atoms::api::kMaxRemarkBytes, "a remark is short");
  require(!request->approve || !request->overrideReason, "an override reason only with a deny");
  require(atoms::json::isValidUtf8(request->remark), "a remark is UTF-8");
  for (char c : request->remark) {
    const auto u = static_cast<unsigned char>(c);
    require(u >= 0x20 && u != 0x7f, "a remark has no control characters");
  }
  return 0;
}
