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
// Threading: every method runs on the store's writer (the engine thread in the daemon): the `In`
// methods inside the caller's open batch, due()/nextDue() through the StoreRunner. Not otherwise
// synchronised. Errors: store and engine errors, one line; the caller's batch is then dropped.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "daemon/callout/callout_store.h"
#include "daemon/callout/callout_texts.h"
#include "daemon/callout/candidates.h"
#include "daemon/callout/site_snapshot.h"
#include "daemon/callout/trust_feedback.h"
#include "daemon/policy/policy_gate.h"
#include "daemon/policy/trust_budget.h"
#include "sms/conversation/outreach.h"
#include "sms/text/offer_code.h"
#include "store/audit_log.h"
#include "store/site_store.h"
#include "store/store_runner.h"

namespace atoms::callout {

struct CalloutSettings {
  int waveSize = 3;                         // offers per wave
  std::chrono::minutes waveInterval{5};     // between waves while nobody has taken it
  std::chrono::minutes escalateAfter{20};   // then the general manager is told
  std::chrono::minutes approvalExpiry{30};  // an approval not given by then lapses
  std::chrono::hours lookahead{12};         // how far ahead a "next shift" is looked for
  std::string generalManager;               // person id; empty: the site contact
};

// Ok, or one line naming the setting out of range.
Status validateCalloutSettings(const CalloutSettings& settings);

// The gate as the desk asks it: the caller reads the live policy state (kill switch, graduation,
// breakers) and decides.
using GateFunction = std::function<policy::GateDecision(const policy::ProposedAction& action)>;

// One handling in progress: the open batch and the decision instant.
struct DeskTurn {
  SiteStore& store;
  AuditLog::Batch& batch;
  TimePoint now;
  std::optional<std::int64_t> inboxId;  // the text being handled, if any
};

// What the desk says back to whoever wrote, and the call-out it concerns.
struct DeskAnswer {
  std::string outcome;  // "callout_opened", "offer_taken", ... (the conversation's audit entry)
  std::string text;     // the reply, in the sender's thread; empty: no reply
  std::int64_t callout = 0;
};

// Who decides an approval: the sender of an APPROVE/DENY text, or a manager signed in to the
// approvals API (docs/api.md), who has no phone here: the person id alone names them.
struct Decider {
  std::string personId;  // empty: a number not on the roster
  std::string phone;     // the text's sender; empty on the API
  std::string via;       // "sms" or "api", for the audit entries
};

// A person's answer to an approval. `overrideReason` (a deny only; the panel gives one, a DENY
// text does not): why the box's proposal was wrong, seed 001 section 6's override, which costs the
// function trust (BAD_TIMING, TONE -1; WRONG_FACTS, WRONG_JUDGMENT -3).
struct ApprovalAnswer {
  bool approve = false;
  std::string remark;
  std::optional<policy::OverrideReason> overrideReason;
};

// How a decision ended, for callers that answer other than by text (the approvals API).
enum class DecisionOutcome {
  kApproved,                 // recorded and carried out (the shift given, the offers sent)
  kApprovedTooLate,          // recorded, but the call-out was no longer open: nothing given
  kApprovedDeniedOnRecheck,  // recorded, but a labor rule denies it now: nothing given
  kDenied,                   // recorded; the person was told
  kRefusedSelf,              // the person it is about: nothing changed (approval.refused)
  kRefusedNotApprover,       // anyone but the approver named on it: nothing changed (audited)
  kRefusedPolicy,            // the policy gate refuses approvals now: nothing changed (audited)
  kClosed,                   // already decided, withdrawn or expired (now, if it just lapsed)
  kUnknown,                  // no such approval
};
std::string_view decisionOutcomeName(DecisionOutcome o);  // "approved", "refused_policy", ...

struct Decision {
  DecisionOutcome outcome = DecisionOutcome::kUnknown;
  DeskAnswer answer;  // the reply to the decider, as the SMS path texts it
};

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

  // Waves, escalations, expiries and closings whose time has come, one transaction per call-out;
  // returns how many steps were taken.
  Result<int> due(TimePoint now);
  Result<std::optional<TimePoint>> nextDue();

  // The person's current shift, or their next one starting within the lookahead (nullptr: none).
  const site::Shift* shiftOf(std::string_view personId, site::Instant now) const;

