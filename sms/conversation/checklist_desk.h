// ChecklistDesk: the site's checklists with due times (issue 7 item 5; operator page
// docs/checklists.md). Opening, closing and food-safety temperature logs are declared in the
// checklist file (checklist_book.h); people complete them by text ("DONE opening", "LISTO
// apertura", "TEMP walk-in 38F": sms/text/checklist_intent.h).
//
// - handleIn(): in the conversation's transaction for the inbound message, records the entry
//   (table checklist_entry, migration 15; audit "checklist.completed") and returns the answer. A
//   temperature outside the safe range is a safety report: it goes to SafetyDesk::reportIn with
//   the category food_safety (the manager of record and the safety contacts alerted past quiet
//   hours, caps and the freeze, reminded until one replies ACK), and the answer says so.
// - alertOverdue(): for each checklist with no entry for its day at due + grace, reminds the
//   people it belongs to; at due + 2 x grace, their managers of record (and for a temperature log
//   the safety contacts), until 4 hours after that (a box that was off catches up, then the day is
//   history). Each stage once per checklist per site day, recorded (checklist_alert)
//   and audited ("checklist.overdue") in the same transaction as its messages, so a restart never
//   sends it twice. Temperature logs go as safety alerts (MessageClass::kSafetyAlert: past quiet
//   hours and the freeze), the others as a notice to the owner and an escalation to the manager.
//
// Threading: handleIn on the writer inside the caller's batch; alertOverdue through the
// StoreRunner (from the engine's timer); nextCheck is pure. Errors: store errors, one line.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sms/conversation/checklist_book.h"
#include "sms/conversation/checklist_log.h"
#include "sms/conversation/outreach.h"
#include "sms/conversation/safety_desk.h"
#include "sms/text/checklist_intent.h"

namespace atoms::sms::conversation {

struct ChecklistAnswer {
  // "checklist_done", "checklist_logged", "checklist_out_of_range", "checklist_already_done",
  // "checklist_wrong_kind", "checklist_unknown"
  std::string outcome;
  std::string replyText;
  MessageClass replyClass = MessageClass::kThreadReply;  // a safety message when out of range
  std::int64_t incident = 0;                             // the safety incident, when one opened
};

class ChecklistDesk {
 public:
  // The people a checklist belongs to at `now`: the person, or for a station tag the people the
  // daemon finds for it (on shift at that station). May be empty.
  using OwnerResolver = std::function<std::vector<Contact>(const Checklist&, TimePoint)>;

  // Every reference must outlive the desk.
  ChecklistDesk(atoms::StoreRunner& store, Outreach& outreach, SafetyDesk& safety,
                ChecklistBook book, OwnerResolver owners);

  const ChecklistBook& book() const { return book_; }

  // Each checklist's due time on the site's day at `now` (the panel's Safety page): the site local
  // day (YYYY-MM-DD), when it is due and when it becomes overdue (due + grace). Pure.
  struct DueToday {
    const Checklist* list = nullptr;
    std::string day;
    TimePoint dueAt{};
    TimePoint overdueAt{};
  };
  std::vector<DueToday> dueToday(TimePoint now) const;

  Result<ChecklistAnswer> handleIn(SiteStore& store, AuditLog::Batch& batch,
                                   const mailbox::InboxRow& message,
                                   const std::optional<Contact>& sender,
                                   const ChecklistIntent& intent, const ReplyContext& context,
                                   TimePoint now);

  // Sends every overdue stage whose time has come (see above); returns how many stages were sent.
  Result<int> alertOverdue(TimePoint now);
  // The first instant after `now` at which a stage of some checklist falls due (whether or not it
  // will be needed); nullopt without checklists. For the engine's timer.
  std::optional<TimePoint> nextCheck(TimePoint now) const;

 private:
  struct Due;
  std::vector<Due> dueAround(TimePoint now) const;
  Result<bool> sendStage(SiteStore& store, const Due& due, ChecklistStage stage, TimePoint now);

  atoms::StoreRunner& store_;
  Outreach& outreach_;
  SafetyDesk& safety_;
  ChecklistBook book_;
  OwnerResolver owners_;
};

}  // namespace atoms::sms::conversation
