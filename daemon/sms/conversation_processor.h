// ConversationProcessor: the SMS conversation layer (sms/conversation/) inside `atoms-edge serve`.
// SmsSubsystem makes one at each start over the live mailbox (its InboundProcessorFactory); it
// owns the roster (the site's people, read from the store at start), the site clock (the site's
// time zone), the Outreach rules and the Conversation.
//
// - processPending() (posted by SmsSubsystem after each stored message, and once at start)
//   handles every unhandled inbound message, in batches, and makes sure the engine timer is set
//   for the next held message's release (the morning after quiet hours, the next day after a
//   cap); the timer releases what is due, at once for what fell due while the box was down.
// - Safety reports go to the SafetyDesk; its reminders run on a second engine timer, set after
//   every pass to the earliest open incident's next reminder.
// - setOutreachFrozen() follows the kill switch (SmsSubsystem calls it at start and after each
//   change): from L1 Outreach holds everything but replies in a person's own thread, safety
//   alerts and escalations; back at L0 every held message is decided again at once.
// - setWritesFrozen() (from L2): people in an active thread are told the assistant is paused and
//   who to reach; requests by text are parked and answered "paused; here is your
//   human"; when the level drops below L2 they are handled again from scratch, in order
//   (sms/conversation/parked_messages.h), except those parked over 48 hours (withdrawn).
// - A store that holds no site yet is not an error: every sender is then an unknown number (one
//   polite reply a day), in UTC; the log says so once.
//
// Threading: created on the main thread (the roster is read through the store runner, which
// runs on the engine thread); processPending() and the timers run on the engine thread. The
// Engine must outlive the processor; SmsSubsystem destroys it on the engine thread, in its stop
// barrier (or after the engine stopped), because the destructor cancels the timers.
#pragma once

#include <Poco/Logger.h>

#include <memory>
#include <optional>

#include "base/result.h"
#include "daemon/engine/deadline_timer.h"
#include "daemon/engine/engine.h"
#include "daemon/service/sms_subsystem.h"
#include "daemon/sms/site_roster.h"
#include "domain/callout/approval_book.h"
#include "domain/callout/callout_desk.h"
#include "domain/callout/callout_handler.h"
#include "domain/callout/cover_verifier.h"
#include "domain/callout/no_show_watch.h"
#include "domain/callout/shadow_judge.h"
#include "domain/callout/site_snapshot.h"
#include "domain/forecast/proposal_desk.h"
#include "domain/requests/request_book.h"
#include "domain/requests/request_desk.h"
#include "domain/requests/request_handler.h"
#include "sms/conversation/checklist_desk.h"
#include "sms/conversation/conversation.h"
#include "sms/conversation/outreach.h"
#include "sms/conversation/safety_desk.h"

namespace atoms::sms_site {

// The call-out flow behind the conversation (domain/callout/): where the labor rule tables are,
// its settings, the policy gate it asks and who hears of its decisions (the trust budget).
struct CalloutOptions {
  std::string laborDir;
  callout::CalloutSettings settings;
  callout::GateFunction gate;
  callout::TrustFeedback trust;
  // A shift started this long ago without a clock-in: its lead is asked (0: never). Also when a
  // shadow decision is judged from who clocked in (callout::ShadowJudge), on the call-out timer.
  std::chrono::minutes noShowGrace{10};
  // The site has time clocks (terminal.listen): the box's covers are verified by their clock-in.
  bool timeClocks = false;
  // A labor-rule violation found at Act (CalloutDesk::setViolationAtAct); may be empty.
  callout::CalloutDesk::ViolationAtAct violationAtAct;
};

class ConversationProcessor final : public InboundProcessor {
 public:
  // Reads the site from the store (through mailbox.store) and builds the layer over `mailbox`;
  // with `callout` (and a site in the store), the call-out flow answers offers, approvals and
  // call-out texts, and its timer runs waves, escalations and expiries. Rule tables that cannot be
  // loaded leave call-outs off (logged as an error); the rest of the layer still runs.
  // Errors: the store cannot be read, or the site's time zone is unknown.
  static Result<std::unique_ptr<ConversationProcessor>> create(
      const SmsMailbox& mailbox, Engine& engine, Poco::Logger& logger,
      const CalloutOptions* callout = nullptr);
  ~ConversationProcessor() override;

