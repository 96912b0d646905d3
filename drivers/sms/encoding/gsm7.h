// The GSM 7-bit default alphabet and its extension table (3GPP TS 23.038 section 6.2.1), as
// unpacked septet codes: one code per byte, 0x00..0x7F. Packing septets into octets (and the fill
// bits after a User Data Header) is the PDU layer's job, not this one's.
//
// Encoding is lossless or nothing: a character maps only to the septet that decodes back to the
// same character (no "smart" folding of ç to Ç or of curly quotes to straight ones), so text that
// encodes here is delivered exactly as written, and anything else goes out as UCS-2.
// All functions are pure and thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace atoms::drivers {

// The escape to the extension table: ESC followed by an extension code is one character.
inline constexpr std::uint8_t kGsm7Escape = 0x1B;

// Septets `c` takes in GSM-7: 1 (default alphabet), 2 (extension table: ESC + code), or 0 when it
// cannot be written in GSM-7 at all.
int gsm7Septets(char32_t c);

// The unpacked septets of `utf8`, extension characters as ESC + code; nullopt when any character
// is not representable or the text is not valid UTF-8.
std::optional<std::vector<std::uint8_t>> encodeGsm7(std::string_view utf8);

// UTF-8 text of unpacked septets. An error only for a value above 0x7F (not a septet: the caller
// unpacked wrongly). Following TS 23.038, ESC before a code the extension table does not define
// shows the default-alphabet character of that code, and ESC ESC (reserved) shows a space; a lone
// ESC at the very end (a sender that split an escape across parts) also shows a space, so a
// received message is never lost for a cosmetic fault.
Result<std::string> decodeGsm7(std::span<const std::uint8_t> septets);

}  // namespace atoms::drivers
