// What an inbound text asks that the staffing assistant does not do, so that the reply can say so
// honestly instead of a generic "I can help with call-outs" (the issue "Call-outs and texts",
// defect 5):
//   ranking   rate, rank or compare people ("who's the laziest cook?", "rank the staff", "compare
//             Ana and Ben", "who should I fire", "quién es el mejor mesero")
//   contact   someone's phone number or address ("what's Ana's number", "can you send me Ben's
//             cell", "dame el número de Ana"); the sender's own number is not this ("I have a new
//             number", "text me at this number")
//   none      anything else
// Asked only about text that is none of the fixed replies and no call-out intent: a text that
// also reports a no-show is a call-out first.
//
// Deterministic: word patterns on folded words (phrase_set.h), English and Spanish. Pure and
// thread-safe after construction; any bytes are accepted.
#pragma once

#include <string_view>

#include "sms/text/phrase_set.h"

namespace atoms::sms {

enum class OutOfScopeKind { kNone, kRanking, kContact };

// "none", "ranking", "contact".
std::string_view outOfScopeKindName(OutOfScopeKind kind);

class OutOfScopeDetector {
 public:
  OutOfScopeDetector();

  // The first request of the text the assistant does not do, in text order.
  OutOfScopeKind check(std::string_view body) const;

 private:
  PhraseSet phrases_;
};

}  // namespace atoms::sms
