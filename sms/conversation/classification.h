// Classification: what one inbound text says, read once (docs/sms.md, "Conversation"). The
// conversation answers from it (intent_table.h) and BRK-OUT's stop-class signal reads stopClass()
// of the same value (Conversation::setOnClassified, daemon/service/sms_breaker_signals.h), so no
// text is read twice.
//
// The readings, all of them, whatever the sender: the keyword (keywords.h, read against the
// sender's open offer codes), the injection flag (injection_flag.h), an "ACK <id>" to a safety
// alert (safety_desk.h) and a safety report (safety_report.h), OFFERS ON and a stop-like phrase
// (stop_like.h), a checklist record (checklist_intent.h). From them, the intents the text carries,
// in the order the conversation answers them (the order of Intent):
//   kOptOut        the keyword is STOP or its family
//   kOptIn         START, UNSTOP or YES
//   kSafety        an ACK or a safety report
//   kOffersOn      OFFERS ON, with no keyword
//   kStopLike      a stop-like phrase, with no keyword and not OFFERS ON
//   kChecklist     a checklist record, with no keyword, in text that is not flagged
//   kHelp, kWhy    the keyword
//   and last, always exactly one of (the turn a ReplyHandler would take):
//   kOfferReply    a reply to an offer by code (taken, declined, ambiguous, or a code not open)
//   kApproval      APPROVE n / DENY n in text that is not flagged (flagged, it is conversation)
//   kConversation  anything else: a call-out report, a question, small talk
// Whether an intent is answered also depends on who wrote and the state they are in (opted out,
// offers paused, on the roster): the handlers decide that (intent_table.h).
//
// Pure; classify() is const and thread-safe. Any bytes are accepted.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sms/text/checklist_intent.h"
#include "sms/text/injection_flag.h"
#include "sms/text/keywords.h"
#include "sms/text/safety_report.h"
#include "sms/text/stop_like.h"

namespace atoms::sms::conversation {

enum class Intent {
  kOptOut,
  kOptIn,
  kSafety,
  kOffersOn,
  kStopLike,
  kChecklist,
  kHelp,
  kWhy,
  kOfferReply,
  kApproval,
  kConversation,
};

// "opt_out", "opt_in", "safety", "offers_on", "stop_like", "checklist", "help", "why",
// "offer_reply", "approval", "conversation".
std::string_view intentName(Intent intent);

struct Classification {
  ParsedKeyword keyword;
  InjectionFlag injection;
  std::optional<std::int64_t> safetyAck;  // the incident of "ACK <id>"
  std::optional<SafetyReport> safetyReport;
  bool offersOn = false;
  std::optional<StopLike> stopLike;  // anywhere in the text, whatever the keyword
  std::optional<ChecklistIntent> checklist;
  std::vector<Intent> intents;  // in Intent order; never empty: the last is the turn

  bool says(Intent intent) const;
  // The turn: kOfferReply, kApproval or kConversation.
  Intent turn() const { return intents.back(); }
  // A stop-class reply (seed 001 section 8, BRK-OUT): STOP and its family, or a stop-like phrase.
  bool stopClass() const { return keyword.kind == KeywordKind::kOptOut || stopLike.has_value(); }
};

class TextClassifier {
 public:
  TextClassifier();

  // `openOfferCodes`: the codes of the offers open to the sender now, `pastOfferCodes` those
  // offered to them lately and closed (none for a number not on the roster; keywords.h).
  Classification classify(std::string_view body, std::span<const std::string> openOfferCodes = {},
                          std::span<const std::string> pastOfferCodes = {}) const;

 private:
  KeywordParser keywords_;
  InjectionDetector injection_;
  SafetyDetector safety_;
  StopLikeDetector stopLike_;
};

}  // namespace atoms::sms::conversation
