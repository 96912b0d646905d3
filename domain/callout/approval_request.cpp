#include "domain/callout/approval_request.h"

#include <algorithm>

#include "domain/callout/callout_receipt.h"

namespace atoms::callout {

using sms::MessageClass;
using sms::conversation::HumanContact;

namespace {

// Why a cover waits for a manager, from the verdict's own findings: overtime only when a finding
// of an overtime kind pays for time.
ApprovalReason reasonFor(const labor::Verdict& verdict) {
  for (const labor::RuleEvaluation& e : verdict.evaluations) {
    if (e.overtimeKind && e.premiumMinutes > 0) return ApprovalReason::kOvertime;
  }
  if (verdict.premiumMinutes > 0 || verdict.premiumCents > 0) return ApprovalReason::kPremium;
  return ApprovalReason::kAssignment;
}

}  // namespace

Result<DeskAnswer> requestApproval(const DeskContext& desk, DeskStep& step, const CalloutRow& c,
                                   OfferRow& offer, const labor::PersonVerdict& verdict,
                                   const std::string& kind,
                                   std::optional<policy::GateDecision> gate) {
  const bool forOffers = kind == "callout.offer";
  const std::string subject = forOffers ? c.absentId : offer.personId;
  const site::Person* person = desk.site().index().person(subject);
  // The manager of record of the person it is about (the taker; for offers, the absent person)
  // decides, else the general manager; never that person themselves
  // (docs/decisions/0018-who-approves-in-propose-mode.md).
  std::string approverId;
  HumanContact approver;
  if (person != nullptr && person->managerOfRecord && *person->managerOfRecord != subject) {
    approverId = *person->managerOfRecord;
    if (const site::Person* m = desk.site().index().person(approverId)) {
      approver = {m->name, m->phone};
    }
  }
  if (approver.phone.empty()) {
    approver = desk.generalManager();
    approverId = desk.settings().generalManager;
    if (approverId.empty()) {
      if (auto contact = desk.outreach().roster().findByPhone(approver.phone)) {
        approverId = contact->personId;
      }
    }
  }
  ApprovalRow a;
  a.kind = kind;
  a.calloutId = c.id;
  if (!forOffers) a.offerId = offer.id;
  a.subjectId = subject;
  a.approverId = approverId;
  a.approverPhone = approver.phone;
  a.requestedAt = step.now;
  a.expiresAt = std::min(step.now + desk.settings().approvalExpiry, c.shiftEnd);
  const ShiftWords w = desk.words(c.shiftId, step.now);
  a.summary = forOffers ? "offers for the " + shiftLabel(w)
                        : desk.nameOf(subject) + " to cover the " + shiftLabel(w);
  auto id = step.rows.insertApproval(a);
  if (!id) return id.error();
  a.id = *id;
  if (!forOffers) {
    offer.state = OfferState::kAwaitingApproval;
    offer.answeredAt = step.now;
    if (Status s = step.rows.updateOffer(offer); !s) return s.error();
  }
  CalloutReceipt receipt("approval-" + std::to_string(a.id) + "-request", kind, step.now);
  receipt.source("org", "shift:" + c.shiftId, shiftLabel(w))
      .source("policy", "labor-rules", "the labor rules of the site's jurisdictions")
      .labor(verdict.verdict.evaluations)
      .gate(gate ? *gate : desk.ask(step, kind, true, subject))
      .field("approval", a.id)
      .field("callout", c.id)
      .field("person", subject)
      .field("approver", approverId)
      .field("premiumMinutes", verdict.verdict.premiumMinutes)
      .field("premiumCents", verdict.verdict.premiumCents);
  if (approver.phone.empty()) receipt.gap("no manager of record or site contact with a phone");
  auto seq = signReceipt(step, receipt, c.id,
                         "Waits for the manager of record: nothing runs before an "
                         "approval.",
                         "queued_for_approval");
  if (!seq) return seq.error();
  a.receiptSeq = *seq;  // the evidence the approvals API shows
  if (Status s = step.rows.updateApproval(a); !s) return s.error();
  if (!approver.phone.empty()) {
    const ReplyContext actx = desk.contextForPhone(approver.phone);
    const std::string text =
        forOffers
            ? offersApprovalRequestText(actx, a.id, desk.nameOf(c.absentId), w)
            : approvalRequestText(actx, a.id, desk.nameOf(subject), w,
                                  verdict.verdict.premiumMinutes, verdict.verdict.premiumCents);
    auto sent = desk.send(step, "approval-" + std::to_string(a.id) + "-request", approver.phone,
                          MessageClass::kEscalation, true, text, c, a.expiresAt);
    if (!sent) return sent.error();
  }
  const std::string managerName = approver.name.empty() ? "your manager" : approver.name;
  if (forOffers) {
    return DeskAnswer{
        "callout_awaiting_approval",
        offersWaitingApprovalText(desk.contextForPhone(c.reporterPhone), w, managerName), c.id};
  }
  return DeskAnswer{
      "offer_awaiting_approval",
      waitingApprovalText(desk.contextFor(subject), managerName, reasonFor(verdict.verdict)), c.id};
}

Status expireApproval(const DeskContext& desk, DeskStep& step, ApprovalRow& a) {
  a.state = ApprovalState::kExpired;
  a.decidedBy = "expiry";
  a.decidedAt = step.now;
  if (Status s = step.rows.updateApproval(a); !s) return s;
  if (Status s = audit(step, "approval.expired", {{"approval", a.id}, {"callout", a.calloutId}});
      !s) {
    return s;
  }
  if (!a.offerId) return Status::success();
  auto offers = step.rows.offers(a.calloutId);
  if (!offers) return offers.error();
  auto c = step.rows.callout(a.calloutId);
  if (!c) return c.error();
  for (OfferRow o : *offers) {
    if (o.id != *a.offerId || o.state != OfferState::kAwaitingApproval) continue;
    o.state = OfferState::kClosed;
    if (Status s = step.rows.updateOffer(o); !s) return s;
    if (*c) {
      auto sent = desk.send(step, "approval-" + std::to_string(a.id) + "-outcome", o.phone,
                            MessageClass::kThreadReply, false,
                            notApprovedText(desk.contextFor(o.personId)), **c, (*c)->shiftEnd);
      if (!sent) return sent.error();
    }
  }
  return Status::success();
}

}  // namespace atoms::callout
