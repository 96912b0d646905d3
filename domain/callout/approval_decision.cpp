#include "domain/callout/approval_decision.h"

#include <algorithm>
#include <utility>

#include "domain/callout/approval_request.h"
#include "domain/callout/callout_close.h"
#include "domain/callout/escalation.h"
#include "domain/callout/offer_wave.h"
#include "domain/callout/shift_assignment.h"
#include "sms/mailbox/message_checks.h"

namespace atoms::callout {

using sms::MessageClass;

std::string_view decisionOutcomeName(DecisionOutcome o) {
  switch (o) {
    case DecisionOutcome::kApproved:
      return "approved";
    case DecisionOutcome::kApprovedTooLate:
      return "approved_too_late";
    case DecisionOutcome::kApprovedDeniedOnRecheck:
      return "approved_denied_on_recheck";
    case DecisionOutcome::kDenied:
      return "denied";
    case DecisionOutcome::kRefusedSelf:
      return "refused_self_approval";
    case DecisionOutcome::kRefusedNotApprover:
      return "refused_not_approver";
    case DecisionOutcome::kRefusedPolicy:
      return "refused_policy";
    case DecisionOutcome::kClosed:
      return "closed";
    case DecisionOutcome::kUnknown:
      return "unknown";
  }
  return "unknown";
}

json::Object deciderFacts(const Decider& who, std::optional<std::int64_t> inboxId) {
  return json::Object{
      {"via", who.via},
      {"from",
       who.phone.empty() ? json::Value() : json::Value(sms::mailbox::maskNumber(who.phone))},
      {"person", who.personId},
      {"inbox", inboxId ? json::Value(*inboxId) : json::Value()}};
}

Result<DeskAnswer> decideByText(const DeskContext& desk, DeskStep& step,
                                const sms::conversation::Contact& sender,
                                std::string_view reference, bool approve, std::string_view remark) {
  if (reference.empty() || reference.size() > 12 ||
      !std::all_of(reference.begin(), reference.end(),
                   [](char ch) { return ch >= '0' && ch <= '9'; })) {
    return DeskAnswer{"approval_which", approvalWhichText(desk.contextFor(sender.personId)), 0};
  }
  auto decided = decideApproval(desk, step, Decider{sender.personId, sender.phone, "sms"},
                                std::stoll(std::string(reference)),
                                ApprovalAnswer{approve, std::string(remark), std::nullopt});
  if (!decided) return decided.error();
  return std::move(decided->answer);
}

Result<Decision> decideApproval(const DeskContext& desk, DeskStep& step, const Decider& who,
                                std::int64_t approvalId, const ApprovalAnswer& answer) {
  const bool approve = answer.approve;
  const ReplyContext ctx = desk.contextFor(who.personId);
  auto found = step.rows.approval(approvalId);
  if (!found) return found.error();
  if (!*found) {
    return Decision{DecisionOutcome::kUnknown,
                    {"approval_closed", approvalClosedText(ctx, approvalId), 0}};
  }
  ApprovalRow a = **found;
  if (a.state == ApprovalState::kPending && a.expiresAt <= step.now) {
    // Lapsed, and the timer has not got to it yet: it is closed all the same.
    if (Status s = expireApproval(desk, step, a); !s) return s.error();
  }
  if (a.state != ApprovalState::kPending) {
    return Decision{DecisionOutcome::kClosed,
                    {"approval_closed", approvalClosedText(ctx, a.id), 0}};
  }
  auto refuse = [&](DecisionOutcome outcome, std::string_view reason, std::string text,
                    json::Value gate = json::Value()) -> Result<Decision> {
    json::Object facts = deciderFacts(who, step.inboxId);
    facts["approval"] = a.id;
    facts["reason"] = reason;
    facts["gate"] = std::move(gate);
    if (Status s = audit(step, "approval.refused", std::move(facts)); !s) return s.error();
    return Decision{outcome,
                    {"approval_refused_" + std::string(reason), std::move(text), a.calloutId}};
  };
  if (!who.personId.empty() && who.personId == a.subjectId) {
    return refuse(DecisionOutcome::kRefusedSelf, "self_approval", approvalSelfText(ctx, a.id));
  }
  // By text, the approver's number (and their person, when the approval names one); through the
  // API, which has no number, the person named on the approval only.
  const bool approver =
      who.phone.empty()
          ? !a.approverId.empty() && who.personId == a.approverId
          : who.phone == a.approverPhone && (a.approverId.empty() || who.personId == a.approverId);
  if (!approver) {
    return refuse(DecisionOutcome::kRefusedNotApprover, "not_approver",
                  approvalNotYoursText(ctx, a.id));
  }
  const policy::GateDecision gate = desk.ask(step, a.kind, false, a.subjectId);
  if (approve && !gate.executes() && gate.outcome != policy::EffectiveOutcome::kQueueForApproval) {
    return refuse(DecisionOutcome::kRefusedPolicy, "policy", approvalsPausedText(ctx),
                  gate.toJson());
  }
  if (approve) {
    // Seed 001 EC-RISK-001, re-validation at Act: the box is about to carry out what was OKed.
    // While that kind's breaker is open nothing is carried out: the approval stays pending
    // ("held by breaker" in its approval.refused entry) and the approver is told.
    policy::ProposedAction act;
    act.kind = a.kind;
    act.actor = "engine";
    act.subject = a.subjectId;
    const policy::GateDecision atAct = desk.gate(act);
    if (!atAct.breaker.empty()) {
      return refuse(DecisionOutcome::kRefusedPolicy, "held_by_breaker",
                    heldByBreakerText(ctx, a.id), atAct.toJson());
    }
  }
  auto foundCallout = step.rows.callout(a.calloutId);
  if (!foundCallout) return foundCallout.error();
  if (!*foundCallout) return makeError("approval " + std::to_string(a.id) + ": call-out missing");
  CalloutRow c = **foundCallout;

  a.state = approve ? ApprovalState::kApproved : ApprovalState::kDenied;
  a.decidedBy = who.personId;
  a.decidedAt = step.now;
  a.remark = answer.remark;
  if (Status s = step.rows.updateApproval(a); !s) return s.error();
  if (Status s =
          audit(step, "approval.decided",
                {{"approval", a.id},
                 {"kind", a.kind},
                 {"decision", approve ? "approved" : "denied"},
                 {"by", who.personId},
                 {"via", who.via},
                 {"callout", c.id},
                 {"override",
                  answer.overrideReason && !approve
                      ? json::Value(std::string(policy::overrideReasonName(*answer.overrideReason)))
                      : json::Value()},
                 {"gate", gate.toJson()}});
      !s) {
    return s.error();
  }
  if (desk.feedback().proposal) {
    desk.feedback().proposal(step.batch, step.now, a.kind, approve,
                             approve ? std::nullopt : answer.overrideReason,
                             "approval-" + std::to_string(a.id));
  }
  const DecisionOutcome recorded = approve ? DecisionOutcome::kApproved : DecisionOutcome::kDenied;
  std::string text = approvalRecordedText(ctx, a.id, approve);
  if (a.kind == "callout.offer") {
    if (approve && c.state == CalloutState::kOpen) {
      auto sent = sendWave(desk, step, c, gate, true);
      if (!sent) return sent.error();
      if (*sent == 0) {
        if (Status s = escalate(desk, step, c, "nobody can take it now"); !s) return s.error();
      }
    } else if (!approve && c.state == CalloutState::kOpen) {
      endCallout(c, CalloutState::kWithdrawn, step.now);
      // The lead is still short-handed: they hear it from the box, not by silence.
      if (Status s = desk.tellLead(
              step, c, "offers-denied",
              offersNotApprovedText(desk.contextForPhone(c.reporterPhone),
                                    desk.words(c.shiftId, step.now), desk.nameOf(a.approverId)));
          !s) {
        return s.error();
      }
    }
    if (Status s = step.rows.updateCallout(c); !s) return s.error();
    return Decision{recorded, {approve ? "approval_approved" : "approval_denied", text, c.id}};
  }

  auto offers = step.rows.offers(c.id);
  if (!offers) return offers.error();
  auto it = std::find_if(offers->begin(), offers->end(),
                         [&](const OfferRow& o) { return a.offerId && o.id == *a.offerId; });
  if (it == offers->end()) return makeError("approval " + std::to_string(a.id) + ": offer missing");
  OfferRow offer = *it;
  const ReplyContext pctx = desk.contextFor(offer.personId);
  const ShiftWords w = desk.words(c.shiftId, step.now);
  // What the taker hears, in their thread: one message id per approval, whatever the outcome.
  const std::string outcomeId = "approval-" + std::to_string(a.id) + "-outcome";
  if (!approve || c.state != CalloutState::kOpen) {
    offer.state = OfferState::kClosed;
    if (Status s = step.rows.updateOffer(offer); !s) return s.error();
    auto sent =
        desk.send(step, outcomeId, offer.phone, MessageClass::kThreadReply, false,
                  c.state == CalloutState::kOpen ? notApprovedText(pctx) : alreadyCoveredText(pctx),
                  c, c.shiftEnd);
    if (!sent) return sent.error();
    if (!approve) return Decision{recorded, {"approval_denied", text, c.id}};
    return Decision{DecisionOutcome::kApprovedTooLate,
                    {"approval_too_late", approvalClosedText(ctx, a.id), c.id}};
  }
  // Approved, but a labor rule says no now (at this instant, or at Act): nothing is given, the
  // taker hears they cannot take it and the approver why it was not carried out.
  auto notAllowed = [&](std::string outcome) -> Result<Decision> {
    auto sent = desk.send(step, outcomeId, offer.phone, MessageClass::kThreadReply, false,
                          cannotTakeText(pctx), c, c.shiftEnd);
    if (!sent) return sent.error();
    return Decision{
        DecisionOutcome::kApprovedDeniedOnRecheck,
        {std::move(outcome), approvedButNotAllowedText(ctx, desk.nameOf(offer.personId)), c.id}};
  };
  auto verdict = verdictNow(desk, step, c, offer.personId);
  if (!verdict) return verdict.error();
  if (!*verdict || (*verdict)->verdict.kind == labor::VerdictKind::kDenied) {
    offer.state = OfferState::kClosed;
    if (Status s = step.rows.updateOffer(offer); !s) return s.error();
    return notAllowed("approval_denied_on_recheck");
  }
  auto done = assignShift(desk, step, c, offer, **verdict, gate, a.id);
  if (!done) return done.error();
  if (!*done) return notAllowed("approval_not_given_at_act");
  auto sent = desk.send(step, outcomeId, offer.phone, MessageClass::kThreadReply, true,
                        approvedText(pctx, w), c, c.shiftEnd);
  if (!sent) return sent.error();
  return Decision{recorded, {"approval_approved", text, c.id}};
}

}  // namespace atoms::callout
