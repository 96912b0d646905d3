#include "domain/callout/wave_candidates.h"

#include <chrono>
#include <set>

#include "domain/site/time_zone.h"
#include "sms/conversation/conversation_tables.h"
#include "sms/conversation/offers_pause.h"

namespace atoms::callout {

namespace {

constexpr auto kFairnessWindow = std::chrono::days(14);
// Someone out of a shift starting this close to another is not offered that other one.
constexpr auto kOutWindow = std::chrono::hours(16);

}  // namespace

Result<CandidateList> candidatesFor(const DeskContext& desk, DeskStep& step, const CalloutRow& c) {
  const SiteSnapshot& site = desk.site();
  const site::Shift* shift = site.index().shift(c.shiftId);
  if (shift == nullptr) return makeError("callout " + std::to_string(c.id) + ": shift is gone");
  auto previous = step.rows.offers(c.id);
  if (!previous) return previous.error();
  std::set<std::string, std::less<>> offeredBefore;
  for (const OfferRow& o : *previous) offeredBefore.insert(o.personId);

  const bool quietNow = sms::inQuietHours(desk.outreach().settings().outreach,
                                          site.zone().toLocal(site::toInstant(step.now)));
  sms::conversation::ConversationTables tables(step.store.db());
  const sms::conversation::Roster& roster = desk.outreach().roster();
  auto reach = [&](const site::Person& p) -> Result<Reachability> {
    Reachability r;
    r.consent = p.smsConsent.granted;
    auto state = tables.contactState(p.phone);
    if (!state) return state.error();
    r.optedOut = state->optedOut;
    auto paused = sms::conversation::OffersPause(step.store.db()).pausedSince(p.phone);
    if (!paused) return paused.error();
    r.offersPaused = paused->has_value();
    r.quietNow = quietNow;
    if (auto contact = roster.findByPhone(p.phone)) r.urgentAtNight = contact->urgentAtNight;
    auto recent = step.rows.offersSince(p.id, step.now - kFairnessWindow);
    if (!recent) return recent.error();
    r.recentOffers = *recent;
    r.alreadyOffered = offeredBefore.count(p.id) > 0;
    auto out = step.rows.outBetween(p.id, c.shiftStart - kOutWindow, c.shiftStart + kOutWindow);
    if (!out) return out.error();
    r.outToday = *out;
    return r;
  };
  return findCandidates(site, *shift, c.absentId, site::toInstant(step.now), reach);
}

CalloutReceipt offerReceipt(const CalloutRow& c, const std::string& id, TimePoint now,
                            const ShiftWords& w) {
  CalloutReceipt receipt(id, "callout.offer", now);
  receipt.source("org", "shift:" + c.shiftId, shiftLabel(w))
      .source("org", "roster:" + c.stationId, "people who can work " + w.station)
      .source("policy", "labor-rules", "the labor rules of the site's jurisdictions");
  if (c.inboxId) receipt.source("message", "inbox:" + std::to_string(*c.inboxId), "the report");
  return receipt;
}

void addVerdict(CalloutReceipt& receipt, const Candidate& cand) {
  receipt.rule("labor.verdict", json::Object{{"person", cand.personId}},
               cand.premium ? "threshold_exceeded" : "pass",
               std::string("labor rules: ") +
                   std::string(labor::verdictKindName(cand.verdict.verdict.kind)));
}

}  // namespace atoms::callout
