// The texts of the site's checklists (docs/checklists.md), English and Spanish: the answers to
// DONE / TEMP and the overdue reminders. Plain and kind: a checklist that is late is a reminder,
// never a reproach, and every text names a person to reach. All pass the content lint (pinned in
// tests/sms/conversation/test_checklists.cpp).
//
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "sms/conversation/checklist_book.h"
#include "sms/conversation/replies.h"

namespace atoms::sms::conversation {

// DONE: "Thanks, Opening is marked done for today."
std::string checklistDoneText(const ReplyContext& c, const Checklist& list);
// DONE or TEMP again the same day for a task: when it was already marked.
std::string checklistAlreadyDoneText(const ReplyContext& c, const Checklist& list,
                                     const std::string& atHhmm);
// TEMP within the safe range: "Thanks, Walk-in cooler logged at 38F."
std::string checklistLoggedText(const ReplyContext& c, const Checklist& list, int tenthsF);
// TEMP outside it; `safetyAnswer` is the safety desk's answer (emergency number first, who was
// alerted), appended.
std::string checklistOutOfRangeText(const ReplyContext& c, const Checklist& list, int tenthsF,
                                    const std::string& safetyAnswer);
// DONE on a temperature log, or TEMP on a task: what to send instead.
std::string checklistWrongKindText(const ReplyContext& c, const Checklist& list);
// A name that is no checklist: the ones there are.
std::string checklistUnknownText(const ReplyContext& c, const std::vector<std::string>& ids);

// Overdue, to the person it belongs to (owner) and then to their manager (manager).
std::string checklistOverdueOwnerText(const ReplyContext& c, const Checklist& list,
                                      const std::string& dueHhmm);
std::string checklistOverdueManagerText(const ReplyContext& c, const Checklist& list,
                                        const std::string& dueHhmm);

}  // namespace atoms::sms::conversation
