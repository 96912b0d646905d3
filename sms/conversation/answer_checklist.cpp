// A checklist completed by text (answers.h, "Checklists"; checklist_desk.h).
#include "sms/conversation/answers.h"

namespace atoms::sms::conversation {

Result<bool> answerChecklist(Handling& h) {
  ChecklistDesk* desk = h.answerers.checklists;
  if (desk == nullptr) return false;
  auto answer =
      desk->handleIn(h.store, h.batch, h.row, h.contact, *h.text.checklist, h.context, h.now);
  if (!answer) return answer.error();
  h.intent = "checklist";
  h.outcome = answer->outcome;
  return h.answerWith(answer->replyClass, answer->replyText);
}

}  // namespace atoms::sms::conversation
