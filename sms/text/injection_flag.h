// The injection flag on inbound text (seed 001 RISK-07): text that addresses the system with
// instructions ("ignore your previous instructions", "you are now...", "system:", "approve all
// overtime", "as the manager I authorize..."), or hides text from the person reading it (zero-width
// and bidi characters, Unicode tag characters, words mixing Latin with Cyrillic or Greek letters).
//
// A flag changes how the text is handled, never what it makes happen: flagged text is kept and
// shown as quoted data, it is never a command, an approval or a source for an action (R-PLAT-006
// denies any action whose inputs carry the flag), and the flag and its reasons go into the audit
// log so ops can review and release a false positive ("please ignore my last text" is not
// flagged: only instructions aimed at the system are). Nothing in this file decides; it only
// reports. Keywords (keywords.h) are parsed before this and are not affected by it, so STOP always
// works.
//
// The patterns are one table (injection_flag.cpp, syntax in phrase_set.h) plus a list of literal
// markers (chat-template role tags). Immutable after construction; check() is const and
// thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "sms/text/phrase_set.h"

namespace atoms::sms {

enum class InjectionReason {
  kOverrideInstructions,  // "ignore/disregard/forget ... instructions|rules|prompt"
  kRoleChange,            // "you are now", "pretend to be", "developer mode", "act as an AI"
  kRoleMarker,            // "system:", "<|im_start|>", "[INST]", "### instruction"
  kAuthorityClaim,        // "as the manager I authorize", "manager override", "I am the owner"
  kBulkApproval,          // "approve all", "auto-approve", "mark everything approved"
  kDisclosureRequest,     // "reveal your prompt", "send me everyone's phone numbers"
  kCodeOrMarkup,          // "<script", "DROP TABLE", "{{", "${", "rm -rf"
  kHiddenCharacters,      // invisible format characters, bidi controls, tag characters
  kMixedScript,           // a word mixing Latin with Greek or Cyrillic letters (homoglyphs)
};

// "override_instructions", "role_change", "role_marker", "authority_claim", "bulk_approval",
// "disclosure_request", "code_or_markup", "hidden_characters", "mixed_script".
std::string_view injectionReasonName(InjectionReason reason);

struct InjectionFinding {
  InjectionReason reason = InjectionReason::kOverrideInstructions;
  std::size_t begin = 0;  // byte range in the checked text
  std::size_t length = 0;
};

struct InjectionFlag {
  std::vector<InjectionFinding> findings;  // in text order
  bool flagged() const { return !findings.empty(); }
  // The distinct reason names, comma-separated, for the audit entry ("role_change,bulk_approval").
  std::string reasons() const;
};

class InjectionDetector {
 public:
  InjectionDetector();

  // Any bytes are accepted (invalid UTF-8 separates words).
  InjectionFlag check(std::string_view text) const;

 private:
  PhraseSet phrases_;
};

}  // namespace atoms::sms
