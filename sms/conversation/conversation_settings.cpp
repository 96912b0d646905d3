#include "sms/conversation/conversation_settings.h"

namespace atoms::sms::conversation {

Status validateConversationSettings(const ConversationSettings& settings) {
  if (Status s = validateOutreachSettings(settings.outreach); !s) return s;
  if (settings.frozenHoldLimit.count() < 1) {
    return makeError("conversation setting frozenHoldLimit must be at least one hour");
  }
  if (settings.batchLimit < 1) {
    return makeError("conversation setting batchLimit must be at least 1");
  }
  return Status::success();
}

}  // namespace atoms::sms::conversation
