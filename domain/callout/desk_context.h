// DeskContext: what every flow of the call-out desk shares, passed to each of them explicitly: the
// site snapshot, Outreach (every text, with its consent, quiet-hour, cap and freeze rules), the
// settings, the policy gate, the random source of reply codes, and who hears of the desk's
// decisions (TrustFeedback) and of a labor-rule violation found at Act. And the few things every
// step does with them: name people and shifts the way the texts do, pick how to write to a person,
// ask the gate, text someone about a call-out, tell the lead.
//
// Contract: owned by the CalloutDesk; every reference must outlive it. Lookups read the snapshot
// and the roster only. ask(), send() and tellLead() write into the step's batch (send: the outbox
// and the outreach receipt, through Outreach::sendIn), so what they do commits with the step.
// Threading: the store's writer (the engine thread), like the desk. Errors: store errors, one line.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "domain/callout/callout_settings.h"
#include "domain/callout/callout_store.h"
#include "domain/callout/callout_texts.h"
#include "domain/callout/desk_turn.h"
#include "domain/callout/site_snapshot.h"
#include "domain/callout/trust_feedback.h"
#include "domain/policy/policy_gate.h"
#include "sms/conversation/outreach.h"
#include "sms/text/offer_code.h"

namespace atoms::callout {

// The gate as the desk asks it: the caller reads the live policy state (kill switch, graduation,
// breakers) and decides.
using GateFunction = std::function<policy::GateDecision(const policy::ProposedAction& action)>;

// Who hears of a labor-rule violation found at Act (act_check.h): called on the engine thread with
// the step's batch (what it records commits with the step), its instant and the receipt id.
using ViolationAtAct =
    std::function<void(AuditLog::Batch& batch, TimePoint at, const std::string& ref)>;

class DeskContext {
 public:
  DeskContext(SiteSnapshot& site, sms::conversation::Outreach& outreach, CalloutSettings settings,
              GateFunction gate, sms::RandomSource random);

  SiteSnapshot& site() const { return site_; }
  sms::conversation::Outreach& outreach() const { return outreach_; }
  const CalloutSettings& settings() const { return settings_; }
  const sms::RandomSource& random() const { return random_; }
  const TrustFeedback& feedback() const { return feedback_; }
  void setTrustFeedback(TrustFeedback feedback) { feedback_ = std::move(feedback); }
  void setViolationAtAct(ViolationAtAct listener) { violationAtAct_ = std::move(listener); }
  // Tells the listener, if any, of a violation found at Act (receipt `ref`).
  void violationAtAct(DeskStep& step, const std::string& ref) const;

  // A person's first name (the id when unknown).
  std::string nameOf(std::string_view personId) const;
  // How to write to a person: their language, the site's name, the human they can reach.
  ReplyContext contextFor(std::string_view personId) const;
  // The same for a number (a person on the roster, or the site's defaults).
  ReplyContext contextForPhone(const std::string& phone) const;
  // `callout.general_manager`, else the site contact.
  sms::conversation::HumanContact generalManager() const;
  // A shift in words (station, day, hours) as seen at `now`.
  ShiftWords words(std::string_view shiftId, TimePoint now) const;
  // The person's current shift, or their next one starting within the lookahead (nullptr: none).
  const site::Shift* shiftOf(std::string_view personId, site::Instant now) const;

  // Asks the gate about `kind` (an automated ask is first counted as a decision through the
  // feedback, in the step's batch).
  policy::GateDecision ask(DeskStep& step, std::string_view kind, bool automated,
                           std::string_view subject) const;
  // Asks the gate about `action` as it is, counting nothing.
  policy::GateDecision gate(const policy::ProposedAction& action) const { return gate_(action); }

  // Texts `to` about `callout` through Outreach, with message id `id` (deterministic, so a redone
  // step sends nothing twice) and the shift and the call-out as the text's sources (`why` added:
  // what WHY says about this text).
  Result<sms::conversation::OutreachResult> send(
      DeskStep& step, const std::string& id, const std::string& to, sms::MessageClass kind,
      bool urgent, const std::string& body, const CalloutRow& callout,
      std::optional<TimePoint> notAfter,
      std::optional<sms::conversation::ReceiptSource> why = std::nullopt) const;
  // Texts whoever reported the call-out (nothing when it has no number), id
  // "callout-<id>-lead-<what>".
  Status tellLead(DeskStep& step, const CalloutRow& callout, std::string_view what,
                  const std::string& text) const;

 private:
  SiteSnapshot& site_;
  sms::conversation::Outreach& outreach_;
  CalloutSettings settings_;
  GateFunction gate_;
  TrustFeedback feedback_;
  ViolationAtAct violationAtAct_;
  sms::RandomSource random_;
};

}  // namespace atoms::callout
