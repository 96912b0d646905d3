#include "domain/callout/callout_report.h"

#include <string>

#include "domain/callout/approval_request.h"
#include "domain/callout/escalation.h"
#include "domain/callout/offer_wave.h"
#include "domain/callout/shadow_record.h"
#include "domain/site/time_zone.h"

namespace atoms::callout {

namespace {

TimePoint timePoint(site::Instant t) { return TimePoint(t.time_since_epoch()); }

// A kind check-in with the person who is out, for the people side: never a disciplinary record.
Status handOffCheckin(const DeskContext& desk, DeskStep& step, const CalloutRow& c) {
  const site::Person* absent = desk.site().index().person(c.absentId);
  const std::string checkinWith =
      absent != nullptr && absent->managerOfRecord ? *absent->managerOfRecord : std::string();
  const policy::GateDecision handoff = desk.ask(step, "handoff.checkin", true, c.absentId);
  return audit(
      step, "handoff.checkin",
      {{"callout", c.id},
       {"person", c.absentId},
       {"to", checkinWith.empty() ? json::Value("site contact") : json::Value(checkinWith)},
       {"note",
        "Check in kindly with them tomorrow about how things are; "
        "not a disciplinary record."},
       {"gate", handoff.toJson()}});
}

// An extra shift exists because a manager approved it (an intraday proposal, extra_shift.h): under
// PROPOSE that approval is the person's OK the offers wait for, so they go, unless the breaker of
// call-out offers is open (seed 001 EC-RISK-001: nothing is carried out while it is).
bool confirmedExtraShift(const DeskContext& desk, const CalloutRow& c,
                         const policy::GateDecision& offer) {
  if (c.origin != CalloutOrigin::kExtraShift ||
      offer.outcome != policy::EffectiveOutcome::kQueueForApproval) {
    return false;
  }
  policy::ProposedAction act;
  act.kind = "callout.offer";
  act.actor = "engine";
  return desk.gate(act).breaker.empty();
}

// The search itself, once the call-out is recorded: the gate's answer for callout.offer decides
// whether the first wave goes, waits for a manager, or a person is told instead.
Result<DeskAnswer> offerCallout(const DeskContext& desk, DeskStep& step, CalloutRow& c,
                                const ReplyContext& ctx, bool self) {
  const policy::GateDecision offer = desk.ask(step, "callout.offer", true, "");
  const ShiftWords w = desk.words(c.shiftId, step.now);
  int offered = 0;
  if (offersMayGo(offer) || confirmedExtraShift(desk, c, offer)) {
    auto sent = sendWave(desk, step, c, offer, true);
    if (!sent) return sent.error();
    offered = *sent;
  } else if (offer.outcome == policy::EffectiveOutcome::kQueueForApproval) {
    // PROPOSE: a manager says go before any offer leaves.
    OfferRow none;
    auto asked =
        requestApproval(desk, step, c, none, labor::PersonVerdict{}, "callout.offer", offer);
    if (!asked) return asked.error();
    if (Status s = step.rows.updateCallout(c); !s) return s.error();
    return DeskAnswer{"callout_awaiting_approval", asked->text, c.id};
  } else {
    if (offer.outcome == policy::EffectiveOutcome::kRecordOnly &&
        offer.graduation == policy::Graduation::kShadow) {
      // SHADOW: decided and recorded, not sent; a person covers it (told below) and the verdict
      // on the decision comes from who works the shift (ShadowJudge) or a manager.
      if (Status s = recordShadow(desk, step, c, offer); !s) return s.error();
    }
    if (Status s = escalate(desk, step, c, offer.describe()); !s) return s.error();
    if (Status s = step.rows.updateCallout(c); !s) return s.error();
    return DeskAnswer{"callout_not_offered",
                      nobodyEligibleText(ctx, w, escalatedTo(desk.generalManager())), c.id};
  }
  if (offered == 0) {
    if (Status s = escalate(desk, step, c, "nobody can take it now"); !s) return s.error();
    if (Status s = step.rows.updateCallout(c); !s) return s.error();
    return DeskAnswer{"callout_nobody_eligible",
                      nobodyEligibleText(ctx, w, escalatedTo(desk.generalManager())), c.id};
  }
  if (Status s = step.rows.updateCallout(c); !s) return s.error();
  if (offer.outcome == policy::EffectiveOutcome::kHold) {  // outreach frozen: the offers wait
    return DeskAnswer{"callout_held", heldSearchText(ctx, w, desk.nameOf(c.absentId), self), c.id};
  }
  return DeskAnswer{"callout_opened", searchingText(ctx, w, desk.nameOf(c.absentId), offered, self),
                    c.id};
}

}  // namespace

Result<DeskAnswer> openCallout(const DeskContext& desk, DeskStep& step,
                               const sms::conversation::Contact& reporter,
                               std::string_view absentId, CalloutOrigin origin) {
  const ReplyContext ctx = desk.contextFor(reporter.personId);
  const bool self = origin == CalloutOrigin::kSelf;
  const site::Shift* shift = desk.shiftOf(absentId, site::toInstant(step.now));
  if (shift == nullptr) {
    return DeskAnswer{"callout_no_shift",
                      noShiftFoundText(ctx, self ? "you" : desk.nameOf(absentId)), 0};
  }
  auto existing = step.rows.openCalloutForShift(shift->id);
  if (!existing) return existing.error();
  if (*existing) {
    return DeskAnswer{"callout_already_open",
                      alreadySearchingText(ctx, desk.words((*existing)->shiftId, step.now)),
                      (*existing)->id};
  }
  return openSearch(desk, step, reporter, *shift, absentId, origin);
}

Result<DeskAnswer> openSearch(const DeskContext& desk, DeskStep& step,
                              const sms::conversation::Contact& reporter, const site::Shift& shift,
                              std::string_view absentId, CalloutOrigin origin) {
  const ReplyContext ctx = desk.contextFor(reporter.personId);
  const bool self = origin == CalloutOrigin::kSelf;
  CalloutRow c;
  c.shiftId = shift.id;
  c.stationId = shift.stationId;
  c.absentId = std::string(absentId);
  c.reporterId = reporter.personId;
  c.reporterPhone = reporter.phone;
  c.origin = origin;
  c.inboxId = step.inboxId;
  c.openedAt = step.now;
  c.shiftStart = timePoint(shift.start.utc);
  c.shiftEnd = timePoint(shift.end.utc);
  c.escalateAt = step.now + desk.settings().escalateAfter;
  auto id = step.rows.insertCallout(c);
  if (!id) return id.error();
  c.id = *id;
  const policy::GateDecision record = desk.ask(step, "callout.record", true, absentId);
  if (Status s = audit(step, "callout.open",
                       {{"callout", c.id},
                        {"shift", c.shiftId},
                        {"station", c.stationId},
                        {"absent", c.absentId},
                        {"reporter", c.reporterId},
                        {"origin", calloutOriginName(origin)},
                        {"inbox", step.inboxId ? json::Value(*step.inboxId) : json::Value()},
                        {"gate", record.toJson()}});
      !s) {
    return s.error();
  }
  // An extra shift has nobody out, so nobody to check in with.
  if (!absentId.empty()) {
    if (Status s = handOffCheckin(desk, step, c); !s) return s.error();
  }
  return offerCallout(desk, step, c, ctx, self);
}

}  // namespace atoms::callout
