// A table of word patterns matched against tokenize()d text: the one matcher behind the content
// lint, the injection flag and the opt-out phrases, so each of those is a list of patterns (data)
// rather than code.
//
// Pattern syntax (on folded words, see tokens.h), slots separated by spaces:
//   word          one token equal to `word`
//   a|b|c         one of the alternatives
//   word*         a token starting with `word` ("disciplin*" matches "disciplinary")
//   i_am          an alternative of several consecutive tokens ("i am")
//   slot?         the slot may be absent ("a|an?")
//   ~N            any 0..N tokens ("ignore ~3 instructions" matches "ignore all previous
//                 instructions")
// Every string compiles (an empty alternative is ignored), so a table can never fail to load.
//
// Immutable after construction; find() is const and thread-safe.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sms/text/tokens.h"

namespace atoms::sms {

struct PhrasePattern {
  std::string_view pattern;
  int tag = 0;  // the caller's meaning for a match (a category, a reason code)
};

struct PhraseMatch {
  int tag = 0;
  std::string_view pattern;  // the pattern as given (points into the caller's table)
  std::size_t firstToken = 0;
  std::size_t endToken = 0;  // one past the last matched token
};

class PhraseSet {
 public:
  // `patterns` must outlive the set (matches point into it; tables are static data).
  explicit PhraseSet(std::span<const PhrasePattern> patterns);

  // Every place a pattern matches, at most one match per (pattern, first token): the longest.
  // Ordered by first token, then by table order.
  std::vector<PhraseMatch> find(const std::vector<Token>& tokens) const;

 private:
  struct Alternative {
    std::vector<std::string> words;
    bool prefix = false;  // the last word matches as a prefix
  };
  struct Slot {
    std::vector<Alternative> alternatives;
    bool optional = false;
    int gap = 0;  // > 0: a wildcard of 0..gap tokens (alternatives unused)
  };
  struct Compiled {
    std::vector<Slot> slots;
    int tag = 0;
    std::string_view pattern;
  };

  // The end token of the longest match of slots[slot...] starting at token `at`, or npos.
  std::size_t matchFrom(const Compiled& phrase, std::size_t slot, const std::vector<Token>& tokens,
                        std::size_t at, std::size_t limit) const;
  static bool matchesAlternative(const Alternative& alt, const std::vector<Token>& tokens,
                                 std::size_t at, std::size_t limit);

  // The phrases worth trying at a token, in table order: those whose first slot can match its
  // word (by exact first word or by prefix) and those that start with an optional slot.
  std::vector<std::size_t> candidates(const std::string& word) const;

  std::vector<Compiled> phrases_;
  std::unordered_map<std::string, std::vector<std::size_t>> byFirstWord_;
  std::vector<std::pair<std::string, std::size_t>> byFirstPrefix_;
  std::vector<std::size_t> alwaysTry_;
};

}  // namespace atoms::sms
