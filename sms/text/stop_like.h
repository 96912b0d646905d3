// Stop-like replies (seed 001 EC-RISK-005, RISK-02): text that sounds like "stop" without being a
// clear opt-out: annoyance ("ugh, enough texts", "leave me alone", "quit bugging me", "ya basta de
// mensajes", "déjame en paz") and sarcasm ("oh please, message me MORE"). A clear opt-out (STOP and
// its family, "stop texting me": keywords.h) is decided before this and always wins.
//
// The rule, deterministic: a message matches when one of the phrase patterns below (EN and ES,
// on folded words, phrase_set.h) occurs anywhere in it. A match carries a fixed confidence per
// pattern family, always below kClearStopConfidence (0.7): annoyance 0.6, sarcasm 0.4. Seed 001
// says a stop-class reply under 0.7 is treated as a stop for that action type (shift offers and
// notices) until the person or the manager of record clears it, failing toward silence; the
// conversation layer does that (offers_pause.h). Ordinary messages that share words ("stop by the
// office", "can't stop laughing", "more hours please", "message me if you need me") do not match:
// the patterns need the whole annoyed phrase. "Message me more" is also an ordinary request ("can
// you text me more details?"), so it counts only when sarcasm is marked: a lead-in right before it
// ("oh please", "yeah right", "oh sure", "wow"), a taunt right after it ("why don't you"), or MORE
// in capitals in a message that is not all capitals.
// Resuming: the whole message "OFFERS ON" (Spanish "OFERTAS SI"), give or take polite words, is
// isResume(); START is a carrier keyword (keywords.h) and resumes too (the conversation layer).
//
// Pure and thread-safe after construction.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "sms/text/phrase_set.h"

namespace atoms::sms {

// At or above this a stop-class reply would be a clear opt-out; everything here is below it.
inline constexpr double kClearStopConfidence = 0.7;

struct StopLike {
  double confidence = 0.0;  // < kClearStopConfidence
  std::string words;        // the matched words, folded ("enough texts"), for the audit log
};

class StopLikeDetector {
 public:
  StopLikeDetector();

  // The first stop-like phrase in the message, if any.
  std::optional<StopLike> check(std::string_view body) const;
  // The message asks for shift offers again ("OFFERS ON", "ofertas sí").
  bool isResume(std::string_view body) const;

 private:
  PhraseSet stopLike_;
  PhraseSet cues_;  // what marks "message me more" as sarcasm
};

}  // namespace atoms::sms
