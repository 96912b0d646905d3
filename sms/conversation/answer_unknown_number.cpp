// A number not on the roster (answers.h).
#include "sms/conversation/answers.h"

namespace atoms::sms::conversation {

Result<bool> answerUnknownNumber(Handling& h) {
  const std::string today = h.answerers.outreach.localDay(h.now);
  if (h.sender.unknownReplyDay == today) {
    h.outcome = "unknown_number_already_answered_today";
    return true;
  }
  h.outcome = "unknown_number";
  if (Status s = h.send(MessageClass::kThreadReply, unknownNumberText(h.context)); !s) {
    return s.error();
  }
  if (h.replyOutcomes.back().rfind("queued", 0) == 0) {
    if (Status s = h.updateState([&](ContactState& st) { st.unknownReplyDay = today; }); !s) {
      return s.error();
    }
  }
  return true;
}

}  // namespace atoms::sms::conversation
