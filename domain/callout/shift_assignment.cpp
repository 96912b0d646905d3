#include "domain/callout/shift_assignment.h"

#include "domain/callout/act_check.h"
#include "domain/callout/callout_close.h"
#include "domain/callout/callout_receipt.h"
#include "domain/callout/cover_verifier.h"
#include "domain/site/time_zone.h"

namespace atoms::callout {

using sms::MessageClass;
using sms::conversation::HumanContact;

namespace {

// The offer taken is closed unassigned, audited with the stored schedule's verdict, the listener
// told, and (`tellManager`: no manager approved it) the taker's manager of record texted.
Status notGivenAtAct(const DeskContext& desk, DeskStep& step, const CalloutRow& c, OfferRow& offer,
                     const labor::Verdict& verdict, bool tellManager) {
  offer.state = OfferState::kClosed;
  offer.answeredAt = step.now;
  if (Status s = step.rows.updateOffer(offer); !s) return s.error();
  const std::string id = "callout-" + std::to_string(c.id) + "-act-" + std::to_string(offer.id);
  const ShiftWords w = desk.words(c.shiftId, step.now);
  CalloutReceipt receipt(id, "shift.assign", step.now);
  receipt.source("org", "shift:" + c.shiftId, shiftLabel(w))
      .source("service", "site_shift:" + offer.personId, "the person's shifts as stored at Act")
      .source("policy", "labor-rules", "the labor rules of the site's jurisdictions")
      .labor(verdict.evaluations)
      .field("callout", c.id)
      .field("person", offer.personId)
      .field("breaker", "BRK-SCH");
  auto seq = signReceipt(step, receipt, c.id,
                         "Not given: at the moment of writing it, the schedule as stored breaks "
                         "a labor rule the decision did not see; BRK-SCH is told.",
                         "not_given_at_act");
  if (!seq) return seq.error();
  desk.violationAtAct(step, id);
  if (!tellManager) return Status::success();
  const site::Person* person = desk.site().index().person(offer.personId);
  HumanContact manager = desk.generalManager();
  if (person != nullptr && person->managerOfRecord && *person->managerOfRecord != offer.personId) {
    if (const site::Person* m = desk.site().index().person(*person->managerOfRecord);
        m != nullptr && !m->phone.empty()) {
      manager = {m->name, m->phone};
    }
  }
  if (manager.phone.empty()) return Status::success();
  auto sent = desk.send(
      step, id + "-manager", manager.phone, MessageClass::kEscalation, true,
      notGivenAtActText(desk.contextForPhone(manager.phone), desk.nameOf(offer.personId), w), c,
      c.shiftEnd);
  if (!sent) return sent.error();
  return Status::success();
}

}  // namespace

Result<std::optional<labor::PersonVerdict>> verdictNow(const DeskContext& desk, DeskStep& step,
                                                       const CalloutRow& callout,
                                                       const std::string& personId) {
  labor::ScheduleChange change{labor::AssignShift{personId, callout.shiftId}, true};
  auto verdict = desk.site().changes().evaluate(change, site::toInstant(step.now));
  if (!verdict) return verdict.error();
  const labor::PersonVerdict* mine = verdict->person(personId);
  if (mine == nullptr) return std::optional<labor::PersonVerdict>();
  return std::optional<labor::PersonVerdict>(*mine);
}

Result<bool> assignShift(const DeskContext& desk, DeskStep& step, CalloutRow& c, OfferRow& offer,
                         const labor::PersonVerdict& verdict, const policy::GateDecision& gate,
                         std::optional<std::int64_t> approvalId) {
  // At Act: the labor rules once more, against the schedule as stored now (act_check.h).
  auto atAct = actCheck(step.store.db(), desk.site(), offer.personId, c.shiftId);
  if (!atAct) return atAct.error();
  if (*atAct && (*atAct)->kind == labor::VerdictKind::kDenied) {
    if (Status s = notGivenAtAct(desk, step, c, offer, **atAct, !approvalId); !s) {
      return s.error();
    }
    return false;
  }
  if (Status s = desk.site().assign(step.store.db(), c.shiftId, offer.personId); !s) {
    return s.error();
  }
  offer.state = OfferState::kAccepted;
  offer.answeredAt = step.now;
  if (Status s = step.rows.updateOffer(offer); !s) return s.error();
  endCallout(c, CalloutState::kCovered, step.now);
  c.coveredBy = offer.personId;
  if (Status s = step.rows.updateCallout(c); !s) return s.error();
  // The gate gave it on its own: what follows verifies it (a manager's approval already counted).
  if (!approvalId && gate.executes()) {
    if (Status s = CoverVerifier::watch(step.store.db(), c, "shift.assign", step.now); !s) {
      return s.error();
    }
  }

  const ShiftWords w = desk.words(c.shiftId, step.now);
  CalloutReceipt receipt("callout-" + std::to_string(c.id) + "-assign", "shift.assign", step.now);
  receipt.source("org", "shift:" + c.shiftId, shiftLabel(w))
      .source("message", "offer:" + std::to_string(offer.id), "the reply that took the offer")
      .source("policy", "labor-rules", "the labor rules of the site's jurisdictions");
  if (approvalId) {
    receipt.source("decision", "approval:" + std::to_string(*approvalId), "the manager's approval");
  }
  receipt.labor(verdict.verdict.evaluations)
      .gate(gate)
      .field("callout", c.id)
      .field("person", offer.personId)
      .field("absent", c.absentId)
      .field("shift", c.shiftId)
      .field("premiumMinutes", verdict.verdict.premiumMinutes)
      .field("premiumCents", verdict.verdict.premiumCents);
  auto seq = signReceipt(step, receipt, c.id,
                         "The first person to take the offer who still passes every labor rule "
                         "at that moment gets the shift.",
                         "assigned");
  if (!seq) return seq.error();
  if (Status s = closeOffers(desk, step, c, offer.id, true); !s) return s.error();
  if (Status s = desk.tellLead(
          step, c, "covered",
          coveredText(desk.contextForPhone(c.reporterPhone), w, desk.nameOf(offer.personId)));
      !s) {
    return s.error();
  }
  if (c.escalatedAt) {
    const HumanContact gm = desk.generalManager();
    if (!gm.phone.empty() && gm.phone != c.reporterPhone) {
      auto sent =
          desk.send(step, "callout-" + std::to_string(c.id) + "-gm-covered", gm.phone,
                    MessageClass::kEscalation, true,
                    coveredText(desk.contextForPhone(gm.phone), w, desk.nameOf(offer.personId)), c,
                    std::nullopt);
      if (!sent) return sent.error();
    }
  }
  return true;
}

}  // namespace atoms::callout
