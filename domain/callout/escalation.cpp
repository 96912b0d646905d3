#include "domain/callout/escalation.h"

#include <algorithm>

#include "domain/callout/callout_receipt.h"
#include "sms/mailbox/message_checks.h"

namespace atoms::callout {

using sms::MessageClass;
using sms::conversation::HumanContact;

std::string escalatedTo(const sms::conversation::HumanContact& generalManager) {
  if (generalManager.phone.empty()) return "";
  return generalManager.name.empty() ? "the manager" : generalManager.name;
}

Status escalate(const DeskContext& desk, DeskStep& step, CalloutRow& c, std::string_view why) {
  const HumanContact gm = desk.generalManager();
  const ShiftWords w = desk.words(c.shiftId, step.now);
  auto offers = step.rows.offers(c.id);
  if (!offers) return offers.error();
  const int sent =
      static_cast<int>(std::count_if(offers->begin(), offers->end(), [](const OfferRow& o) {
        return o.state != OfferState::kNotSent;
      }));
  CalloutReceipt receipt("callout-" + std::to_string(c.id) + "-escalate", "callout.escalate",
                         step.now);
  receipt.source("org", "shift:" + c.shiftId, shiftLabel(w))
      .source("decision", "callout-" + std::to_string(c.id), "the call-out and its offers")
      .gate(desk.ask(step, "callout.escalate", true, ""))
      .field("callout", c.id)
      .field("offers", sent)
      .field("why", why)
      .field("to",
             gm.phone.empty() ? json::Value() : json::Value(sms::mailbox::maskNumber(gm.phone)));
  if (gm.phone.empty()) receipt.gap("no general manager or site contact with a phone");
  auto seq = signReceipt(step, receipt, c.id, "No cover yet: a person must know.", "escalated");
  if (!seq) return seq.error();
  c.escalatedAt = step.now;
  c.escalateAt.reset();
  if (!gm.phone.empty()) {
    auto out = desk.send(
        step, "callout-" + std::to_string(c.id) + "-escalate", gm.phone, MessageClass::kEscalation,
        true,
        escalationText(desk.contextForPhone(gm.phone), w, desk.nameOf(c.absentId), sent, *seq), c,
        std::nullopt);
    if (!out) return out.error();
  }
  if (gm.phone != c.reporterPhone) {
    if (Status s = desk.tellLead(
            step, c, "escalated",
            stillSearchingText(desk.contextForPhone(c.reporterPhone), w, escalatedTo(gm)));
        !s) {
      return s.error();
    }
  }
  return Status::success();
}

}  // namespace atoms::callout
