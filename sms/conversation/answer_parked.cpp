// A request parked while writes are frozen (answers.h; parked_messages.h).
#include "sms/conversation/answers.h"
#include "sms/conversation/parked_messages.h"

namespace atoms::sms::conversation {

Result<bool> answerParked(Handling& h) {
  if (Status s = ParkedMessages(h.store.db()).park(h.row.id, h.now); !s) return s.error();
  h.outcome = "parked";
  return h.answerWith(MessageClass::kThreadReply, pausedText(h.context), false,
                      parkedReplyId(h.row.id));
}

}  // namespace atoms::sms::conversation
