#include "domain/callout/callout_close.h"

namespace atoms::callout {

using sms::MessageClass;

void endCallout(CalloutRow& c, CalloutState state, TimePoint at) {
  c.state = state;
  c.closedAt = at;
  c.nextWaveAt.reset();
  c.escalateAt.reset();
}

Status closeOffers(const DeskContext& desk, DeskStep& step, const CalloutRow& c,
                   std::int64_t exceptOffer, bool tell) {
  auto offers = step.rows.offers(c.id);
  if (!offers) return offers.error();
  const ShiftWords w = desk.words(c.shiftId, step.now);
  for (OfferRow o : *offers) {
    if (o.id == exceptOffer) continue;
    if (o.state != OfferState::kOpen && o.state != OfferState::kAwaitingApproval) continue;
    const bool waiting = o.state == OfferState::kAwaitingApproval;
    o.state = OfferState::kClosed;
    if (Status s = step.rows.updateOffer(o); !s) return s.error();
    if (!tell) continue;
    const ReplyContext ctx = desk.contextFor(o.personId);
    const std::string text = c.state == CalloutState::kCovered ? coveredNoLongerNeededText(ctx, w)
                                                               : noLongerNeededText(ctx, w);
    auto sent = desk.send(
        step, "callout-" + std::to_string(c.id) + "-closed-" + std::to_string(o.id), o.phone,
        waiting ? MessageClass::kThreadReply : MessageClass::kNotice, false, text, c, c.shiftEnd);
    if (!sent) return sent.error();
  }
  auto approvals = step.rows.approvalsFor(c.id);
  if (!approvals) return approvals.error();
  for (ApprovalRow a : *approvals) {
    if (a.state != ApprovalState::kPending) continue;
    a.state = ApprovalState::kWithdrawn;
    a.decidedBy = "engine";
    a.decidedAt = step.now;
    if (Status s = step.rows.updateApproval(a); !s) return s.error();
  }
  return Status::success();
}

}  // namespace atoms::callout
