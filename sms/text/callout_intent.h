// What an inbound text says about coming in to work, when it is none of the fixed replies
// (keywords.h: STOP, HELP, WHY, offer codes, APPROVE/DENY) and no safety report (safety_report.h):
//   coworker_no_show  someone else did not come in ("Jamal didn't show", "falta Jamal", "Jamal
//                     called out"); personIds says who, from the roster the caller passes
//   self_call_out     the sender will not come in ("sick, can't come in", "no puedo ir hoy")
//   running_late      the sender is coming, late ("running 10 min late", "llego en 20 minutos");
//                     minutesLate when the text says how many minutes
//   arrived           the sender is at work ("I'm here", "clocked in", "ya llegué")
//   none              anything else; the caller gives a short helpful reply
//
// Deterministic: one table of word patterns (callout_intent.cpp, syntax in phrase_set.h) on folded
// words (tokens.h), English and Spanish, texting spellings ("cant", "b there in 10", "ur"), with
// guards for the harmless uses ("did Jamal show you the menu", "late shift", "not sick").
// A phrase says who it is about by its subject: the word before it ("Jamal can't make it" is
// Jamal's no-show, "I can't make it" or just "can't make it" the sender's call-out); late or
// arrived said of someone else ("Jamal is here", "Jamal is running late") is not an intent of the
// sender and gives none. A negated phrase ("not running late", "not calling out") is none.
//
// Low confidence means: ask one question instead of acting. `question` is a stable code:
//   "who"      a no-show without exactly one person: no name, a name of no one on the roster, two
//              people named, or a first name two people share (personIds then holds both)
//   "which"    two intents that do not go together ("running late and might not make it", a
//              no-show and a call-out); kind is the first of them in the text
//   "confirm"  only a health or family word, no call-out phrase ("feeling sick"): is this a
//              call-out? (kind self_call_out, or coworker_no_show when a co-worker is named)
//
// Privacy: `matched` (for the audit log) holds only the words of the call-out, lateness or arrival
// phrases, never a health or family word ("sick", "fever", "enfermo", "family emergency"), even
// when they sit inside a phrase: the audit log must never carry why someone is out.
//
// Immutable after construction; parse() is const and thread-safe. Any bytes are accepted.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sms/text/phrase_set.h"

namespace atoms::sms {

enum class CallOutIntentKind { kNone, kCoworkerNoShow, kSelfCallOut, kRunningLate, kArrived };

// "none", "coworker_no_show", "self_call_out", "running_late", "arrived".
std::string_view callOutIntentKindName(CallOutIntentKind kind);

enum class IntentConfidence { kHigh, kLow };

// One person the sender may be talking about: a roster id and the display name ("Jamal Reed").
// The first word of the name is the first name, the rest the last name.
struct NameCandidate {
  std::string personId;
  std::string name;
};

struct CallOutIntent {
  CallOutIntentKind kind = CallOutIntentKind::kNone;
  IntentConfidence confidence = IntentConfidence::kHigh;
  std::vector<std::string> personIds;  // no-show: the people named, text order, no repeats
  std::optional<int> minutesLate;      // running late, when stated in minutes (or hours)
  std::vector<std::string> matched;    // the phrase words as written, text order (see above)
  std::string question;                // low confidence only: "who", "which" or "confirm"
};

class CallOutIntentParser {
 public:
  CallOutIntentParser();

  // `people`: the roster the sender may be talking about (the caller passes its site's people,
  // the sender excluded). A name matches by first name or full name, case and accents ignored,
  // with a possessive ("Jamal's") and, for words of 5 letters or more on both sides, one typo
  // ("Jamall"). A first name that is also a common word ("Will", "Grace") counts only written
  // with a capital and not as the first word of a sentence.
  CallOutIntent parse(std::string_view text, std::span<const NameCandidate> people) const;

 private:
  PhraseSet phrases_;
  PhraseSet harmless_;
};

}  // namespace atoms::sms
