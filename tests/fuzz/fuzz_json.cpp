// Fuzz target: json::parse and json::parseCanonical (store/canonical_json.h), the parsers in front
// of every entry, segment and receipt that arrives from outside.
//
// Properties checked on every input, beyond "no crash, no sanitizer report":
//   - parseCanonical accepts a subset of parse, with the same value, and only canonical(value);
//   - whatever parse returns validates, and parse(canonical(v)) == v;
//   - canonical is idempotent and its text is accepted by parseCanonical;
//   - the one-pass CanonicalReader accepts a whole text exactly when it is canonical(parse(text)).
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/canonical_json.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace atoms;
  using fuzz::require;
  const std::string_view text = fuzz::asText(data, size);

  const Result<json::Value> loose = json::parse(text);
  const Result<json::Value> strict = json::parseCanonical(text);
  if (strict) {
    require(loose.ok(), "parseCanonical accepts only what parse accepts");
    require(*strict == *loose, "parseCanonical and parse give the same value");
    require(json::canonical(*strict) == text, "parseCanonical accepts only canonical text");
  }
  json::CanonicalReader reader(text);
  const bool onePass = reader.skipValue(0) && reader.atEnd();
  require(onePass == (loose.ok() && json::canonical(*loose) == text),
          "the one pass accepts exactly the canonical texts");
  if (!loose) {
    require(!strict, "parse rejects what parseCanonical rejects");
    require(!loose.message().empty(), "a parse error has a message");
    return 0;
  }

  require(json::validate(*loose).ok(), "what parse returns validates");
  const std::string canon = json::canonical(*loose);
  require(json::isValidUtf8(canon), "canonical text is UTF-8");
  const Result<json::Value> again = json::parse(canon);
  require(again.ok() && *again == *loose, "parse(canonical(v)) == v");
  require(json::canonical(*again) == canon, "canonical is idempotent");
  const Result<json::Value> reread = json::parseCanonical(canon);
  require(reread.ok() && *reread == *loose, "parseCanonical accepts canonical(v)");
  return 0;
}
