#include "drivers/sms/encoding/gsm7.h"

#include <array>

#include "drivers/sms/encoding/utf.h"

namespace atoms::drivers {

namespace {

// TS 23.038 6.2.1: the default alphabet, indexed by septet. 0x1B is the escape (never a
// character on its own).
constexpr std::array<char32_t, 128> kDefaultAlphabet = {
    U'@',      U'\u00A3', U'$',      U'\u00A5', U'\u00E8', U'\u00E9', U'\u00F9', U'\u00EC',  // 0x00
    U'\u00F2', U'\u00C7', U'\n',     U'\u00D8', U'\u00F8', U'\r',     U'\u00C5', U'\u00E5',  // 0x08
    U'\u0394', U'_',      U'\u03A6', U'\u0393', U'\u039B', U'\u03A9', U'\u03A0', U'\u03A8',  // 0x10
    U'\u03A3', U'\u0398', U'\u039E', U'\x1B',   U'\u00C6', U'\u00E6', U'\u00DF', U'\u00C9',  // 0x18
    U' ',      U'!',      U'"',      U'#',      U'\u00A4', U'%',      U'&',      U'\'',      // 0x20
    U'(',      U')',      U'*',      U'+',      U',',      U'-',      U'.',      U'/',       // 0x28
    U'0',      U'1',      U'2',      U'3',      U'4',      U'5',      U'6',      U'7',       // 0x30
    U'8',      U'9',      U':',      U';',      U'<',      U'=',      U'>',      U'?',       // 0x38
    U'\u00A1', U'A',      U'B',      U'C',      U'D',      U'E',      U'F',      U'G',       // 0x40
    U'H',      U'I',      U'J',      U'K',      U'L',      U'M',      U'N',      U'O',       // 0x48
    U'P',      U'Q',      U'R',      U'S',      U'T',      U'U',      U'V',      U'W',       // 0x50
    U'X',      U'Y',      U'Z',      U'\u00C4', U'\u00D6', U'\u00D1', U'\u00DC', U'\u00A7',  // 0x58
    U'\u00BF', U'a',      U'b',      U'c',      U'd',      U'e',      U'f',      U'g',       // 0x60
    U'h',      U'i',      U'j',      U'k',      U'l',      U'm',      U'n',      U'o',       // 0x68
    U'p',      U'q',      U'r',      U's',      U't',      U'u',      U'v',      U'w',       // 0x70
    U'x',      U'y',      U'z',      U'\u00E4', U'\u00F6', U'\u00F1', U'\u00FC', U'\u00E0',  // 0x78
};

struct Extension {
  std::uint8_t code;
  char32_t character;
};

// TS 23.038 6.2.1.1: the extension table (after ESC).
constexpr std::array<Extension, 10> kExtensionTable = {{
    {0x0A, U'\f'},
    {0x14, U'^'},
    {0x28, U'{'},
    {0x29, U'}'},
    {0x2F, U'\\'},
    {0x3C, U'['},
    {0x3D, U'~'},
    {0x3E, U']'},
    {0x40, U'|'},
    {0x65, U'\u20AC'},
}};

constexpr int kNotFound = -1;
constexpr int kExtensionFlag = 0x100;

// The septet of `c` (or kExtensionFlag | extension code), kNotFound when none.
int lookup(char32_t c) {
  if (c == kGsm7Escape) return kNotFound;
  for (std::size_t i = 0; i < kDefaultAlphabet.size(); ++i) {
    if (kDefaultAlphabet[i] == c) return static_cast<int>(i);
  }
  for (const Extension& e : kExtensionTable) {
    if (e.character == c) return kExtensionFlag | e.code;
  }
  return kNotFound;
}

// Printable ASCII and LF/CR are looked up on every character of every message: precompute them.
struct AsciiTable {
  std::array<int, 128> code{};
  constexpr AsciiTable() {
    for (auto& c : code) c = kNotFound;
    for (std::size_t i = 0; i < kDefaultAlphabet.size(); ++i) {
      const char32_t c = kDefaultAlphabet[i];
      if (c < 0x80 && i != kGsm7Escape) code[c] = static_cast<int>(i);
    }
    for (const Extension& e : kExtensionTable) {
      if (e.character < 0x80) code[e.character] = kExtensionFlag | e.code;
    }
  }
};
constexpr AsciiTable kAscii;

int septetOf(char32_t c) { return c < 0x80 ? kAscii.code[c] : lookup(c); }

}  // namespace

int gsm7Septets(char32_t c) {
  const int code = septetOf(c);
  if (code == kNotFound) return 0;
  return (code & kExtensionFlag) != 0 ? 2 : 1;
}

std::optional<std::vector<std::uint8_t>> encodeGsm7(std::string_view utf8) {
  std::vector<std::uint8_t> out;
  out.reserve(utf8.size());
  for (std::size_t i = 0; i < utf8.size();) {
    const auto cp = decodeUtf8At(utf8, i);
    if (!cp) return std::nullopt;
    const int code = septetOf(cp->value);
    if (code == kNotFound) return std::nullopt;
    if ((code & kExtensionFlag) != 0) out.push_back(kGsm7Escape);
    out.push_back(static_cast<std::uint8_t>(code & 0x7F));
    i += cp->bytes;
  }
  return out;
}

Result<std::string> decodeGsm7(std::span<const std::uint8_t> septets) {
  std::string out;
  out.reserve(septets.size());
  for (std::size_t i = 0; i < septets.size(); ++i) {
    const std::uint8_t s = septets[i];
    if (s > 0x7F) {
      return makeError("GSM-7 septet " + std::to_string(i) + " is " + std::to_string(s) +
                       ", above 127");
    }
    if (s != kGsm7Escape) {
      appendUtf8(out, kDefaultAlphabet[s]);
      continue;
    }
    if (i + 1 == septets.size()) {
      out.push_back(' ');
      break;
    }
    const std::uint8_t code = septets[++i];
    if (code > 0x7F) {
      return makeError("GSM-7 septet " + std::to_string(i) + " is " + std::to_string(code) +
                       ", above 127");
    }
    if (code == kGsm7Escape) {
      out.push_back(' ');
      continue;
    }
    char32_t shown = kDefaultAlphabet[code];
    for (const Extension& e : kExtensionTable) {
      if (e.code == code) shown = e.character;
    }
    appendUtf8(out, shown);
  }
  return out;
}

}  // namespace atoms::drivers
