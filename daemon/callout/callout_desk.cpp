#include "daemon/callout/callout_desk.h"

#include <algorithm>
#include <set>
#include <utility>

#include "daemon/callout/act_check.h"
#include "daemon/callout/callout_receipt.h"
#include "daemon/callout/candidates.h"
#include "daemon/callout/cover_verifier.h"
#include "daemon/callout/shadow_book.h"
#include "sms/conversation/conversation_tables.h"
#include "sms/conversation/offers_pause.h"
#include "sms/mailbox/message_checks.h"
#include "store/audit_entry.h"

namespace atoms::callout {

using sms::MessageClass;
using sms::conversation::Contact;
using sms::conversation::HumanContact;
using sms::conversation::OutreachOutcome;
using sms::conversation::OutreachRequest;
using sms::conversation::OutreachResult;

namespace {

constexpr auto kFairnessWindow = std::chrono::days(14);
// Someone out of a shift starting this close to another is not offered that other one.
constexpr auto kOutWindow = std::chrono::hours(16);
constexpr auto kCodeMemory = std::chrono::days(7);
// An offer for a shift starting this soon is urgent (it passes quiet hours for people who opted
// in).
constexpr auto kUrgentWithin = std::chrono::hours(3);

TimePoint timePoint(site::Instant t) { return TimePoint(t.time_since_epoch()); }

constexpr char kRankingRule[] =
    "no premium first, then fewer offers in 14 days, then fewer hours this week, then person id";

// The receipt of a decision about whom to offer a call-out's shift to (a wave, or its shadow),
// with the sources every such decision stands on.
CalloutReceipt offerReceipt(const CalloutRow& c, const std::string& id, TimePoint now,
                            const ShiftWords& w) {
  CalloutReceipt receipt(id, "callout.offer", now);
  receipt.source("org", "shift:" + c.shiftId, shiftLabel(w))
      .source("org", "roster:" + c.stationId, "people who can work " + w.station)
      .source("policy", "labor-rules", "the labor rules of the site's jurisdictions");
  if (c.inboxId) receipt.source("message", "inbox:" + std::to_string(*c.inboxId), "the report");
  return receipt;
}

// The labor-rule verdict a candidate was offered (or would be offered) on.
void addVerdict(CalloutReceipt& receipt, const Candidate& cand) {
  receipt.rule("labor.verdict", json::Object{{"person", cand.personId}},
               cand.premium ? "threshold_exceeded" : "pass",
               std::string("labor rules: ") +
                   std::string(labor::verdictKindName(cand.verdict.verdict.kind)));
}

bool offersMayGo(const policy::GateDecision& d) {
  // Held offers are held by Outreach (the L1 freeze), never dropped: they may be queued.
  return d.executes() || d.outcome == policy::EffectiveOutcome::kHold;
}

}  // namespace

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

Status validateCalloutSettings(const CalloutSettings& s) {
  if (s.waveSize < 1 || s.waveSize > 50) return makeError("callout.wave_size must be 1..50");
  if (s.waveInterval < std::chrono::minutes(1) || s.waveInterval > std::chrono::minutes(120)) {
    return makeError("callout.wave_interval_minutes must be 1..120");
  }
  if (s.escalateAfter < std::chrono::minutes(1) || s.escalateAfter > std::chrono::minutes(240)) {
    return makeError("callout.escalate_after_minutes must be 1..240");
  }
  if (s.approvalExpiry < std::chrono::minutes(5) || s.approvalExpiry > std::chrono::minutes(1440)) {
    return makeError("callout.approval_expiry_minutes must be 5..1440");
  }
  if (s.lookahead < std::chrono::hours(1) || s.lookahead > std::chrono::hours(48)) {
    return makeError("callout.lookahead_hours must be 1..48");
  }
  return Status::success();
}

// One step of the flow: the open batch, the decision instant, the rows.
struct CalloutDesk::Step {
  Step(SiteStore& s, AuditLog::Batch& b, TimePoint t, std::optional<std::int64_t> inbox)
      : store(s), batch(b), now(t), inboxId(inbox), rows(s.db()) {}
  explicit Step(DeskTurn& turn) : Step(turn.store, turn.batch, turn.now, turn.inboxId) {}

