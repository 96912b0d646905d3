// The intent table: how the conversation answers one classified inbound message (classification.h),
// one handler per intent (answers.h). docs/sms.md, "Conversation", lists what each message gets.
//
// answer() tries the message's intents in order (Intent's order, which is the table's) until a
// handler answers; a handler that finds the message is not its after all (a START from someone not
// opted out whose offers are not paused, a stop-like reply from someone whose offers are paused
// already, a safety report with no safety desk) hands it to the next intent. Two situations come
// before an intent's own handler:
// - a number not on the roster: an intent meant for people on the roster gets the unknown-number
//   reply instead (STOP, START for an opted-out number and safety are everyone's);
// - writes frozen (kill switch L2+): an intent meant for the ReplyHandler (the turn: an offer
//   reply, an approval, conversation) is parked instead.
// The last intent is always the turn, which always answers. A row whose text the inbox refused for
// its length has no intent: its sender is told it was too long (or, not on the roster, gets the
// unknown-number reply).
//
// Threading: on the store's writer, inside the message's transaction. Errors: the handlers'.
#pragma once

#include "base/result.h"
#include "sms/conversation/handling.h"

namespace atoms::sms::conversation {

Status answer(Handling& h);

}  // namespace atoms::sms::conversation
