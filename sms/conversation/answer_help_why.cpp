// HELP, WHY and a text too long to read (answers.h).
#include <cstdint>

#include "sms/conversation/answers.h"
#include "sms/conversation/why_text.h"
#include "store/audit_entry.h"

namespace atoms::sms::conversation {

Result<bool> answerHelp(Handling& h) {
  h.outcome = "help";
  return h.answerWith(MessageClass::kThreadReply, helpText(h.context));
}

Result<bool> answerTooLong(Handling& h) {
  h.outcome = "too_long";
  return h.answerWith(MessageClass::kThreadReply, tooLongText(h.context));
}

Result<bool> answerWhy(Handling& h) {
  auto last = h.tables.lastExplainable(h.row.from);
  if (!last) return last.error();
  if (!*last) {
    h.outcome = "why_nothing_sent";
    return h.answerWith(MessageClass::kThreadReply, whyNothingText(h.context), true);
  }
  auto text = h.store.log().entryText(static_cast<std::uint64_t>(*(*last)->receiptSeq));
  if (!text) return text.error();
  auto entry = parseEntry(*text);
  if (!entry) return entry.error();
  h.outcome = "why";
  return h.answerWith(MessageClass::kThreadReply, whyText(entry->body, h.context, h.answerers.lint),
                      true);
}

}  // namespace atoms::sms::conversation
