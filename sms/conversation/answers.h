// The handlers of intent_table.h: each answers one intent of a classified inbound message
// (classification.h) inside the message's transaction (handling.h), and sets the audit entry's
// outcome (and intent, where it says more than the keyword). Exact texts: replies.h; docs/sms.md,
// "Conversation".
//
// A handler returns true when it answered, false when the message is not its to answer after all
// (the sender's state says so); the table then tries the message's next intent. Errors: store
// errors and Outreach's refusals of bad input; the whole handling rolls back.
//
// Threading: on the store's writer, inside the message's transaction.
#pragma once

#include "base/result.h"
#include "sms/conversation/handling.h"

namespace atoms::sms::conversation {

// --- Consent (answer_consent.cpp) ---
// STOP and its family: the opt-out is recorded by number ("sms.opt_out", also for a number not on
// the roster) and confirmed; a second STOP records nothing and is confirmed again (Outreach sends
// the confirmation once). Always answers.
Result<bool> answerOptOut(Handling& h);
// START/UNSTOP, or YES, from a number opted out: back in ("sms.opt_in"), confirmed. START/UNSTOP
// from a person on the roster who is not: their offers resume if paused, else "already
// subscribed". Anything else (YES from someone not opted out, START from a number not on the
// roster) is not its to answer.
Result<bool> answerOptIn(Handling& h);

// --- Offers paused by a stop-like reply (answer_offers_pause.cpp; offers_pause.h) ---
// Resumes the sender's paused offers ("sms.offers_resumed", intent "offers_on") with its reply;
// false when they were not paused (nothing happens).
Result<bool> resumeOffers(Handling& h);
// OFFERS ON from someone not opted out: resumeOffers().
Result<bool> answerOffersOn(Handling& h);
// A stop-like reply from someone not opted out: offers pause ("sms.offers_paused": the words, the
// confidence in percent) and they are asked once, in-thread; false when they were paused already.
Result<bool> answerStopLike(Handling& h);

// --- Safety (answer_safety.cpp) ---
// "ACK <id>" or a safety report, from anyone, to the SafetyDesk; its answer is the reply. False
// without a desk.
Result<bool> answerSafety(Handling& h);

// --- Checklists (answer_checklist.cpp) ---
// A checklist record to the ChecklistDesk; its answer is the reply. False without a desk.
Result<bool> answerChecklist(Handling& h);

// --- HELP and WHY (answer_help_why.cpp) ---
// Who this is and how to reach a person or stop. Always answers.
Result<bool> answerHelp(Handling& h);
// The sources of the receipt of the last text sent to the number (why_text.h), or that nothing was
// sent yet. Always answers.
Result<bool> answerWhy(Handling& h);
// (answer_help_why.cpp) A text the inbox refused for its length (inbox.h): nothing of it can be
// read; the sender is told once to send a shorter one. Always answers.
Result<bool> answerTooLong(Handling& h);

// --- Situations rather than intents (intent_table.h says when) ---
// (answer_unknown_number.cpp) A number not on the roster: one polite reply per number per local day
// (the day is recorded only when the reply was queued). Always answers, possibly with nothing.
Result<bool> answerUnknownNumber(Handling& h);
// (answer_parked.cpp) Writes frozen (kill switch L2+): the message is parked (parked_messages.h)
// and answered "paused; here is your human" under the reply id "parked:inbox-<id>". Always answers.
Result<bool> answerParked(Handling& h);

// --- The turn (answer_turn.cpp) ---
// An offer reply, an approval or conversation, from a person on the roster: to the ReplyHandler as
// a Turn (its replies recorded), or, without one, a short kind reply. Always answers.
Result<bool> answerTurn(Handling& h);

}  // namespace atoms::sms::conversation
