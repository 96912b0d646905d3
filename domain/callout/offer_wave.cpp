#include "domain/callout/offer_wave.h"

#include <algorithm>
#include <chrono>

#include "domain/callout/wave_candidates.h"
#include "sms/text/offer_code.h"

namespace atoms::callout {

using sms::MessageClass;
using sms::conversation::OutreachOutcome;

namespace {

constexpr auto kCodeMemory = std::chrono::days(7);
// An offer for a shift starting this soon is urgent (it passes quiet hours for people who opted
// in).
constexpr auto kUrgentWithin = std::chrono::hours(3);

}  // namespace

bool offersMayGo(const policy::GateDecision& d) {
  return d.executes() || d.outcome == policy::EffectiveOutcome::kHold;
}

Result<bool> laterWaveAllowed(CalloutStore& rows, const CalloutRow& c,
                              const policy::GateDecision& gate) {
  if (offersMayGo(gate)) return true;
  if (gate.outcome != policy::EffectiveOutcome::kQueueForApproval) return false;
  auto approvals = rows.approvalsFor(c.id);
  if (!approvals) return approvals.error();
  return std::any_of(approvals->begin(), approvals->end(), [](const ApprovalRow& a) {
    return a.kind == "callout.offer" && a.state == ApprovalState::kApproved;
  });
}

Result<int> sendWave(const DeskContext& desk, DeskStep& step, CalloutRow& c,
                     const policy::GateDecision& gate, bool first) {
  auto list = candidatesFor(desk, step, c);
  if (!list) return list.error();

  ++c.waves;
  const bool urgent = c.shiftStart - step.now < kUrgentWithin;
  const ShiftWords w = desk.words(c.shiftId, step.now);
  json::Array offeredJson;
  int offered = 0;
  CalloutReceipt receipt = offerReceipt(
      c, "callout-" + std::to_string(c.id) + "-wave-" + std::to_string(c.waves), step.now, w);
  for (const Candidate& cand : list->ranked) {
    if (offered >= desk.settings().waveSize) break;
    const site::Person* p = desk.site().index().person(cand.personId);
    auto avoid = step.rows.codesSince(p->id, step.now - kCodeMemory);
    if (!avoid) return avoid.error();
    auto code = sms::makeOfferCode(desk.random(), *avoid);
    if (!code) return code.error();
    OfferRow o;
    o.calloutId = c.id;
    o.personId = p->id;
    o.phone = p->phone;
    o.code = *code;
    o.wave = c.waves;
    o.rank = cand.rank;
    o.offeredAt = step.now;
    o.premiumMinutes = cand.premiumMinutes;
    o.premiumCents = cand.premiumCents;
    auto oid = step.rows.insertOffer(o);
    if (!oid) return oid.error();
    o.id = *oid;
    // WHY on the offer says why this person was asked, in words about them only (never the
    // others, never a ranking).
    sms::conversation::ReceiptSource why{
        "decision", "callout-" + std::to_string(c.id) + "-wave-" + std::to_string(c.waves),
        "you can work " + w.station + " and the labor rules allow this shift for you" +
            (cand.premium ? " (at premium pay, so a manager would OK it)" : "")};
    auto sent =
        desk.send(step, "callout-" + std::to_string(c.id) + "-offer-" + std::to_string(o.id),
                  p->phone, MessageClass::kOffer, urgent,
                  offerText(desk.contextFor(p->id), w, o.code), c, c.shiftEnd, std::move(why));
    if (!sent) return sent.error();
    if (sent->outcome == OutreachOutcome::kRefused ||
        sent->outcome == OutreachOutcome::kWithdrawn) {
      o.state = OfferState::kNotSent;
      if (Status s = step.rows.updateOffer(o); !s) return s.error();
      continue;
    }
    ++offered;
    json::Value facts = candidateJson(cand);
    facts.asObject()["outreach"] =
        std::string(sms::conversation::outreachOutcomeName(sent->outcome));
    offeredJson.push_back(std::move(facts));
    addVerdict(receipt, cand);
  }
  json::Array excluded;
  for (const Excluded& e : list->excluded) excluded.push_back(excludedJson(e));
  receipt.gate(gate)
      .field("callout", c.id)
      .field("wave", c.waves)
      .field("offered", std::move(offeredJson))
      .field("notOffered", std::move(excluded))
      .field("ranking", kRankingRule);
  auto seq = signReceipt(step, receipt, c.id,
                         first ? "First offers for a shift someone cannot work, to people the "
                                 "labor rules allow, in the order recorded."
                               : "Next offers: nobody has taken the shift yet.",
                         offered > 0 ? "offered" : "nobody_to_offer");
  if (!seq) return seq.error();
  c.nextWaveAt = step.now + desk.settings().waveInterval;
  return offered;
}

}  // namespace atoms::callout
