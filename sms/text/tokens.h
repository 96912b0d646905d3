// Words of a text message, normalised for matching keywords and phrases: what STOP, the content
// lint and the injection flag all look at. One tokenizer so that "St0p"-style tricks, accents,
// curly apostrophes, fullwidth letters and invisible characters are handled the same way
// everywhere.
//
// A token is a run of letters, digits and inner apostrophes; everything else separates tokens
// (spaces, punctuation, hyphens: "no-show" is "no" "show", "#4821" is "4821"; emoji and symbols).
// Folding: ASCII lowercase; Latin-1 letters to their base letter ("É" -> "e", "ß" -> "ss");
// fullwidth ASCII to ASCII; the curly apostrophe to "'". Invisible format characters (zero-width
// spaces and joiners, bidi controls, soft hyphen, variation selectors, Unicode tag characters) are
// dropped, so they cannot split a word. Invalid UTF-8 bytes separate tokens (nothing crashes on
// any input). Pure and thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace atoms::sms {

struct Token {
  std::string folded;     // normalised as above
  std::size_t begin = 0;  // byte range of the token in the original text
  std::size_t end = 0;
  bool numeric = false;      // only ASCII digits (after folding)
  bool mixedScript = false;  // letters from more than one of Latin, Greek, Cyrillic
};

std::vector<Token> tokenize(std::string_view text);

// True for the invisible format characters the tokenizer drops (see above).
bool isInvisibleFormatCharacter(char32_t c);

// Whether `a` and `b` are at most one edit apart (optimal string alignment: one substitution,
// insertion, deletion or transposition of neighbours): the typo tolerance of names and dates.
bool withinOneEdit(std::string_view a, std::string_view b);

}  // namespace atoms::sms
