// The site settings of the conversation layer: the outreach rules' settings (quiet hours, daily
// cap, thread window: sms/outreach/outreach_policy.h), the default reply language, and how long a
// message held by an outreach freeze may wait before it is withdrawn instead of sent.
#pragma once

#include <chrono>
#include <cstddef>

#include "sms/conversation/language.h"
#include "sms/outreach/outreach_policy.h"
#include "store/result.h"

namespace atoms::sms::conversation {

struct ConversationSettings {
  OutreachSettings outreach;  // default quiet hours 21:00-08:00, cap 6, thread window 4 h
  Language defaultLanguage = Language::kEnglish;
  // Seed 001 section 7: on release, what a freeze held longer than this is withdrawn, not sent.
  std::chrono::hours frozenHoldLimit{48};
  // Inbound messages handled per Conversation::handlePending() call.
  std::size_t batchLimit = 50;
};

// Ok, or one line naming the first setting out of range.
Status validateConversationSettings(const ConversationSettings& settings);

}  // namespace atoms::sms::conversation
