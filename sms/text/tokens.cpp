#include "sms/text/tokens.h"

#include <string_view>
#include <utility>

#include "drivers/sms/encoding/utf.h"

namespace atoms::sms {

namespace {

enum class Kind { kSeparator, kWord, kInvisible, kApostrophe };

enum Script : unsigned { kNoScript = 0, kLatin = 1, kGreek = 2, kCyrillic = 4 };

// Base letters of U+00C0..U+00FF (lowercase), "" for the two that are not letters (× ÷).
constexpr std::string_view kLatin1Fold[64] = {
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i",  "i",   // C0
    "d", "n", "o", "o", "o", "o", "o",  "",  "o", "u", "u", "u", "u", "y", "th", "ss",  // D0
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i",  "i",   // E0
    "d", "n", "o", "o", "o", "o", "o",  "",  "o", "u", "u", "u", "u", "y", "th", "y",   // F0
};

Kind classify(char32_t c) {
  if (c < 0x80) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
      return Kind::kWord;
    }
    return c == '\'' ? Kind::kApostrophe : Kind::kSeparator;
  }
  if (isInvisibleFormatCharacter(c)) return Kind::kInvisible;
  if (c == 0x2019 || c == 0x02BC) return Kind::kApostrophe;  // ’ and the modifier apostrophe
  if (c < 0xC0) return Kind::kSeparator;                     // Latin-1 punctuation and symbols
  if (c == 0xD7 || c == 0xF7) return Kind::kSeparator;       // × ÷
  if (c < 0x2000) return Kind::kWord;                        // Latin, Greek, Cyrillic, ... scripts
  if (c < 0x2C00) return Kind::kSeparator;                   // punctuation, symbols, arrows
  if (c >= 0x2E00 && c < 0x2E80) return Kind::kSeparator;    // supplemental punctuation
  if (c >= 0x3000 && c < 0x3040) return Kind::kSeparator;    // CJK punctuation
  if (c >= 0xE000 && c < 0xF900) return Kind::kSeparator;    // private use
  if (c >= 0xFE10 && c < 0xFE70) return Kind::kSeparator;    // vertical and small forms
  if (c >= 0xFF01 && c <= 0xFF5E) {                          // fullwidth ASCII
    return classify(c - 0xFF01 + 0x21);
  }
  if (c >= 0xFF00 && c < 0xFF10) return Kind::kSeparator;
  if (c >= 0x1F000 && c < 0x1FC00) return Kind::kSeparator;  // emoji and pictographs
  if (c >= 0xF0000) return Kind::kSeparator;                 // supplementary private use
  return Kind::kWord;
}

unsigned scriptOf(char32_t c) {
  if (c < 0x80) return (c >= '0' && c <= '9') ? kNoScript : kLatin;
  if (c < 0x250) return kLatin;
  if (c >= 0x370 && c < 0x400) return kGreek;
  if (c >= 0x1F00 && c < 0x2000) return kGreek;
  if (c >= 0x400 && c < 0x530) return kCyrillic;
  if (c >= 0xFF01 && c <= 0xFF5E) return scriptOf(c - 0xFF01 + 0x21);
  return kNoScript;
}

void appendFolded(std::string& out, char32_t c) {
  if (c >= 0xFF01 && c <= 0xFF5E) c = c - 0xFF01 + 0x21;
  if (c < 0x80) {
    out.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c));
  } else if (c >= 0xC0 && c <= 0xFF) {
    out += kLatin1Fold[c - 0xC0];
  } else {
    drivers::appendUtf8(out, c);
  }
}

bool isDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace

bool isInvisibleFormatCharacter(char32_t c) {
  return c == 0x00AD || c == 0x034F || c == 0x061C || c == 0x180E || (c >= 0x200B && c <= 0x200F) ||
         (c >= 0x202A && c <= 0x202E) || (c >= 0x2060 && c <= 0x2064) ||
         (c >= 0x2066 && c <= 0x206F) || c == 0xFEFF || (c >= 0xFE00 && c <= 0xFE0F) ||
         (c >= 0xE0000 && c <= 0xE007F) || (c >= 0xE0100 && c <= 0xE01EF);
}

std::vector<Token> tokenize(std::string_view text) {
  std::vector<Token> tokens;
  Token current;
  bool open = false;
  unsigned scripts = kNoScript;
  std::size_t pendingApostrophe = std::string_view::npos;  // byte offset of an apostrophe to keep

  const auto close = [&] {
    if (!open) return;
    current.numeric = isDigits(current.folded);
    current.mixedScript = scripts != kNoScript && (scripts & (scripts - 1)) != 0;
    tokens.push_back(std::move(current));
    current = Token{};
    open = false;
    scripts = kNoScript;
  };

  for (std::size_t i = 0; i < text.size();) {
    const auto cp = drivers::decodeUtf8At(text, i);
    if (!cp) {
      close();
      pendingApostrophe = std::string_view::npos;
      ++i;
      continue;
    }
    const Kind kind = classify(cp->value);
    switch (kind) {
      case Kind::kWord:
        if (!open) {
          current.begin = i;
          open = true;
        } else if (pendingApostrophe != std::string_view::npos) {
          current.folded.push_back('\'');
        }
        pendingApostrophe = std::string_view::npos;
        appendFolded(current.folded, cp->value);
        scripts |= scriptOf(cp->value);
        current.end = i + cp->bytes;
        break;
      case Kind::kApostrophe:
        // Kept only between two word characters ("don't"); otherwise a separator (quotes).
        if (open && pendingApostrophe == std::string_view::npos) {
          pendingApostrophe = i;
        } else {
          close();
          pendingApostrophe = std::string_view::npos;
        }
        break;
      case Kind::kInvisible:
        break;  // dropped: the word goes on
      case Kind::kSeparator:
        close();
        pendingApostrophe = std::string_view::npos;
        break;
    }
    i += cp->bytes;
  }
  close();
  return tokens;
}

bool withinOneEdit(std::string_view a, std::string_view b) {
  if (a == b) return true;
  if (a.size() > b.size()) std::swap(a, b);
  if (b.size() - a.size() > 1) return false;
  std::size_t i = 0;
  while (i < a.size() && a[i] == b[i]) ++i;
  if (a.size() == b.size()) {
    if (a.substr(i + 1) == b.substr(i + 1)) return true;  // one substitution
    return i + 1 < a.size() && a[i] == b[i + 1] && a[i + 1] == b[i] &&
           a.substr(i + 2) == b.substr(i + 2);  // one transposition
  }
  return a.substr(i) == b.substr(i + 1);  // one insertion
}

}  // namespace atoms::sms