  // Who hears of the desk's decisions and its proposals' outcomes (the trust budget); none by
  // default. Call before the first turn.
  void setTrustFeedback(TrustFeedback feedback) { feedback_ = std::move(feedback); }
  // Who hears of a labor-rule violation found at Act (act_check.h): called on the engine thread
  // with the step's batch (what it records commits with the step), its instant and the receipt
  // id; in `serve` BRK-SCH's signal and a SEV2 on the scheduling budget. None by default. Call
  // before the first turn.
  using ViolationAtAct =
      std::function<void(AuditLog::Batch& batch, TimePoint at, const std::string& ref)>;
  void setViolationAtAct(ViolationAtAct listener) { violationAtAct_ = std::move(listener); }

  const CalloutSettings& settings() const { return settings_; }
  TimePoint now() const { return outreach_.now(); }
  // How to write to a person: their language, the site's name, the human they can reach.
  ReplyContext contextFor(std::string_view personId) const;
  // A shift in words (station, day, hours) as seen at `now`, and a person's first name.
  ShiftWords words(std::string_view shiftId, TimePoint now) const;
  std::string nameOf(std::string_view personId) const;

 private:
  struct Step;
  // Who a wave would offer the call-out's shift to now, ranked, and who not and why.
  Result<CandidateList> candidatesFor(Step& step, const CalloutRow& callout);
  // SHADOW: records whom a first wave would offer (ShadowBook, receipt callout-<id>-shadow);
  // sends nothing.
  Status recordShadow(Step& step, const CalloutRow& callout, const policy::GateDecision& gate);
  // Sends the next wave as `gate` allowed it (recorded in the wave's receipt); how many offers.
  Result<int> sendWave(Step& step, CalloutRow& callout, const policy::GateDecision& gate,
                       bool first);
  // Whether a wave after the first may go out under `gate` (asked at the wave's time).
  Result<bool> laterWaveAllowed(Step& step, const CalloutRow& callout,
                                const policy::GateDecision& gate);
  // Writes the assignment; Ok(false) when the check at Act (act_check.h) found a labor-rule
  // violation: nothing is written but the offer's close, its receipt and the manager's text
  // (notGivenAtAct).
  Result<bool> assign(Step& step, CalloutRow& callout, OfferRow& offer,
                      const labor::PersonVerdict& verdict, const policy::GateDecision& gate,
                      std::optional<std::int64_t> approvalId);
  // Queues `kind` for the approver. `gate`: the caller's decision for `kind` in this step, shown
  // in the receipt; nullopt asks the gate here. Asking once keeps each decision counted once.
  Result<DeskAnswer> requestApproval(Step& step, CalloutRow& callout, OfferRow& offer,
                                     const labor::PersonVerdict& verdict, std::string kind,
                                     std::optional<policy::GateDecision> gate);
  Status escalate(Step& step, CalloutRow& callout, std::string_view why);
  // Lapses a pending approval: its offer is closed and the person told it was not approved.
  Status expireApproval(Step& step, ApprovalRow& approval);
  // The offer taken is closed unassigned, audited with the stored schedule's verdict, the listener
  // told, and (`tellManager`: no manager approved it) the taker's manager of record texted.
  Status notGivenAtAct(Step& step, const CalloutRow& callout, OfferRow& offer,
                       const labor::Verdict& verdict, bool tellManager);
  Status closeOffers(Step& step, CalloutRow& callout, std::int64_t exceptOffer, bool tell);
  Status tellLead(Step& step, const CalloutRow& callout, std::string_view what,
                  const std::string& text);
  Result<std::optional<labor::PersonVerdict>> recheck(Step& step, const CalloutRow& callout,
                                                      const std::string& personId);
  Status audit(Step& step, std::string_view kind, json::Object body);
  Result<sms::conversation::OutreachResult> send(
      Step& step, const std::string& id, const std::string& to, sms::MessageClass kind, bool urgent,
      const std::string& body, const CalloutRow& callout, std::optional<TimePoint> notAfter,
      std::optional<sms::conversation::ReceiptSource> why = std::nullopt);
  ReplyContext contextForPhone(const std::string& phone) const;
  sms::conversation::HumanContact generalManager() const;
  // Asks the gate (an automated ask is first counted as a decision through feedback_).
  policy::GateDecision ask(Step& step, std::string_view kind, bool automated,
                           std::string_view subject);

  SiteSnapshot& site_;
  sms::conversation::Outreach& outreach_;
  atoms::StoreRunner& store_;
  CalloutSettings settings_;
  GateFunction gate_;
  TrustFeedback feedback_;
  ViolationAtAct violationAtAct_;
  sms::RandomSource random_;
};

}  // namespace atoms::callout
