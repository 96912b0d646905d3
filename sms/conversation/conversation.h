// Conversation: the receiving side of the SMS conversation layer (issue 4 item 5; docs/sms.md,
// "Conversation"). It takes the inbox's unhandled messages in arrival order and handles each in
// ONE store transaction together with Inbox::markHandled, so a crash before the commit re-handles
// the message from scratch and a crash after it never handles it again; every reply also has a
// deterministic id ("reply:inbox-42"), so nothing is ever answered twice.
//
// What a message gets (exact texts: replies.h):
// - STOP and its family: the opt-out is recorded by phone number (numbers not on the roster too),
//   audited ("sms.opt_out"), and confirmed once; a second STOP gets nothing.
// - START/UNSTOP, and YES from someone opted out: back in, audited ("sms.opt_in"), confirmed.
// - HELP/INFO/AYUDA: who this is (the site's automated assistant), how to reach a person, how to
//   stop. WHY: the sources of the receipt of the last text sent to this number (why_text.h).
// - A safety report (safety_report.h: injury, fire, gas, violence, dangerous equipment, SAFETY),
//   from anyone, even a number not on the roster, and "ACK <id>" from a person alerted: to the
//   SafetyDesk, which alerts the people who must act; the sender gets the emergency number first.
// - Offer codes and APPROVE/DENY: to the ReplyHandler; without one a short kind reply.
// - Anything else from a person on the roster: to the ReplyHandler as conversation (injection-
//   flagged text goes as data, flag recorded in the audit entry); without one, one short reply.
// - A number not on the roster: at most one polite reply per number per local day.
// - A stop-like reply from a person on the roster that is not a clear STOP ("ugh, enough texts",
//   "message me MORE": stop_like.h): shift offers to them pause (offers_pause.h), audited
//   ("sms.offers_paused"), and they are asked once, in-thread. OFFERS ON or START resumes them
//   ("sms.offers_resumed"). Safety reports and clear STOPs come first.
// Every reply is a thread reply through Outreach, so consent, opt-out, freeze and the rest are
// decided in one place; an opted-out number is refused there and gets nothing. Each handled
// message leaves one "sms.conversation" audit entry (inbox id, masked sender, person, intent,
// outcome, reply ids, injection reasons and the flagged words as quoted data; never the text).
// How: the text is classified once (classification.h), then answered by the handler of its first
// intent that takes it (intent_table.h, answers.h). The classification also goes to the
// classified-listener, once per stored message: BRK-OUT's stop-class signal reads it there.
//
// Threading: handlePending() may be called from any thread (the engine calls it when the inbox
// says a message was stored, and at start for anything left from before); calls are serialised by
// a mutex; store work runs through the StoreRunner. The ReplyHandler is called on the writer.
// Errors: store errors end the call (the message stays unhandled and is tried again next time).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "base/result.h"
#include "sms/conversation/checklist_desk.h"
#include "sms/conversation/classification.h"
#include "sms/conversation/outreach.h"
#include "sms/conversation/reply_handler.h"
#include "sms/conversation/safety_desk.h"
#include "sms/mailbox/inbox.h"
#include "sms/text/content_lint.h"
#include "sms/text/keywords.h"
#include "store/store_runner.h"

namespace atoms::sms::conversation {

class Conversation {
 public:
  // `store`, `inbox`, `outreach` (and `handler`, when given) must outlive the Conversation.
  // `safety` (may be null: then nothing is treated as a safety report) must outlive it too.
  Conversation(atoms::StoreRunner& store, mailbox::Inbox& inbox, Outreach& outreach,
               ReplyHandler* handler = nullptr, SafetyDesk* safety = nullptr);
  Conversation(const Conversation&) = delete;
  Conversation& operator=(const Conversation&) = delete;

  // The site's checklists (may be null: no text completes one). Before handlePending(); the desk
  // must outlive the Conversation. "DONE opening" / "TEMP walk-in 38F" from a person on the roster,
  // not flagged by the injection check, goes to it (checklist_desk.h).
  void setChecklistDesk(ChecklistDesk* desk) { checklists_ = desk; }

  // Called with each stored message's classification (its inbox id, and the classification its
  // handling used), once per message: after the handling committed (also when it failed and the
  // failure was recorded), on the thread that called handlePending(), outside the transaction; not
  // again when a parked message is handled again after the freeze (it was reported when parked).
  // Before handlePending(); must be quick.
  using ClassifiedListener = std::function<void(std::int64_t inboxId, const Classification&)>;
  void setOnClassified(ClassifiedListener listener) { onClassified_ = std::move(listener); }

  // Handles up to settings().batchLimit unhandled messages, oldest first; returns how many it
  // handled. Call again while it returns the limit.
  Result<int> handlePending();

  // Writes frozen (kill switch L2 and above): a message that would reach the ReplyHandler (a
  // report, an offer code, APPROVE/DENY, conversation) is parked instead (parked_messages.h) and
  // answered "paused; here is your human". STOP/START, HELP, WHY, safety reports, checklists and
  // unknown numbers are handled as usual. Any thread.
  void setParking(bool parking) { parking_ = parking; }
  struct ParkedRelease {
    int released = 0;   // reopened: the next handlePending() handles them from scratch
    int withdrawn = 0;  // parked longer than settings().frozenHoldLimit: dropped, audited
  };
  // After the freeze lifted: every parked message is reopened in the inbox (audited
  // "sms.parked_released") or, past the frozen-hold limit (the one Outreach::releaseDue() applies
  // to held outreach), withdrawn ("sms.parked_withdrawn"). Call handlePending() after it.
  Result<ParkedRelease> releaseParked();
  // Writes were frozen (L2+) by the change `event` (its audit timestamp): everyone on the roster
  // who wrote to the box within the thread window (settings().outreach.activeThreadWindow) is told,
  // in their thread, that the assistant is paused and who to reach (seed 001 section 7: "announced
  // in every thread in plain words"); the others hear it when they write (pausedText). Once per
  // person and event, also across a restart (the reply id names the event). Audited
  // "killswitch.announced" {event, people}. Returns how many were told.
  Result<int> announcePause(std::string_view event);

 private:
  // One message in one transaction; false when it was no longer new.
  Result<bool> handleOne(const mailbox::InboxRow& row);
  // The handling of `row` (classified as `text`) failed with `reason`: the message is marked
  // handled with an apology and "sms.conversation.failed".
  Status recordFailure(const mailbox::InboxRow& row, const Classification& text,
                       const std::string& reason);
  // How to answer `contact` (nullopt: a number not on the roster) who wrote `keyword`: their
  // language, the site's name, the person to reach.
  ReplyContext replyContext(const ParsedKeyword& keyword,
                            const std::optional<Contact>& contact) const;
  // Tells the sender of a parked message withdrawn after the frozen-hold limit that it was not
  // acted on (a thread reply, once: its id names the inbox row). Nothing for an unknown number.
  Status tellWithdrawn(SiteStore& store, AuditLog::Batch& batch, std::int64_t inboxId);

  atoms::StoreRunner& store_;
  mailbox::Inbox& inbox_;
  Outreach& outreach_;
  ReplyHandler* handler_;
  SafetyDesk* safety_;
  ChecklistDesk* checklists_ = nullptr;
  std::atomic<bool> parking_{false};
  ClassifiedListener onClassified_;
  TextClassifier classifier_;
  KeywordParser keywords_;  // a withdrawn message's language (tellWithdrawn)
  ContentLint lint_;
  std::mutex mutex_;  // one handlePending() at a time
};

}  // namespace atoms::sms::conversation
