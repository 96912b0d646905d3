#include "sms/conversation/conversation_settings.h"

#include <algorithm>

namespace atoms::sms::conversation {

Status validateSafetySettings(const SafetySettings& s) {
  const bool digits = std::all_of(s.emergencyNumber.begin(), s.emergencyNumber.end(),
                                  [](char c) { return c >= '0' && c <= '9'; });
  if (!digits || s.emergencyNumber.size() < 2 || s.emergencyNumber.size() > 15) {
    return makeError("the emergency number must be 2-15 digits (like 911 or 112)");
  }
  if (s.realertEvery < std::chrono::minutes(1) || s.realertEvery > std::chrono::minutes(60)) {
    return makeError("safety reminders must be 1-60 minutes apart");
  }
  return Status::success();
}

Status validateConversationSettings(const ConversationSettings& settings) {
  if (Status s = validateOutreachSettings(settings.outreach); !s) return s;
  if (settings.frozenHoldLimit.count() < 1) {
    return makeError("conversation setting frozenHoldLimit must be at least one hour");
  }
  if (settings.batchLimit < 1) {
    return makeError("conversation setting batchLimit must be at least 1");
  }
  return validateSafetySettings(settings.safety);
}

}  // namespace atoms::sms::conversation
