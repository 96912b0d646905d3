#include "drivers/sms/encoding/utf.h"

#include <cstdint>

namespace atoms::drivers {

namespace {

bool isContinuation(unsigned char b) { return (b & 0xC0) == 0x80; }

bool isSurrogate(char32_t c) { return c >= 0xD800 && c <= 0xDFFF; }

}  // namespace

std::optional<CodePoint> decodeUtf8At(std::string_view text, std::size_t offset) {
  if (offset >= text.size()) return std::nullopt;
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[offset + i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return CodePoint{lead, 1};

  std::size_t length = 0;
  char32_t value = 0;
  char32_t minimum = 0;  // below this, the sequence is an overlong form
  if ((lead & 0xE0) == 0xC0) {
    length = 2;
    value = lead & 0x1F;
    minimum = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    value = lead & 0x0F;
    minimum = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    value = lead & 0x07;
    minimum = 0x10000;
  } else {
    return std::nullopt;  // a continuation byte, or 0xF8..0xFF
  }
  if (text.size() - offset < length) return std::nullopt;
  for (std::size_t i = 1; i < length; ++i) {
    if (!isContinuation(byte(i))) return std::nullopt;
    value = (value << 6) | (byte(i) & 0x3F);
  }
  if (value < minimum || value > 0x10FFFF || isSurrogate(value)) return std::nullopt;
  return CodePoint{value, length};
}

Status validateUtf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto cp = decodeUtf8At(text, i);
    if (!cp) return makeError("text is not valid UTF-8 (at byte " + std::to_string(i) + ")");
    i += cp->bytes;
  }
  return Status::success();
}

void appendUtf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

Result<std::u16string> utf8ToUtf16(std::string_view utf8) {
  std::u16string out;
  out.reserve(utf8.size());
  for (std::size_t i = 0; i < utf8.size();) {
    const auto cp = decodeUtf8At(utf8, i);
    if (!cp) return makeError("text is not valid UTF-8 (at byte " + std::to_string(i) + ")");
    if (cp->value > 0xFFFF) {
      const char32_t v = cp->value - 0x10000;
      out.push_back(static_cast<char16_t>(0xD800 + (v >> 10)));
      out.push_back(static_cast<char16_t>(0xDC00 + (v & 0x3FF)));
    } else {
      out.push_back(static_cast<char16_t>(cp->value));
    }
    i += cp->bytes;
  }
  return out;
}

Result<std::string> utf16ToUtf8(std::u16string_view utf16) {
  std::string out;
  out.reserve(utf16.size());
  for (std::size_t i = 0; i < utf16.size(); ++i) {
    const char16_t unit = utf16[i];
    if (unit >= 0xD800 && unit <= 0xDBFF) {
      if (i + 1 < utf16.size() && utf16[i + 1] >= 0xDC00 && utf16[i + 1] <= 0xDFFF) {
        const char32_t high = unit - 0xD800;
        const char32_t low = utf16[i + 1] - 0xDC00;
        appendUtf8(out, 0x10000 + ((high << 10) | low));
        ++i;
        continue;
      }
      return makeError("UTF-16 text has an unpaired high surrogate (at code unit " +
                       std::to_string(i) + ")");
    }
    if (unit >= 0xDC00 && unit <= 0xDFFF) {
      return makeError("UTF-16 text has an unpaired low surrogate (at code unit " +
                       std::to_string(i) + ")");
    }
    appendUtf8(out, unit);
  }
  return out;
}

std::size_t countCodePoints(std::string_view utf8) {
  std::size_t count = 0;
  for (const unsigned char c : utf8) {
    if ((c & 0xC0) != 0x80) ++count;  // every byte but a continuation byte starts one
  }
  return count;
}

}  // namespace atoms::drivers
