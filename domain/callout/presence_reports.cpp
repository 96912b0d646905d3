#include "domain/callout/presence_reports.h"

#include <string>

#include "domain/callout/callout_close.h"
#include "domain/site/time_zone.h"

namespace atoms::callout {

using sms::MessageClass;
using sms::conversation::HumanContact;
using sms::conversation::OutreachRequest;

Result<DeskAnswer> personArrived(const DeskContext& desk, DeskStep& step,
                                 const sms::conversation::Contact& person) {
  const ReplyContext ctx = desk.contextFor(person.personId);
  const std::string human = sms::conversation::describeHuman(ctx.human, ctx.language);
  auto recent = step.rows.calloutsFor(person.personId, 1);
  if (!recent) return recent.error();
  if (recent->empty() || recent->front().shiftEnd <= step.now ||
      (recent->front().state != CalloutState::kOpen &&
       recent->front().state != CalloutState::kCovered)) {
    return DeskAnswer{"arrived_noted", arrivedThanksText(ctx, human), 0};
  }
  CalloutRow c = recent->front();
  const ShiftWords w = desk.words(c.shiftId, step.now);
  const ReplyContext lead = desk.contextForPhone(c.reporterPhone);
  const std::string leadName = c.reporterPhone.empty() || c.reporterId == person.personId
                                   ? human
                                   : desk.nameOf(c.reporterId);
  if (c.state == CalloutState::kOpen) {
    endCallout(c, CalloutState::kWithdrawn, step.now);
    if (Status s = step.rows.updateCallout(c); !s) return s.error();
    if (Status s = closeOffers(desk, step, c, 0, true); !s) return s.error();
    if (Status s = audit(step, "callout.withdrawn",
                         {{"callout", c.id}, {"reason", "the absent person says they are here"}});
        !s) {
      return s.error();
    }
    if (c.reporterId != person.personId) {
      if (Status s = desk.tellLead(step, c, "arrived",
                                   arrivedNoticeText(lead, desk.nameOf(person.personId), w, ""));
          !s) {
        return s.error();
      }
    }
    return DeskAnswer{"arrived_callout_withdrawn", arrivedThanksText(ctx, leadName), c.id};
  }
  // Already covered: two people for one shift is for a person to sort out, not the box.
  if (Status s = audit(step, "callout.arrived_after_cover",
                       {{"callout", c.id}, {"coveredBy", c.coveredBy}});
      !s) {
    return s.error();
  }
  if (Status s = desk.tellLead(
          step, c, "arrived",
          arrivedNoticeText(lead, desk.nameOf(person.personId), w, desk.nameOf(c.coveredBy)));
      !s) {
    return s.error();
  }
  return DeskAnswer{"arrived_after_cover", arrivedThanksText(ctx, leadName), c.id};
}

Result<DeskAnswer> personRunningLate(const DeskContext& desk, DeskStep& step,
                                     const sms::conversation::Contact& person,
                                     std::optional<int> minutes) {
  const ReplyContext ctx = desk.contextFor(person.personId);
  const site::Shift* shift = desk.shiftOf(person.personId, site::toInstant(step.now));
  const HumanContact lead = desk.outreach().roster().humanContact(person.personId);
  const std::string leadName = sms::conversation::describeHuman(lead, ctx.language);
  if (shift == nullptr || lead.phone.empty() || lead.phone == person.phone) {
    return DeskAnswer{"late_noted", lateThanksText(ctx, leadName), 0};
  }
  const ShiftWords w = desk.words(shift->id, step.now);
  OutreachRequest request;
  request.id = "late-" + (step.inboxId ? std::to_string(*step.inboxId) : person.personId);
  request.to = lead.phone;
  request.kind = MessageClass::kEscalation;
  request.urgent = true;
  request.body =
      lateNoticeText(desk.contextForPhone(lead.phone), desk.nameOf(person.personId), w, minutes);
  request.ref = "shift:" + shift->id;
  request.sources = {{"message", "inbox:" + (step.inboxId ? std::to_string(*step.inboxId) : "-"),
                      "their text saying they are running late"}};
  auto sent = desk.outreach().sendIn(step.store, step.batch, request);
  if (!sent) return sent.error();
  if (Status s = audit(step, "callout.late",
                       {{"person", person.personId},
                        {"shift", shift->id},
                        {"minutes", minutes ? json::Value(*minutes) : json::Value()}});
      !s) {
    return s.error();
  }
  return DeskAnswer{"late_passed_on", lateThanksText(ctx, lead.name.empty() ? leadName : lead.name),
                    0};
}

}  // namespace atoms::callout
