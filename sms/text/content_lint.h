// The forbidden-content lint for outgoing text (seed 000 section 5.4, EC-MGR-010, DESIGN.md section
// 5): nothing the box sends may read as discipline, mention anyone's health or private life, rank
// or compare people, predict what a person will do, claim to be human, or ask the reader to keep
// something from their manager. Every outgoing message passes through check() before it is queued;
// a finding stops it (the caller rewrites the text or fails the step and says so).
//
// The rules are one table of word patterns (content_lint.cpp, syntax in phrase_set.h), matched on
// normalised words (tokens.h), so "Write-up", "write up" and "WRITTEN UP" are one rule and a
// zero-width space cannot hide a word. The table errs towards flagging: a false finding costs a
// rewording, a missed one costs a person's dignity. Safety alerts name the hazard, not anyone's
// condition ("Slip hazard by the dish pit", never "Ana was injured").
//
// Immutable after construction; check() is const and thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "sms/text/phrase_set.h"

namespace atoms::sms {

enum class LintCategory {
  kDiscipline,   // write-ups, warnings, firing, penalties, blame ("no-show", "unreliable")
  kHealth,       // illness, injury, doctors, pregnancy, ...
  kPrivateLife,  // family matters, court, religion, immigration, ...
  kRanking,      // best/worst/top performer, rankings, scores, comparisons of people
  kPrediction,   // "likely to quit"
  kHumanClaim,   // "I'm a real person", "this is not a bot"
  kSecrecy,      // "don't tell your manager", "keep this between us"
};

// "discipline", "health", "private_life", "ranking", "prediction", "human_claim", "secrecy".
std::string_view lintCategoryName(LintCategory category);

struct LintFinding {
  LintCategory category = LintCategory::kDiscipline;
  std::size_t begin = 0;  // byte range of the offending words in the checked text
  std::size_t length = 0;
  std::string matched;    // those bytes, as written
  std::string_view rule;  // the table pattern that matched
};

class ContentLint {
 public:
  ContentLint();

  // All findings, in text order; empty when the text may be sent. Any bytes are accepted
  // (invalid UTF-8 separates words).
  std::vector<LintFinding> check(std::string_view text) const;

  // One line for an operator or a receipt: "discipline: \"written up\"; health: \"sick\"".
  static std::string describe(const std::vector<LintFinding>& findings);

 private:
  PhraseSet rules_;
};

}  // namespace atoms::sms
