// The site settings of the conversation layer: the outreach rules' settings (quiet hours, daily
// cap, thread window: sms/outreach/outreach_policy.h), the default reply language, and how long a
// message held by an outreach freeze may wait before it is withdrawn instead of sent.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

#include "base/result.h"
#include "sms/conversation/checklist_book.h"
#include "sms/conversation/language.h"
#include "sms/mailbox/inbox.h"
#include "sms/outreach/outreach_policy.h"

namespace atoms::sms::conversation {

// Safety reports (safety_desk.h): the number people are told to call, and how often the people
// alerted are reminded until one of them acknowledges.
struct SafetySettings {
  std::string emergencyNumber = "911";
  std::chrono::minutes realertEvery{5};
};

struct ConversationSettings {
  OutreachSettings outreach;  // default quiet hours 21:00-08:00, cap 6, thread window 4 h
  Language defaultLanguage = Language::kEnglish;
  // Seed 001 section 7: on release, what a freeze held longer than this is withdrawn, not sent.
  std::chrono::hours frozenHoldLimit{48};
  SafetySettings safety;
  // Inbound messages handled per Conversation::handlePending() call.
  std::size_t batchLimit = 50;
  // The site's checklists (sms.checklists.file; checklist_book.h); empty: none.
  ChecklistBook checklists;
  // Whether the provider that received this message confirms its standard STOP and START words
  // itself (sms.twilio.opt-out-replies = twilio; isProviderKeyword() in sms/text/keywords.h): the
  // box then records the opt-out or opt-in and sends no second confirmation. Empty: never (the
  // modem, and a provider whose keyword handling is off).
  std::function<bool(const mailbox::InboxRow&)> providerConfirmsKeywords;
};

// Ok, or one line naming the setting: the number is 2-15 digits, the interval 1-60 minutes.
Status validateSafetySettings(const SafetySettings& settings);
// Ok, or one line naming the first setting out of range (the safety settings included).
Status validateConversationSettings(const ConversationSettings& settings);

}  // namespace atoms::sms::conversation