  SiteStore& store;
  AuditLog::Batch& batch;
  TimePoint now;
  std::optional<std::int64_t> inboxId;
  CalloutStore rows;
};

CalloutDesk::CalloutDesk(SiteSnapshot& site, sms::conversation::Outreach& outreach,
                         atoms::StoreRunner& store, CalloutSettings settings, GateFunction gate,
                         sms::RandomSource random)
    : site_(site),
      outreach_(outreach),
      store_(store),
      settings_(std::move(settings)),
      gate_(std::move(gate)),
      random_(std::move(random)) {}

// ---- lookups and texts ----

std::string CalloutDesk::nameOf(std::string_view personId) const {
  const site::Person* p = site_.index().person(personId);
  if (p == nullptr) return std::string(personId);
  // First name only: enough on a small site, and less of a person's data in every text.
  const std::size_t space = p->name.find(' ');
  return space == std::string::npos ? p->name : p->name.substr(0, space);
}

ReplyContext CalloutDesk::contextFor(std::string_view personId) const {
  const sms::conversation::Roster& roster = outreach_.roster();
  ReplyContext c;
  c.site = roster.siteName();
  c.human = roster.humanContact(personId);
  c.language = outreach_.settings().defaultLanguage;
  if (const site::Person* p = site_.index().person(personId)) {
    if (auto contact = roster.findByPhone(p->phone)) {
      c.language = sms::conversation::replyLanguage({}, &*contact, c.language);
    }
  }
  return c;
}

ReplyContext CalloutDesk::contextForPhone(const std::string& phone) const {
  auto contact = outreach_.roster().findByPhone(phone);
  return contextFor(contact ? std::string_view(contact->personId) : std::string_view());
}

HumanContact CalloutDesk::generalManager() const {
  if (!settings_.generalManager.empty()) {
    if (const site::Person* p = site_.index().person(settings_.generalManager)) {
      return {p->name, p->phone};
    }
  }
  return outreach_.roster().humanContact("");
}

ShiftWords CalloutDesk::words(std::string_view shiftId, TimePoint now) const {
  ShiftWords w;
  const site::Shift* shift = site_.index().shift(shiftId);
  if (shift == nullptr) return w;
  const site::Station* station = site_.index().station(shift->stationId);
  w.station = station != nullptr ? station->name : shift->stationId;
  w.day = std::chrono::floor<std::chrono::days>(shift->start.local);
  w.today =
      w.day == std::chrono::floor<std::chrono::days>(site_.zone().toLocal(site::toInstant(now)));
  w.hours = sms::hhmm(sms::minuteOfDay(shift->start.local)) + "-" +
            sms::hhmm(sms::minuteOfDay(shift->end.local));
  return w;
}

const site::Shift* CalloutDesk::shiftOf(std::string_view personId, site::Instant now) const {
  const site::Shift* best = nullptr;
  for (const site::Shift& s : site_.model().shifts) {
    if (!s.assignee || *s.assignee != personId || s.end.utc <= now) continue;
    if (s.start.utc > now + settings_.lookahead) continue;
    if (best == nullptr || s.start.utc < best->start.utc) best = &s;
  }
  return best;
}

policy::GateDecision CalloutDesk::ask(Step& step, std::string_view kind, bool automated,
                                      std::string_view subject) {
  policy::ProposedAction action;
  action.kind = std::string(kind);
  action.actor = automated ? "engine" : "person";
  action.automated = automated;
  action.subject = std::string(subject);
  if (automated && feedback_.decision) feedback_.decision(step.batch, step.now, action);
  return gate_(action);
}

Status CalloutDesk::audit(Step& step, std::string_view kind, json::Object body) {
  auto added =
      step.batch.add(formatTimestamp(step.now), kind, "engine", json::Value(std::move(body)));
  if (!added) return added.error();
  return Status::success();
}

Result<OutreachResult> CalloutDesk::send(Step& step, const std::string& id, const std::string& to,
                                         MessageClass kind, bool urgent, const std::string& body,
                                         const CalloutRow& callout,
                                         std::optional<TimePoint> notAfter,
                                         std::optional<sms::conversation::ReceiptSource> why) {
  OutreachRequest request;
  request.id = id;
  request.to = to;
  request.kind = kind;
  request.urgent = urgent;
  request.body = body;
  request.ref = "callout-" + std::to_string(callout.id);
  request.notAfter = notAfter;
  const ShiftWords w = words(callout.shiftId, step.now);
  request.sources = {
      {"org", "shift:" + callout.shiftId, shiftLabel(w)},
      {"decision", request.ref, "call-out " + std::to_string(callout.id) + ": cover needed"}};
  if (why) request.sources.push_back(std::move(*why));
  return outreach_.sendIn(step.store, step.batch, request);
}

Status CalloutDesk::tellLead(Step& step, const CalloutRow& callout, std::string_view what,
                             const std::string& text) {
  if (callout.reporterPhone.empty()) return Status::success();
  auto sent =
      send(step, "callout-" + std::to_string(callout.id) + "-lead-" + std::string(what),
           callout.reporterPhone, MessageClass::kThreadReply, true, text, callout, std::nullopt);
  if (!sent) return sent.error();
  return Status::success();
}

// ---- opening a call-out ----

Result<DeskAnswer> CalloutDesk::reportIn(DeskTurn& turn, const Contact& reporter,
                                         std::string_view absentId, CalloutOrigin origin) {
  Step step(turn);
  const ReplyContext ctx = contextFor(reporter.personId);
  const bool self = origin == CalloutOrigin::kSelf;
  const site::Shift* shift = shiftOf(absentId, site::toInstant(turn.now));
  if (shift == nullptr) {
    return DeskAnswer{"callout_no_shift", noShiftFoundText(ctx, self ? "you" : nameOf(absentId)),
                      0};
  }
  auto existing = step.rows.openCalloutForShift(shift->id);
  if (!existing) return existing.error();
  if (*existing) {
    return DeskAnswer{"callout_already_open",
                      alreadySearchingText(ctx, words((*existing)->shiftId, turn.now)),
                      (*existing)->id};
  }

  CalloutRow c;
  c.shiftId = shift->id;
  c.stationId = shift->stationId;
  c.absentId = std::string(absentId);
  c.reporterId = reporter.personId;
  c.reporterPhone = reporter.phone;
  c.origin = origin;
  c.inboxId = turn.inboxId;
  c.openedAt = turn.now;
  c.shiftStart = timePoint(shift->start.utc);
  c.shiftEnd = timePoint(shift->end.utc);
  c.escalateAt = turn.now + settings_.escalateAfter;
  auto id = step.rows.insertCallout(c);
  if (!id) return id.error();
  c.id = *id;
  const policy::GateDecision record = ask(step, "callout.record", true, absentId);
  if (Status s = audit(step, "callout.open",
                       {{"callout", c.id},
                        {"shift", c.shiftId},
                        {"station", c.stationId},
                        {"absent", c.absentId},
                        {"reporter", c.reporterId},
                        {"origin", calloutOriginName(origin)},
                        {"inbox", turn.inboxId ? json::Value(*turn.inboxId) : json::Value()},
                        {"gate", record.toJson()}});
      !s) {
    return s.error();
  }
  // A kind check-in with the person who is out, for the people side: never a disciplinary record.
  const site::Person* absent = site_.index().person(absentId);
  const std::string checkinWith =
      absent != nullptr && absent->managerOfRecord ? *absent->managerOfRecord : std::string();
  const policy::GateDecision handoff = ask(step, "handoff.checkin", true, absentId);
  if (Status s = audit(
          step, "handoff.checkin",
          {{"callout", c.id},
           {"person", c.absentId},
           {"to", checkinWith.empty() ? json::Value("site contact") : json::Value(checkinWith)},
           {"note",
            "Check in kindly with them tomorrow about how things are; "
            "not a disciplinary record."},
           {"gate", handoff.toJson()}});
      !s) {
    return s.error();
  }

  const policy::GateDecision offer = ask(step, "callout.offer", true, "");
  const ShiftWords w = words(c.shiftId, turn.now);
  int offered = 0;
  if (offersMayGo(offer)) {
    auto sent = sendWave(step, c, offer, true);
    if (!sent) return sent.error();
    offered = *sent;
  } else if (offer.outcome == policy::EffectiveOutcome::kQueueForApproval) {
    // PROPOSE: a manager says go before any offer leaves.
    OfferRow none;
    auto asked = requestApproval(step, c, none, labor::PersonVerdict{}, "callout.offer", offer);
    if (!asked) return asked.error();
    if (Status s = step.rows.updateCallout(c); !s) return s.error();
    return DeskAnswer{"callout_awaiting_approval", asked->text, c.id};
  } else {
    if (offer.outcome == policy::EffectiveOutcome::kRecordOnly &&
        offer.graduation == policy::Graduation::kShadow) {
      // SHADOW: decided and recorded, not sent; a person covers it (told below) and the verdict
      // on the decision comes from who works the shift (ShadowJudge) or a manager.
      if (Status s = recordShadow(step, c, offer); !s) return s.error();
    }
    if (Status s = escalate(step, c, offer.describe()); !s) return s.error();
    if (Status s = step.rows.updateCallout(c); !s) return s.error();
    return DeskAnswer{"callout_not_offered", nobodyEligibleText(ctx, w, generalManager().name),
                      c.id};
  }
  if (offered == 0) {
    if (Status s = escalate(step, c, "nobody can take it now"); !s) return s.error();
    if (Status s = step.rows.updateCallout(c); !s) return s.error();
    return DeskAnswer{"callout_nobody_eligible", nobodyEligibleText(ctx, w, generalManager().name),
                      c.id};
  }
  if (Status s = step.rows.updateCallout(c); !s) return s.error();
  if (offer.outcome == policy::EffectiveOutcome::kHold) {  // outreach frozen: the offers wait
    return DeskAnswer{"callout_held", heldSearchText(ctx, w, nameOf(absentId), self), c.id};
  }
  return DeskAnswer{"callout_opened", searchingText(ctx, w, nameOf(absentId), offered, self), c.id};
}

Result<bool> CalloutDesk::laterWaveAllowed(Step& step, const CalloutRow& c,
                                           const policy::GateDecision& gate) {
  if (offersMayGo(gate)) return true;
  if (gate.outcome != policy::EffectiveOutcome::kQueueForApproval) return false;
  // PROPOSE: the manager's APPROVE of this call-out's offers covers its later waves too.
  auto approvals = step.rows.approvalsFor(c.id);
  if (!approvals) return approvals.error();
  return std::any_of(approvals->begin(), approvals->end(), [](const ApprovalRow& a) {
    return a.kind == "callout.offer" && a.state == ApprovalState::kApproved;
  });
}

Result<CandidateList> CalloutDesk::candidatesFor(Step& step, const CalloutRow& c) {
  const site::Shift* shift = site_.index().shift(c.shiftId);
  if (shift == nullptr) return makeError("callout " + std::to_string(c.id) + ": shift is gone");
  auto previous = step.rows.offers(c.id);
  if (!previous) return previous.error();
  std::set<std::string, std::less<>> offeredBefore;
  for (const OfferRow& o : *previous) offeredBefore.insert(o.personId);

  const bool quietNow = sms::inQuietHours(outreach_.settings().outreach,
                                          site_.zone().toLocal(site::toInstant(step.now)));
  sms::conversation::ConversationTables tables(step.store.db());
  const sms::conversation::Roster& roster = outreach_.roster();
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
  return findCandidates(site_, *shift, c.absentId, site::toInstant(step.now), reach);
}

Status CalloutDesk::recordShadow(Step& step, const CalloutRow& c,
                                 const policy::GateDecision& gate) {
  auto list = candidatesFor(step, c);
  if (!list) return list.error();
  const ShiftWords w = words(c.shiftId, step.now);
  ShadowRow row;
  row.calloutId = c.id;
  row.shiftId = c.shiftId;
  row.absentId = c.absentId;
  row.decidedAt = step.now;
  row.shiftStart = c.shiftStart;
  json::Array first;
  json::Array eligible;
  for (const Candidate& cand : list->ranked) {
    row.eligible.push_back(cand.personId);
    eligible.push_back(candidateJson(cand));
    if (static_cast<int>(first.size()) < settings_.waveSize) first.push_back(cand.personId);
  }
  json::Array ruledOut;
  for (const Excluded& e : list->excluded) ruledOut.push_back(excludedJson(e));
  row.ruledOut = ruledOut;
  CalloutReceipt receipt =
      offerReceipt(c, "callout-" + std::to_string(c.id) + "-shadow", step.now, w);
  for (const Candidate& cand : list->ranked) addVerdict(receipt, cand);
  receipt.gate(gate)
      .field("callout", c.id)
      .field("shadow", true)
      .field("wouldOfferFirst", std::move(first))
      .field("eligible", std::move(eligible))
      .field("notOffered", std::move(ruledOut))
      .field("ranking", kRankingRule);
  auto seq = receipt.addTo(step.batch,
                           "Shadow decision: whom the box would offer the shift to, in order, and "
                           "whom the labor rules or reachability rule out; nothing was sent.",
                           row.eligible.empty() ? "nobody_to_offer" : "recorded_not_sent");
  if (!seq) return seq.error();
  row.receiptSeq = static_cast<std::int64_t>(*seq);
  return ShadowBook(step.store.db()).insert(row);
}

Result<int> CalloutDesk::sendWave(Step& step, CalloutRow& c, const policy::GateDecision& gate,
                                  bool first) {
  auto list = candidatesFor(step, c);
  if (!list) return list.error();

  ++c.waves;
  const bool urgent = c.shiftStart - step.now < kUrgentWithin;
  const ShiftWords w = words(c.shiftId, step.now);
  json::Array offeredJson;
  int offered = 0;
  CalloutReceipt receipt = offerReceipt(
      c, "callout-" + std::to_string(c.id) + "-wave-" + std::to_string(c.waves), step.now, w);
  for (const Candidate& cand : list->ranked) {
    if (offered >= settings_.waveSize) break;
    const site::Person* p = site_.index().person(cand.personId);
    auto avoid = step.rows.codesSince(p->id, step.now - kCodeMemory);
    if (!avoid) return avoid.error();
    auto code = sms::makeOfferCode(random_, *avoid);
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
    auto sent = send(step, "callout-" + std::to_string(c.id) + "-offer-" + std::to_string(o.id),
                     p->phone, MessageClass::kOffer, urgent,
                     offerText(contextFor(p->id), w, o.code), c, c.shiftEnd, std::move(why));
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
  auto seq = receipt.addTo(step.batch,
                           first ? "First offers for a shift someone cannot work, to people the "
                                   "labor rules allow, in the order recorded."
                                 : "Next offers: nobody has taken the shift yet.",
                           offered > 0 ? "offered" : "nobody_to_offer");
  if (!seq) return seq.error();
  c.nextWaveAt = step.now + settings_.waveInterval;
  return offered;
}

// ---- replies to offers ----

Result<std::vector<std::string>> CalloutDesk::liveCodes(SiteStore& store,
                                                        std::string_view personId) {
  CalloutStore rows(store.db());
  auto live = rows.liveOffersTo(personId);
  if (!live) return live.error();
  std::vector<std::string> codes;
  for (const OfferRow& o : *live) codes.push_back(o.code);
  return codes;
}

Result<std::optional<labor::PersonVerdict>> CalloutDesk::recheck(Step& step,
                                                                 const CalloutRow& callout,
                                                                 const std::string& personId) {
  labor::ScheduleChange change{labor::AssignShift{personId, callout.shiftId}, true};
  auto verdict = site_.changes().evaluate(change, site::toInstant(step.now));
  if (!verdict) return verdict.error();
  const labor::PersonVerdict* mine = verdict->person(personId);
  if (mine == nullptr) return std::optional<labor::PersonVerdict>();
  return std::optional<labor::PersonVerdict>(*mine);
}

Result<DeskAnswer> CalloutDesk::takeIn(DeskTurn& turn, const Contact& person,
                                       std::string_view code) {
  Step step(turn);
  const ReplyContext ctx = contextFor(person.personId);
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
  offer.answeredAt = turn.now;
  if (c.state != CalloutState::kOpen) {
    offer.state = OfferState::kClosed;
    if (Status s = step.rows.updateOffer(offer); !s) return s.error();
    return DeskAnswer{"offer_too_late", alreadyCoveredText(ctx), c.id};
  }
  // Everything again, at this instant: hours may have changed since the offer went out.
  auto verdict = recheck(step, c, person.personId);
  if (!verdict) return verdict.error();
  if (!*verdict || (*verdict)->verdict.kind == labor::VerdictKind::kDenied) {
    offer.state = OfferState::kClosed;
    if (Status s = step.rows.updateOffer(offer); !s) return s.error();
    CalloutReceipt receipt(
        "callout-" + std::to_string(c.id) + "-refuse-" + std::to_string(offer.id), "shift.assign",
        turn.now);
    receipt.source("org", "shift:" + c.shiftId, "the shift")
        .source("policy", "labor-rules", "the labor rules of the site's jurisdictions");
    if (*verdict) receipt.labor((*verdict)->verdict.evaluations);
    receipt.field("callout", c.id).field("person", person.personId);
    auto seq = receipt.addTo(
        step.batch, "Not given: a labor rule denies it at the moment of the reply.", "denied");
    if (!seq) return seq.error();
    return DeskAnswer{"offer_denied_on_recheck", cannotTakeText(ctx), c.id};
  }
  const labor::PersonVerdict& v = **verdict;
  const bool premium = v.verdict.kind == labor::VerdictKind::kAllowedWithPremium ||
                       v.verdict.premiumMinutes > 0 || v.verdict.premiumCents > 0;
  if (premium) {
    auto asked = requestApproval(step, c, offer, v, "overtime.approve", std::nullopt);
    if (!asked) return asked.error();
    return *asked;
  }
  const policy::GateDecision gate = ask(step, "shift.assign", true, person.personId);
  if (!gate.executes()) {
    auto asked = requestApproval(step, c, offer, v, "shift.assign", gate);
    if (!asked) return asked.error();
    return *asked;
  }
  auto done = assign(step, c, offer, v, gate, std::nullopt);
  if (!done) return done.error();
  if (!*done) return DeskAnswer{"offer_not_given_at_act", managerWillConfirmText(ctx), c.id};
  return DeskAnswer{"offer_taken", youAreOnText(ctx, words(c.shiftId, turn.now)), c.id};
}

Result<DeskAnswer> CalloutDesk::declineIn(DeskTurn& turn, const Contact& person,
                                          std::string_view code) {
  Step step(turn);
  const ReplyContext ctx = contextFor(person.personId);
  auto live = step.rows.liveOffersTo(person.personId);
  if (!live) return live.error();
  for (OfferRow offer : *live) {
    if (offer.code != code) continue;
    offer.state = OfferState::kDeclined;
    offer.answeredAt = turn.now;
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
      a.decidedAt = turn.now;
      if (Status s = step.rows.updateApproval(a); !s) return s.error();
    }
    return DeskAnswer{"offer_declined", declinedText(ctx), offer.calloutId};
  }
  return DeskAnswer{"offer_closed", declinedText(ctx), 0};
}

Result<bool> CalloutDesk::assign(Step& step, CalloutRow& c, OfferRow& offer,
                                 const labor::PersonVerdict& verdict,
                                 const policy::GateDecision& gate,
                                 std::optional<std::int64_t> approvalId) {
  // At Act: the labor rules once more, against the schedule as stored now (act_check.h).
  auto atAct = actCheck(step.store.db(), site_, offer.personId, c.shiftId);
  if (!atAct) return atAct.error();
  if (*atAct && (*atAct)->kind == labor::VerdictKind::kDenied) {
    if (Status s = notGivenAtAct(step, c, offer, **atAct, !approvalId); !s) return s.error();
    return false;
  }
  if (Status s = site_.assign(step.store.db(), c.shiftId, offer.personId); !s) return s.error();
  offer.state = OfferState::kAccepted;
  offer.answeredAt = step.now;
  if (Status s = step.rows.updateOffer(offer); !s) return s.error();
  c.state = CalloutState::kCovered;
  c.coveredBy = offer.personId;
  c.closedAt = step.now;
  c.nextWaveAt.reset();
  c.escalateAt.reset();
  if (Status s = step.rows.updateCallout(c); !s) return s.error();
  // The gate gave it on its own: what follows verifies it (a manager's approval already counted).
  if (!approvalId && gate.executes()) {
    if (Status s = CoverVerifier::watch(step.store.db(), c, "shift.assign", step.now); !s) {
      return s.error();
    }
  }

  const ShiftWords w = words(c.shiftId, step.now);
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
  auto seq = receipt.addTo(step.batch,
                           "The first person to take the offer who still passes every labor rule "
                           "at that moment gets the shift.",
                           "assigned");
  if (!seq) return seq.error();
  if (Status s = closeOffers(step, c, offer.id, true); !s) return s.error();
  if (Status s = tellLead(step, c, "covered",
                          coveredText(contextForPhone(c.reporterPhone), w, nameOf(offer.personId)));
      !s) {
    return s.error();
  }
  if (c.escalatedAt) {
    const HumanContact gm = generalManager();
    if (!gm.phone.empty() && gm.phone != c.reporterPhone) {
      auto sent =
          send(step, "callout-" + std::to_string(c.id) + "-gm-covered", gm.phone,
               MessageClass::kEscalation, true,
               coveredText(contextForPhone(gm.phone), w, nameOf(offer.personId)), c, std::nullopt);
      if (!sent) return sent.error();
    }
  }
  return true;
}

Status CalloutDesk::notGivenAtAct(Step& step, const CalloutRow& c, OfferRow& offer,
                                  const labor::Verdict& verdict, bool tellManager) {
  offer.state = OfferState::kClosed;
  offer.answeredAt = step.now;
  if (Status s = step.rows.updateOffer(offer); !s) return s.error();
  const std::string id = "callout-" + std::to_string(c.id) + "-act-" + std::to_string(offer.id);
  const ShiftWords w = words(c.shiftId, step.now);
  CalloutReceipt receipt(id, "shift.assign", step.now);
  receipt.source("org", "shift:" + c.shiftId, shiftLabel(w))
      .source("service", "site_shift:" + offer.personId, "the person's shifts as stored at Act")
      .source("policy", "labor-rules", "the labor rules of the site's jurisdictions")
      .labor(verdict.evaluations)
      .field("callout", c.id)
      .field("person", offer.personId)
      .field("breaker", "BRK-SCH");
  auto seq = receipt.addTo(step.batch,
                           "Not given: at the moment of writing it, the schedule as stored breaks "
                           "a labor rule the decision did not see; BRK-SCH is told.",
                           "not_given_at_act");
  if (!seq) return seq.error();
  if (violationAtAct_) violationAtAct_(step.batch, step.now, id);
  if (!tellManager) return Status::success();
  const site::Person* person = site_.index().person(offer.personId);
  HumanContact manager = generalManager();
  if (person != nullptr && person->managerOfRecord && *person->managerOfRecord != offer.personId) {
    if (const site::Person* m = site_.index().person(*person->managerOfRecord);
        m != nullptr && !m->phone.empty()) {
      manager = {m->name, m->phone};
    }
  }
  if (manager.phone.empty()) return Status::success();
  auto sent = send(step, id + "-manager", manager.phone, MessageClass::kEscalation, true,
                   notGivenAtActText(contextForPhone(manager.phone), nameOf(offer.personId), w), c,
                   c.shiftEnd);
  if (!sent) return sent.error();
  return Status::success();
}

Status CalloutDesk::closeOffers(Step& step, CalloutRow& c, std::int64_t exceptOffer, bool tell) {
  auto offers = step.rows.offers(c.id);
  if (!offers) return offers.error();
  const ShiftWords w = words(c.shiftId, step.now);
  for (OfferRow o : *offers) {
    if (o.id == exceptOffer) continue;
    if (o.state != OfferState::kOpen && o.state != OfferState::kAwaitingApproval) continue;
    const bool waiting = o.state == OfferState::kAwaitingApproval;
    o.state = OfferState::kClosed;
    if (Status s = step.rows.updateOffer(o); !s) return s.error();
    if (!tell) continue;
    const ReplyContext ctx = contextFor(o.personId);
    const std::string text = c.state == CalloutState::kCovered ? coveredNoLongerNeededText(ctx, w)
                                                               : noLongerNeededText(ctx, w);
    auto sent = send(step, "callout-" + std::to_string(c.id) + "-closed-" + std::to_string(o.id),
                     o.phone, waiting ? MessageClass::kThreadReply : MessageClass::kNotice, false,
                     text, c, c.shiftEnd);
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

// ---- approvals ----

Result<DeskAnswer> CalloutDesk::requestApproval(Step& step, CalloutRow& c, OfferRow& offer,
                                                const labor::PersonVerdict& verdict,
                                                std::string kind,
                                                std::optional<policy::GateDecision> gate) {
  const bool forOffers = kind == "callout.offer";
  const std::string subject = forOffers ? c.absentId : offer.personId;
  const site::Person* person = site_.index().person(subject);
  // The manager of record of the person it is about decides; never that person themselves.
  std::string approverId;
  HumanContact approver;
  if (!forOffers && person != nullptr && person->managerOfRecord &&
      *person->managerOfRecord != subject) {
    approverId = *person->managerOfRecord;
    if (const site::Person* m = site_.index().person(approverId)) approver = {m->name, m->phone};
  }
  if (approver.phone.empty()) {
    approver = generalManager();
    approverId = settings_.generalManager;
    if (approverId.empty()) {
      if (auto contact = outreach_.roster().findByPhone(approver.phone)) {
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
  a.expiresAt = std::min(step.now + settings_.approvalExpiry, c.shiftEnd);
  const ShiftWords w = words(c.shiftId, step.now);
  a.summary = forOffers ? "offers for the " + shiftLabel(w)
                        : nameOf(subject) + " to cover the " + shiftLabel(w);
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
      .gate(gate ? *gate : ask(step, kind, true, subject))
      .field("approval", a.id)
      .field("callout", c.id)
      .field("person", subject)
      .field("approver", approverId)
      .field("premiumMinutes", verdict.verdict.premiumMinutes)
      .field("premiumCents", verdict.verdict.premiumCents);
  if (approver.phone.empty()) receipt.gap("no manager of record or site contact with a phone");
  auto seq = receipt.addTo(step.batch,
                           "Waits for the manager of record: nothing runs before an "
                           "approval.",
                           "queued_for_approval");
  if (!seq) return seq.error();
  a.receiptSeq = *seq;  // the evidence the approvals API shows
  if (Status s = step.rows.updateApproval(a); !s) return s.error();
  if (!approver.phone.empty()) {
    const ReplyContext actx = contextForPhone(approver.phone);
    const std::string text =
        forOffers
            ? offersApprovalRequestText(actx, a.id, nameOf(c.absentId), w)
            : approvalRequestText(actx, a.id, nameOf(subject), w, verdict.verdict.premiumMinutes,
                                  verdict.verdict.premiumCents);
    auto sent = send(step, "approval-" + std::to_string(a.id) + "-request", approver.phone,
                     MessageClass::kEscalation, true, text, c, a.expiresAt);
    if (!sent) return sent.error();
  }
  const std::string managerName = approver.name.empty() ? "your manager" : approver.name;
  if (forOffers) {
    return DeskAnswer{"callout_awaiting_approval",
                      offersWaitingApprovalText(contextForPhone(c.reporterPhone), w, managerName),
                      c.id};
  }
  return DeskAnswer{"offer_awaiting_approval",
                    waitingApprovalText(contextFor(subject), managerName), c.id};
}

Result<DeskAnswer> CalloutDesk::decideIn(DeskTurn& turn, const Contact& sender,
                                         std::string_view reference, bool approve,
                                         std::string_view remark) {
  if (reference.empty() || reference.size() > 12 ||
      !std::all_of(reference.begin(), reference.end(),
                   [](char ch) { return ch >= '0' && ch <= '9'; })) {
    return DeskAnswer{"approval_which", approvalWhichText(contextFor(sender.personId)), 0};
  }
  auto decided = decideAs(turn, Decider{sender.personId, sender.phone, "sms"},
                          std::stoll(std::string(reference)),
                          ApprovalAnswer{approve, std::string(remark), std::nullopt});
  if (!decided) return decided.error();
  return std::move(decided->answer);
}

Result<Decision> CalloutDesk::decideAs(DeskTurn& turn, const Decider& who, std::int64_t approvalId,
                                       const ApprovalAnswer& answer) {
  const bool approve = answer.approve;
  Step step(turn);
  const ReplyContext ctx = contextFor(who.personId);
  auto found = step.rows.approval(approvalId);
  if (!found) return found.error();
  if (!*found) {
    return Decision{DecisionOutcome::kUnknown,
                    {"approval_closed", approvalClosedText(ctx, approvalId), 0}};
  }
  ApprovalRow a = **found;
  if (a.state == ApprovalState::kPending && a.expiresAt <= turn.now) {
    // Lapsed, and the timer has not got to it yet: it is closed all the same.
    if (Status s = expireApproval(step, a); !s) return s.error();
  }
  if (a.state != ApprovalState::kPending) {
    return Decision{DecisionOutcome::kClosed,
                    {"approval_closed", approvalClosedText(ctx, a.id), 0}};
  }
  auto refuse = [&](DecisionOutcome outcome, std::string_view reason, std::string text,
                    json::Value gate = json::Value()) -> Result<Decision> {
    if (Status s =
            audit(step, "approval.refused",
                  {{"approval", a.id},
                   {"reason", reason},
                   {"via", who.via},
                   {"from", who.phone.empty() ? json::Value()
                                              : json::Value(sms::mailbox::maskNumber(who.phone))},
                   {"person", who.personId},
                   {"inbox", turn.inboxId ? json::Value(*turn.inboxId) : json::Value()},
                   {"gate", std::move(gate)}});
        !s) {
      return s.error();
    }
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
  const policy::GateDecision gate = ask(step, a.kind, false, a.subjectId);
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
    const policy::GateDecision atAct = gate_(act);
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
  a.decidedAt = turn.now;
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
  if (feedback_.proposal) {
    feedback_.proposal(step.batch, turn.now, a.kind, approve,
                       approve ? std::nullopt : answer.overrideReason,
                       "approval-" + std::to_string(a.id));
  }
  const DecisionOutcome recorded = approve ? DecisionOutcome::kApproved : DecisionOutcome::kDenied;
  std::string text = approvalRecordedText(ctx, a.id, approve);
  if (a.kind == "callout.offer") {
    if (approve && c.state == CalloutState::kOpen) {
      auto sent = sendWave(step, c, gate, true);
      if (!sent) return sent.error();
      if (*sent == 0) {
        if (Status s = escalate(step, c, "nobody can take it now"); !s) return s.error();
      }
    } else if (!approve && c.state == CalloutState::kOpen) {
      c.state = CalloutState::kWithdrawn;
      c.closedAt = turn.now;
      c.nextWaveAt.reset();
      c.escalateAt.reset();
      // The lead is still short-handed: they hear it from the box, not by silence.
      if (Status s =
              tellLead(step, c, "offers-denied",
                       offersNotApprovedText(contextForPhone(c.reporterPhone),
                                             words(c.shiftId, turn.now), nameOf(a.approverId)));
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
  const ReplyContext pctx = contextFor(offer.personId);
  const ShiftWords w = words(c.shiftId, turn.now);
  if (!approve || c.state != CalloutState::kOpen) {
    offer.state = OfferState::kClosed;
    if (Status s = step.rows.updateOffer(offer); !s) return s.error();
    auto sent =
        send(step, "approval-" + std::to_string(a.id) + "-outcome", offer.phone,
             MessageClass::kThreadReply, false,
             c.state == CalloutState::kOpen ? notApprovedText(pctx) : alreadyCoveredText(pctx), c,
             c.shiftEnd);
    if (!sent) return sent.error();
    if (!approve) return Decision{recorded, {"approval_denied", text, c.id}};
    return Decision{DecisionOutcome::kApprovedTooLate,
                    {"approval_too_late", approvalClosedText(ctx, a.id), c.id}};
  }
  auto verdict = recheck(step, c, offer.personId);
  if (!verdict) return verdict.error();
  if (!*verdict || (*verdict)->verdict.kind == labor::VerdictKind::kDenied) {
    offer.state = OfferState::kClosed;
    if (Status s = step.rows.updateOffer(offer); !s) return s.error();
    auto sent = send(step, "approval-" + std::to_string(a.id) + "-outcome", offer.phone,
                     MessageClass::kThreadReply, false, cannotTakeText(pctx), c, c.shiftEnd);
    if (!sent) return sent.error();
    return Decision{DecisionOutcome::kApprovedDeniedOnRecheck,
                    {"approval_denied_on_recheck",
                     approvedButNotAllowedText(ctx, nameOf(offer.personId)), c.id}};
  }
  auto done = assign(step, c, offer, **verdict, gate, a.id);
  if (!done) return done.error();
  if (!*done) {
    auto sent = send(step, "approval-" + std::to_string(a.id) + "-outcome", offer.phone,
                     MessageClass::kThreadReply, false, cannotTakeText(pctx), c, c.shiftEnd);
    if (!sent) return sent.error();
    return Decision{DecisionOutcome::kApprovedDeniedOnRecheck,
                    {"approval_not_given_at_act",
                     approvedButNotAllowedText(ctx, nameOf(offer.personId)), c.id}};
  }
  auto sent = send(step, "approval-" + std::to_string(a.id) + "-outcome", offer.phone,
                   MessageClass::kThreadReply, true, approvedText(pctx, w), c, c.shiftEnd);
  if (!sent) return sent.error();
  return Decision{recorded, {"approval_approved", text, c.id}};
}

// ---- the absent person turns up, running late ----

Result<DeskAnswer> CalloutDesk::arrivedIn(DeskTurn& turn, const Contact& person) {
  Step step(turn);
  const ReplyContext ctx = contextFor(person.personId);
  const std::string human = sms::conversation::describeHuman(ctx.human, ctx.language);
  auto recent = step.rows.calloutsFor(person.personId, 1);
  if (!recent) return recent.error();
  if (recent->empty() || recent->front().shiftEnd <= turn.now ||
      (recent->front().state != CalloutState::kOpen &&
       recent->front().state != CalloutState::kCovered)) {
    return DeskAnswer{"arrived_noted", arrivedThanksText(ctx, human), 0};
  }
  CalloutRow c = recent->front();
  const ShiftWords w = words(c.shiftId, turn.now);
  const ReplyContext lead = contextForPhone(c.reporterPhone);
  const std::string leadName =
      c.reporterPhone.empty() || c.reporterId == person.personId ? human : nameOf(c.reporterId);
  if (c.state == CalloutState::kOpen) {
    c.state = CalloutState::kWithdrawn;
    c.closedAt = turn.now;
    c.nextWaveAt.reset();
    c.escalateAt.reset();
    if (Status s = step.rows.updateCallout(c); !s) return s.error();
    if (Status s = closeOffers(step, c, 0, true); !s) return s.error();
    if (Status s = audit(step, "callout.withdrawn",
                         {{"callout", c.id}, {"reason", "the absent person says they are here"}});
        !s) {
      return s.error();
    }
    if (c.reporterId != person.personId) {
      if (Status s =
              tellLead(step, c, "arrived", arrivedNoticeText(lead, nameOf(person.personId), w, ""));
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
  if (Status s = tellLead(step, c, "arrived",
                          arrivedNoticeText(lead, nameOf(person.personId), w, nameOf(c.coveredBy)));
      !s) {
    return s.error();
  }
  return DeskAnswer{"arrived_after_cover", arrivedThanksText(ctx, leadName), c.id};
}

Result<DeskAnswer> CalloutDesk::lateIn(DeskTurn& turn, const Contact& person,
                                       std::optional<int> minutes) {
  Step step(turn);
  const ReplyContext ctx = contextFor(person.personId);
  const site::Shift* shift = shiftOf(person.personId, site::toInstant(turn.now));
  const HumanContact lead = outreach_.roster().humanContact(person.personId);
  const std::string leadName = sms::conversation::describeHuman(lead, ctx.language);
  if (shift == nullptr || lead.phone.empty() || lead.phone == person.phone) {
    return DeskAnswer{"late_noted", lateThanksText(ctx, leadName), 0};
  }
  const ShiftWords w = words(shift->id, turn.now);
  OutreachRequest request;
  request.id = "late-" + (turn.inboxId ? std::to_string(*turn.inboxId) : person.personId);
  request.to = lead.phone;
  request.kind = MessageClass::kEscalation;
  request.urgent = true;
  request.body = lateNoticeText(contextForPhone(lead.phone), nameOf(person.personId), w, minutes);
  request.ref = "shift:" + shift->id;
  request.sources = {{"message", "inbox:" + (turn.inboxId ? std::to_string(*turn.inboxId) : "-"),
                      "their text saying they are running late"}};
  auto sent = outreach_.sendIn(step.store, step.batch, request);
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

// ---- time passing ----

Status CalloutDesk::escalate(Step& step, CalloutRow& c, std::string_view why) {
  const HumanContact gm = generalManager();
  const ShiftWords w = words(c.shiftId, step.now);
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
      .gate(ask(step, "callout.escalate", true, ""))
      .field("callout", c.id)
      .field("offers", sent)
      .field("why", why)
      .field("to",
             gm.phone.empty() ? json::Value() : json::Value(sms::mailbox::maskNumber(gm.phone)));
  if (gm.phone.empty()) receipt.gap("no general manager or site contact with a phone");
  auto seq = receipt.addTo(step.batch, "No cover yet: a person must know.", "escalated");
  if (!seq) return seq.error();
  c.escalatedAt = step.now;
  c.escalateAt.reset();
  if (!gm.phone.empty()) {
    auto out = send(step, "callout-" + std::to_string(c.id) + "-escalate", gm.phone,
                    MessageClass::kEscalation, true,
                    escalationText(contextForPhone(gm.phone), w, nameOf(c.absentId), sent, *seq), c,
                    std::nullopt);
    if (!out) return out.error();
  }
  if (gm.phone != c.reporterPhone) {
    if (Status s = tellLead(step, c, "escalated",
                            stillSearchingText(contextForPhone(c.reporterPhone), w,
                                               gm.name.empty() ? "the manager" : gm.name));
        !s) {
      return s.error();
    }
  }
  return Status::success();
}

Status CalloutDesk::expireApproval(Step& step, ApprovalRow& a) {
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
      auto sent = send(step, "approval-" + std::to_string(a.id) + "-outcome", o.phone,
                       MessageClass::kThreadReply, false, notApprovedText(contextFor(o.personId)),
                       **c, (*c)->shiftEnd);
      if (!sent) return sent.error();
    }
  }
  return Status::success();
}

Result<int> CalloutDesk::due(TimePoint now) {
  int steps = 0;
  auto work = store_.run([&](SiteStore& store) -> Status {
    if (Status s = site_.refresh(store.db()); !s) return s;
    CalloutStore rows(store.db());
    auto open = rows.openCallouts();
    if (!open) return open.error();
    auto pending = rows.pendingApprovals();
    if (!pending) return pending.error();
    for (ApprovalRow a : *pending) {
      if (a.expiresAt > now) continue;
      auto batch = store.log().begin();
      if (!batch) return batch.error();
      Step step(store, *batch, now, std::nullopt);
      if (Status s = expireApproval(step, a); !s) return s;
      if (auto committed = batch->commit(); !committed) return committed.error();
      ++steps;
    }
    for (CalloutRow c : *open) {
      const bool ended = now >= c.shiftEnd;
      const bool escalate = c.escalateAt && now >= *c.escalateAt;
      const bool wave = c.nextWaveAt && now >= *c.nextWaveAt;
      if (!ended && !escalate && !wave) continue;
      auto batch = store.log().begin();
      if (!batch) return batch.error();
      Step step(store, *batch, now, std::nullopt);
      if (ended) {
        c.state = CalloutState::kExpired;
        c.closedAt = now;
        c.nextWaveAt.reset();
        c.escalateAt.reset();
        if (Status s = closeOffers(step, c, 0, false); !s) return s.error();
        if (Status s = audit(step, "callout.expired", {{"callout", c.id}, {"shift", c.shiftId}});
            !s) {
          return s.error();
        }
      } else {
        if (wave) {
          const policy::GateDecision gate = ask(step, "callout.offer", true, "");
          auto allowed = laterWaveAllowed(step, c, gate);
          if (!allowed) return allowed.error();
          if (*allowed) {
            auto sent = sendWave(step, c, gate, false);
            if (!sent) return sent.error();
          } else {
            // Paused (kill switch L2/L3, SHADOW): no offer leaves; look again next interval.
            c.nextWaveAt = now + settings_.waveInterval;
            if (Status s = audit(step, "callout.wave_paused",
                                 {{"callout", c.id}, {"gate", gate.toJson()}});
                !s) {
              return s.error();
            }
          }
        }
        if (escalate) {
          if (Status s = this->escalate(step, c, "no cover within the search window"); !s) return s;
        }
      }
      if (Status s = step.rows.updateCallout(c); !s) return s.error();
      if (auto committed = batch->commit(); !committed) return committed.error();
      ++steps;
    }
    return Status::success();
  });
  if (!work) {
    site_.invalidate();  // a step may have given a shift away in memory, then rolled back
    return work.error();
  }
  return steps;
}

Result<std::optional<TimePoint>> CalloutDesk::nextDue() {
  std::optional<TimePoint> next;
  auto read = store_.run([&](SiteStore& store) -> Status {
    auto due = CalloutStore(store.db()).nextDue();
    if (!due) return due.error();
    next = *due;
    return Status::success();
  });
  if (!read) return read.error();
  return next;
}

}  // namespace atoms::callout
