// UTF-8 and UTF-16 for SMS text: strict decoding (what arrives from a provider, a modem or a
// template must be well-formed before anything counts, stores or sends it) and conversion between
// UTF-8 (how the rest of the program holds text) and UTF-16 (what UCS-2 SMS carry on the air).
//
// Strict means: no overlong forms, no UTF-16 surrogates encoded in UTF-8 (CESU-8), nothing above
// U+10FFFF, no truncated sequence, and in UTF-16 no unpaired surrogate. Errors are one line naming
// the byte (UTF-8) or code unit (UTF-16) offset. All functions are pure and thread-safe.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace atoms::drivers {

struct CodePoint {
  char32_t value = 0;
  std::size_t bytes = 0;  // length of its UTF-8 sequence, 1..4
};

// The code point whose UTF-8 sequence starts at text[offset]; nullopt when that sequence is not
// well-formed or offset is at or past the end.
std::optional<CodePoint> decodeUtf8At(std::string_view text, std::size_t offset);

// Ok when the whole of `text` is well-formed UTF-8.
Status validateUtf8(std::string_view text);

// Code points of well-formed UTF-8 (precondition: validateUtf8 passed): what a person counts as
// characters, and what body limits are in.
std::size_t countCodePoints(std::string_view utf8);

// Appends the UTF-8 form of `c` (precondition: a Unicode scalar value: <= U+10FFFF, not a
// surrogate).
void appendUtf8(std::string& out, char32_t c);

// 1 for code points in the Basic Multilingual Plane, 2 for those that need a surrogate pair.
inline int utf16Units(char32_t c) { return c > 0xFFFF ? 2 : 1; }

Result<std::u16string> utf8ToUtf16(std::string_view utf8);
Result<std::string> utf16ToUtf8(std::u16string_view utf16);

}  // namespace atoms::drivers
