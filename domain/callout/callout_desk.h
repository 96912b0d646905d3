// CalloutDesk: the call-out flow of seed 000 EC-MGR-009 (issue 6; docs/callouts.md). At 16:55 a
// lead texts "Jamal didn't show, I'm alone on the line":
//   1. report(): the absent person's current or next shift is found; a call-out is opened (one
//      per shift), a check-in note is handed to the people side (a HANDOFF, never discipline), the
//      candidates are found and ranked (candidates.h) and the first wave of offers goes out, each
//      with its own reply code; the lead is told how many people were asked.
//   2. take(): the first person to reply with their code AND still pass every check at that
//      instant gets the shift (written to the store, receipt with the rule evaluations); the
//      others with an open offer are told it is covered; the lead gets a confirmation. Someone
//      whose taking it would cost a premium (overtime...) waits for their manager of record's
//      APPROVE/DENY (decide()); nothing is written before that.
//   3. due() (the engine's timer, at nextDue()): the next wave every `waveInterval` while nobody
//      has taken it; the general manager is told after `escalateAfter` (the lead too); approvals
//      expire; a call-out whose shift has ended closes.
// The box's own gate decisions and the approver's answers to its proposals are told to the trust
// budget through TrustFeedback (setTrustFeedback), in the same batch.
// Every step goes through the policy gate (its decision is in the receipt) and every text through
// Outreach (consent, opt-out, quiet hours, caps, the kill switch's freeze), with deterministic ids,
// so a crash and a restart never send anything twice and the flow resumes from the store.
//
// The desk is the front of the call-out rooms (README.md): each step is one flow's function
// (callout_report.h, offer_reply.h, approval_decision.h, presence_reports.h, callout_timers.h)
// over the shared DeskContext (desk_context.h) and one DeskStep (desk_turn.h).
//
// Threading: every method runs on the store's writer (the engine thread in the daemon): the `In`
// methods inside the caller's open batch, due()/nextDue() through the StoreRunner. Not otherwise
// synchronised. Errors: store and engine errors, one line; the caller's batch is then dropped.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "domain/callout/approval_decision.h"
#include "domain/callout/callout_settings.h"
#include "domain/callout/callout_store.h"
#include "domain/callout/callout_texts.h"
#include "domain/callout/candidates.h"
#include "domain/callout/desk_context.h"
#include "domain/callout/desk_turn.h"
#include "domain/callout/site_snapshot.h"
#include "domain/callout/trust_feedback.h"
#include "domain/policy/policy_gate.h"
#include "domain/policy/trust_budget.h"
#include "sms/conversation/outreach.h"
#include "sms/text/offer_code.h"
#include "store/audit_log.h"
#include "store/site_store.h"
#include "store/store_runner.h"

namespace atoms::callout {

class CalloutDesk {
 public:
  // Every reference must outlive the desk. Precondition: validateCalloutSettings().
  CalloutDesk(SiteSnapshot& site, sms::conversation::Outreach& outreach, atoms::StoreRunner& store,
              CalloutSettings settings, GateFunction gate, sms::RandomSource random);

  // A report that `absentId` cannot work: by a lead about someone else, or by the person
  // themselves (origin kSelf), or a lead confirming a no-show the time clock noticed.
  Result<DeskAnswer> reportIn(DeskTurn& turn, const sms::conversation::Contact& reporter,
                              std::string_view absentId, CalloutOrigin origin);
  // Offer replies, by code (the codes are those of liveOffersTo()).
  Result<DeskAnswer> takeIn(DeskTurn& turn, const sms::conversation::Contact& person,
                            std::string_view code);
  Result<DeskAnswer> declineIn(DeskTurn& turn, const sms::conversation::Contact& person,
                               std::string_view code);
  // APPROVE n / DENY n by text: decideAs() for the sender.
  Result<DeskAnswer> decideIn(DeskTurn& turn, const sms::conversation::Contact& sender,
                              std::string_view reference, bool approve, std::string_view remark);
  // The one decision path, by text or through the API. Only the approver named on the request
  // decides it (by text: from the approver's number); the person it is about never does (even
  // if they are a manager); the policy gate is asked; an approval past its expiry lapses here
  // (as the timer would) and is closed. Refusals are audited (approval.refused) in the turn's
  // batch and change nothing else.
  Result<Decision> decideAs(DeskTurn& turn, const Decider& who, std::int64_t approvalId,
                            const ApprovalAnswer& answer);
  // "I'm here" from the absent person of an open (or just covered) call-out.
  Result<DeskAnswer> arrivedIn(DeskTurn& turn, const sms::conversation::Contact& person);
  // "Running late" from a person with a shift now or soon.
  Result<DeskAnswer> lateIn(DeskTurn& turn, const sms::conversation::Contact& person,
                            std::optional<int> minutes);

  // The codes of the offers live for `personId` (open, or waiting for approval).
  Result<std::vector<std::string>> liveCodes(SiteStore& store, std::string_view personId);
  // The codes offered to `personId` in the last day, open or closed. A person's codes stay
  // distinct for a week (offer_wave.cpp), so each is theirs alone; the keyword parser tries the
  // open ones first (keywords.h).
  Result<std::vector<std::string>> recentCodes(SiteStore& store, std::string_view personId);
  // offer_reply.h's replyCrossedClosing.
  Result<bool> replyCrossedClosing(SiteStore& store, std::string_view personId,
                                   std::string_view code, TimePoint receivedAt);

  // Waves, escalations, expiries and closings whose time has come, one transaction per call-out;
  // returns how many steps were taken.
  Result<int> due(TimePoint now);
  Result<std::optional<TimePoint>> nextDue();

  // The person's current shift, or their next one starting within the lookahead (nullptr: none).
  const site::Shift* shiftOf(std::string_view personId, site::Instant now) const {
    return desk_.shiftOf(personId, now);
  }

  // Who hears of the desk's decisions and its proposals' outcomes (the trust budget); none by
  // default. Call before the first turn.
  void setTrustFeedback(TrustFeedback feedback) { desk_.setTrustFeedback(std::move(feedback)); }
  // Who hears of a labor-rule violation found at Act (act_check.h): called on the engine thread
  // with the step's batch (what it records commits with the step), its instant and the receipt
  // id; in `serve` BRK-SCH's signal and a SEV2 on the scheduling budget. None by default. Call
  // before the first turn.
  using ViolationAtAct = callout::ViolationAtAct;
  void setViolationAtAct(ViolationAtAct listener) { desk_.setViolationAtAct(std::move(listener)); }

  const CalloutSettings& settings() const { return desk_.settings(); }
  TimePoint now() const { return desk_.outreach().now(); }
  // How to write to a person: their language, the site's name, the human they can reach.
  ReplyContext contextFor(std::string_view personId) const { return desk_.contextFor(personId); }
  // A shift in words (station, day, hours) as seen at `now`, and a person's first name.
  ShiftWords words(std::string_view shiftId, TimePoint now) const {
    return desk_.words(shiftId, now);
  }
  std::string nameOf(std::string_view personId) const { return desk_.nameOf(personId); }
  // What the flows share (the requests desk names people, writes and asks the gate through it).
  const DeskContext& context() const { return desk_; }

 private:
  DeskContext desk_;
  atoms::StoreRunner& store_;
};

}  // namespace atoms::callout
