// Fuzz target: parseEntry (store/audit_entry.h), every audit entry text in a segment, and
// checkEntry (store/log_verifier.h), the per-entry check of the segment and log verifiers.
//
// Properties: an accepted entry validates and entryText gives back exactly the input (the entry
// bytes are what the leaf hash covers, so one entry has one text); checkEntry agrees with
// parseEntry on what it accepts; parseEntryHead accepts what parseEntry accepts, with the same
// fields and the body's canonical text, and refuses the rest with parseEntry's message; a receipt
// entry re-signed with the fixed key passes checkEntry exactly when its body has the receipt shape.
#include <cstddef>
#include <cstdint>
#include <string>

#include "store/audit_entry.h"
#include "store/log_verifier.h"
#include "store/merkle.h"
#include "store/receipt.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace atoms;
  using fuzz::require;
  const std::string_view text = fuzz::asText(data, size);

  const Result<Entry> e = parseEntry(text);
  const Result<EntryHead> head = parseEntryHead(text);
  if (!e) {
    require(!e.message().empty(), "a rejected entry has a message");
    require(!head && head.message() == e.message(), "parseEntryHead refuses it the same way");
    return 0;
  }
  require(head.ok(), "parseEntryHead accepts what parseEntry accepts");
  require(head->seq == e->seq && head->ts == e->ts && head->site == e->site &&
              head->kind == e->kind && head->actor == e->actor && head->prev == e->prev &&
              head->body == json::canonical(e->body),
          "parseEntryHead reads the same fields");
  require(validateEntry(*e).ok(), "a parsed entry validates");
  require(entryText(*e) == text, "entryText(parseEntry(t)) == t");

  // With its own seq, site and prev, only a receipt signature can make checkEntry refuse it.
  const Result<CheckedEntry> checked =
      checkEntry(text, e->seq, e->site, e->prev, fuzz::fixedKey().verifier());
  if (checked) {
    require(checked->leaf == leafHash(asBytes(text)), "checkEntry returns the leaf hash");
  } else {
    require(e->kind == "receipt", "checkEntry refuses a parsed entry only for its receipt");
  }
  if (e->kind != "receipt") return 0;

  json::Value body = e->body;
  body.asObject().erase("sig");
  const bool shapeOk = validateReceipt(body).ok();
  Result<json::Value> signedBody = signReceipt(std::move(body), fuzz::fixedKey());
  require(signedBody.ok() == shapeOk, "signReceipt signs exactly the receipts that validate");
  if (!signedBody) return 0;
  Entry resigned = *e;
  resigned.body = std::move(*signedBody);
  const std::string resignedText = entryText(resigned);
  if (resignedText.size() > kMaxEntryBytes) return 0;  // the signature pushed it over the bound
  const Result<CheckedEntry> rechecked =
      checkEntry(resignedText, e->seq, e->site, e->prev, fuzz::fixedKey().verifier());
  require(rechecked.ok() && rechecked->receipt, "a receipt entry signed by the key passes");
  return 0;
}
