#include "domain/callout/offer_reply.h"

#include <algorithm>

#include "domain/callout/approval_request.h"
#include "domain/callout/callout_receipt.h"
#include "domain/callout/shift_assignment.h"

namespace atoms::callout {

Result<std::vector<std::string>> liveCodes(CalloutStore& rows, std::string_view personId) {
  auto live = rows.liveOffersTo(personId);
  if (!live) return live.error();
  std::vector<std::string> codes;
  for (const OfferRow& o : *live) codes.push_back(o.code);
  return codes;
}

Result<bool> replyCrossedClosing(CalloutStore& rows, std::string_view personId,
                                 std::string_view code, TimePoint receivedAt) {
  auto offer = rows.latestOfferWithCode(personId, code);
  if (!offer) return offer.error();
  if (!*offer || (*offer)->state != OfferState::kClosed || (*offer)->answeredAt) return false;
  auto c = rows.callout((*offer)->calloutId);
  if (!c) return c.error();
  if (!*c || !(*c)->closedAt) return false;
  const bool told =
      (*c)->state == CalloutState::kCovered || (*c)->state == CalloutState::kWithdrawn;
  return told && receivedAt <= *(*c)->closedAt;
}

Result<DeskAnswer> takeOffer(const DeskContext& desk, DeskStep& step,
                             const sms::conversation::Contact& person, std::string_view code) {
  const ReplyContext ctx = desk.contextFor(person.personId);
  auto live = step.rows.liveOffersTo(person.personId);
  if (!live) return live.error();
  auto it =
      std::find_if(live->begin(), live->end(), [&](const OfferRow& o) { return o.code == code; });
  if (it == live->end()) return DeskAnswer{"offer_closed", alreadyCoveredText(ctx), 0};
  OfferRow offer = *it;
  if (offer.state == OfferState::kAwaitingApproval) {
    return DeskAnswer{"offer_awaiting_approval", stillWaitingText(ctx), offer.calloutId};
  }
  auto found = step.rows.callout(offer.calloutId);
  if (!found) return found.error();
  if (!*found) return makeError("offer " + std::to_string(offer.id) + ": its call-out is missing");
  CalloutRow c = **found;
  offer.answeredAt = step.now;
  if (c.state != CalloutState::kOpen) {
    offer.state = OfferState::kClosed;
    if (Status s = step.rows.updateOffer(offer); !s) return s.error();
    return DeskAnswer{"offer_too_late", alreadyCoveredText(ctx), c.id};
  }
  // Everything again, at this instant: hours may have changed since the offer went out.
  auto verdict = verdictNow(desk, step, c, person.personId);
  if (!verdict) return verdict.error();
  if (!*verdict || (*verdict)->verdict.kind == labor::VerdictKind::kDenied) {
    offer.state = OfferState::kClosed;
    if (Status s = step.rows.updateOffer(offer); !s) return s.error();
    CalloutReceipt receipt(
        "callout-" + std::to_string(c.id) + "-refuse-" + std::to_string(offer.id), "shift.assign",
        step.now);
    receipt.source("org", "shift:" + c.shiftId, "the shift")
        .source("policy", "labor-rules", "the labor rules of the site's jurisdictions");
    if (*verdict) receipt.labor((*verdict)->verdict.evaluations);
    receipt.field("callout", c.id).field("person", person.personId);
    auto seq =
        signReceipt(step, receipt, c.id,
                    "Not given: a labor rule denies it at the moment of the reply.", "denied");
    if (!seq) return seq.error();
    return DeskAnswer{"offer_denied_on_recheck", cannotTakeText(ctx), c.id};
  }
  const labor::PersonVerdict& v = **verdict;
  const bool premium = v.verdict.kind == labor::VerdictKind::kAllowedWithPremium ||
                       v.verdict.premiumMinutes > 0 || v.verdict.premiumCents > 0;
  if (premium) return requestApproval(desk, step, c, offer, v, "overtime.approve", std::nullopt);
  const policy::GateDecision gate = desk.ask(step, "shift.assign", true, person.personId);
  if (!gate.executes()) return requestApproval(desk, step, c, offer, v, "shift.assign", gate);
  auto done = assignShift(desk, step, c, offer, v, gate, std::nullopt);
  if (!done) return done.error();
  if (!*done) return DeskAnswer{"offer_not_given_at_act", managerWillConfirmText(ctx), c.id};
  return DeskAnswer{"offer_taken", youAreOnText(ctx, desk.words(c.shiftId, step.now)), c.id};
}

Result<DeskAnswer> declineOffer(const DeskContext& desk, DeskStep& step,
                                const sms::conversation::Contact& person, std::string_view code) {
  const ReplyContext ctx = desk.contextFor(person.personId);
  auto live = step.rows.liveOffersTo(person.personId);
  if (!live) return live.error();
  for (OfferRow offer : *live) {
    if (offer.code != code) continue;
    offer.state = OfferState::kDeclined;
    offer.answeredAt = step.now;
    if (Status s = step.rows.updateOffer(offer); !s) return s.error();
    if (Status s =
            audit(step, "callout.declined",
                  {{"callout", offer.calloutId}, {"offer", offer.id}, {"person", person.personId}});
        !s) {
      return s.error();
    }
    // A pending approval for it goes too.
    auto approvals = step.rows.approvalsFor(offer.calloutId);
    if (!approvals) return approvals.error();
    for (ApprovalRow a : *approvals) {
      if (a.offerId != offer.id || a.state != ApprovalState::kPending) continue;
      a.state = ApprovalState::kWithdrawn;
      a.decidedBy = person.personId;
      a.decidedAt = step.now;
      if (Status s = step.rows.updateApproval(a); !s) return s.error();
    }
    return DeskAnswer{"offer_declined", declinedText(ctx), offer.calloutId};
  }
  return DeskAnswer{"offer_closed", declinedText(ctx), 0};
}

}  // namespace atoms::callout
