// Safety reports and their acknowledgements (answers.h, "Safety"; safety_desk.h).
#include "sms/conversation/answers.h"

namespace atoms::sms::conversation {

Result<bool> answerSafety(Handling& h) {
  SafetyDesk* desk = h.answerers.safety;
  if (desk == nullptr) return false;
  auto answer = h.text.safetyAck ? desk->acknowledgeIn(h.store, h.batch, h.row, h.contact,
                                                       *h.text.safetyAck, h.context, h.now)
                                 : desk->reportIn(h.store, h.batch, h.row, h.contact,
                                                  *h.text.safetyReport, h.context, h.now);
  if (!answer) return answer.error();
  h.intent = "safety";
  h.outcome = answer->outcome;
  return h.answerWith(answer->replyClass, answer->replyText);
}

}  // namespace atoms::sms::conversation
