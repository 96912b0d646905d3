// Every text the conversation layer writes to people, in English and Spanish (docs/sms.md,
// "Conversation", quotes them all). Plain, kind and short; never disciplinary; never claiming to be
// human; each names a way to reach a person or to stop. The texts keep to the GSM-7 alphabet in
// English (one segment is 160 characters there); Spanish needs letters such as "á" that GSM-7
// lacks, so those go as UCS-2. Every text passes the content lint (pinned by the tests).
//
// Pure functions, thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "sms/conversation/language.h"
#include "sms/conversation/roster.h"

namespace atoms::sms::conversation {

// "Dana Lee at +15550100200", "Dana Lee", or "your manager" when no contact is configured.
std::string describeHuman(const HumanContact& human, Language language);

struct ReplyContext {
  Language language = Language::kEnglish;
  std::string site;    // the site's display name
  HumanContact human;  // who to reach

  bool spanish() const { return language == Language::kSpanish; }
  // describeHuman of `human` in this language.
  std::string humanText() const { return describeHuman(human, language); }
};

// The one confirmation of an opt-out (STOP and its family).
std::string optOutConfirmationText(const ReplyContext& c);
// START/UNSTOP (or YES) from a person who was opted out.
std::string optInConfirmationText(const ReplyContext& c);
// START/UNSTOP from a person who was not opted out.
std::string alreadySubscribedText(const ReplyContext& c);
// A stop-like reply that is not a clear STOP (offers_pause.h): the one in-thread question, asked
// once: offers are paused, how to get them again, how to stop everything, the way to a person.
std::string offersPausedText(const ReplyContext& c);
// OFFERS ON (or START) from a person whose offers were paused.
std::string offersResumedText(const ReplyContext& c);
// HELP/INFO/AYUDA: who this is, that it is automated, how to reach a person, how to stop.
std::string helpText(const ReplyContext& c);
// To a person whose text was refused for its length (over 1,600 characters, through the modem).
std::string tooLongText(const ReplyContext& c);
// The once-a-day reply to a number that is not on the roster.
std::string unknownNumberText(const ReplyContext& c);
// An offer reply (a code, taken or declined) when nothing handles offers, or the code is closed.
std::string offerClosedText(const ReplyContext& c);
// An offer reply that names two open codes, or says yes and no at once.
std::string offerAmbiguousText(const ReplyContext& c);
// APPROVE/DENY when nothing handles approvals by text yet.
std::string approvalsLaterText(const ReplyContext& c);
// Writes are frozen (kill switch L2+): the message is kept for later; who to reach meanwhile.
std::string pausedText(const ReplyContext& c);
// A message kept while writes were frozen waited longer than the frozen-hold limit (48 h) and was
// dropped, not acted on late: send it again if it still matters, or reach a person.
std::string parkedWithdrawnText(const ReplyContext& c);
// The kill switch reached L2: to each person in an active thread, who to reach meanwhile.
std::string pauseNoticeText(const ReplyContext& c);
// Anything else, when nothing else answers it: what the assistant does, and the way to a person.
std::string conversationFallbackText(const ReplyContext& c);
// When handling the text failed on the box's side.
std::string handlingFailedText(const ReplyContext& c);

}  // namespace atoms::sms::conversation