  void processPending() override;
  // Freezes outreach (kill switch L1+); lifting the freeze releases what it held at once.
  void setOutreachFrozen(bool frozen) override;
  // Parks new requests (kill switch L2+); lifting it handles what was parked, from scratch.
  void setWritesFrozen(bool frozen, const std::string& event) override;

  sms::conversation::Outreach& outreach() { return *outreach_; }
  // The call-out desk; nullptr when call-outs are off.
  callout::CalloutDesk* calloutDesk() { return desk_.get(); }
  // Its approvals, for the approvals API (engine thread only; a decision sets the call-out timer
  // again); nullptr when call-outs are off.
  callout::ApprovalBook* approvals() { return approvals_.get(); }
  // Workers' requests by text, for the requests API (engine thread only); nullptr when call-outs
  // are off (requests are read in front of the call-out flow, over its site snapshot).
  requests::RequestBook* requests() { return requests_.get(); }
  // The manager's answers to intraday proposals and what approving does (an extra shift with its
  // call-out, an early finish), for the forecast API (engine thread only; an approval sets the
  // call-out timer again); nullptr when call-outs are off.
  forecast::ProposalDesk* proposals() { return proposals_.get(); }
  // The safety desk, for the panel's ACK (engine thread only).
  sms::conversation::SafetyDesk* safety() { return safety_.get(); }
  // The site's shifts changed in the store outside the call-out flow (a week published on the
  // panel): the call-out flow reads the site again before its next step (engine thread only).
  void siteShiftsChanged() {
    if (site_) site_->invalidate();
  }
  // The checklists' desk, for the panel's Safety page; nullptr without checklists.
  sms::conversation::ChecklistDesk* checklists() { return checklists_.get(); }

 private:
  ConversationProcessor(Engine& engine, Poco::Logger& logger,
                        const sms::conversation::HumanContact& contact,
                        std::unique_ptr<sms::conversation::SiteTime> siteTime);
  void releaseDue();
  void scheduleRelease();
  void realertDue();
  void scheduleRealert();
  void calloutDue();
  void scheduleCallout();
  void checklistsDue();
  void scheduleChecklists();

  Engine& engine_;
  Poco::Logger& logger_;
  SiteRoster roster_;
  std::unique_ptr<sms::conversation::SiteTime> siteTime_;
  std::unique_ptr<sms::conversation::Outreach> outreach_;
  std::unique_ptr<sms::conversation::SafetyDesk> safety_;
  std::unique_ptr<callout::SiteSnapshot> site_;
  std::unique_ptr<callout::CalloutDesk> desk_;
  std::unique_ptr<callout::CalloutHandler> handler_;
  std::unique_ptr<callout::NoShowWatch> noShow_;
  std::unique_ptr<callout::ShadowJudge> shadowJudge_;
  std::unique_ptr<callout::CoverVerifier> covers_;
  std::unique_ptr<callout::CalloutApprovals> approvals_;
  std::unique_ptr<requests::RequestDesk> requestDesk_;
  std::unique_ptr<requests::RequestHandler> requestHandler_;  // in front of handler_
  std::unique_ptr<requests::StoreRequests> requests_;
  std::unique_ptr<forecast::ProposalDesk> proposals_;
  std::unique_ptr<sms::conversation::ChecklistDesk> checklists_;  // null without checklists
  bool checklistsCaughtUp_ = false;  // the first pass sends what was missed while down
  std::unique_ptr<sms::conversation::Conversation> conversation_;
  bool writesFrozen_ = false;  // engine thread
  // Last, so they are cancelled first (on the engine thread: SmsSubsystem destroys us there).
  DeadlineTimer releaseTimer_;    // held messages
  DeadlineTimer realertTimer_;    // safety reminders
  DeadlineTimer calloutTimer_;    // call-out waves, escalations, expiries
  DeadlineTimer checklistTimer_;  // overdue checklists (docs/checklists.md)
};

}  // namespace atoms::sms_site
