// Fuzz target: validateReceipt and verifyReceipt (store/receipt.h), the check every receipt body
// in a synced segment goes through.
//
// Input: "<verifier key>\n<receipt JSON>" (see fuzz_note.cpp for why the key comes first; when it
// does not parse, the fixed key is used). Properties: verifyReceipt accepts only receipts that
// validate; signReceipt signs exactly the receipts that validate, and what it signs verifies, also
// after a trip through the canonical text; changing a signed receipt breaks the signature.
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/canonical_json.h"
#include "store/receipt.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace atoms;
  using fuzz::require;
  const auto [keyLine, text] = fuzz::splitFirstLine(fuzz::asText(data, size));
  const Result<VerifierKey> parsedKey = VerifierKey::parse(keyLine);
  const VerifierKey key = parsedKey ? *parsedKey : fuzz::fixedKey().verifier();

  Result<json::Value> receipt = json::parse(text);
  if (!receipt) return 0;
  const bool shapeOk = validateReceipt(*receipt).ok();
  if (verifyReceipt(*receipt, key).ok()) {
    require(shapeOk, "verifyReceipt accepts only receipts that validate");
  }
  if (!receipt->isObject()) return 0;

  json::Value unsignedReceipt = std::move(*receipt);
  unsignedReceipt.asObject().erase("sig");
  Result<json::Value> signedReceipt = signReceipt(unsignedReceipt, fuzz::fixedKey());
  require(signedReceipt.ok() == shapeOk, "signReceipt signs exactly the receipts that validate");
  if (!signedReceipt) return 0;
  const VerifierKey fixed = fuzz::fixedKey().verifier();
  require(verifyReceipt(*signedReceipt, fixed).ok(), "a signed receipt verifies");
  const Result<json::Value> reread = json::parseCanonical(json::canonical(*signedReceipt));
  require(reread.ok() && verifyReceipt(*reread, fixed).ok(),
          "a signed receipt verifies after a trip through its canonical text");

  // Any change to what was signed must show: here, the id gets one more character.
  json::Value tampered = std::move(*signedReceipt);
  tampered.asObject()["id"].asString() += "x";
  require(!verifyReceipt(tampered, fixed).ok(), "a changed receipt no longer verifies");
  return 0;
}
