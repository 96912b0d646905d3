#include "domain/callout/no_show_watch.h"

#include <algorithm>

#include "domain/callout/callout_receipt.h"
#include "domain/callout/shift_attendance.h"
#include "sms/conversation/conversation_tables.h"
#include "sms/outreach/outreach_policy.h"
#include "store/audit_entry.h"

namespace atoms::callout {

namespace {

using sms::conversation::OutreachRequest;

TimePoint timeOf(site::Instant t) { return TimePoint(t.time_since_epoch()); }

// One question per shift; a shift covered by a call-out gets one more about its cover (the
// first question may have been the one that started the search).
std::string messageId(const site::Shift& shift, const std::optional<CalloutRow>& covered) {
  if (covered) return "noshow-" + shift.id + "-cover-" + std::to_string(covered->id);
  return "noshow-" + shift.id;
}

bool isLeadStation(const site::Station* station) {
  return station != nullptr &&
         std::find(station->tags.begin(), station->tags.end(), "shift_lead") != station->tags.end();
}

}  // namespace

NoShowWatch::NoShowWatch(CalloutDesk& desk, SiteSnapshot& site,
                         sms::conversation::Outreach& outreach, atoms::StoreRunner& store,
                         std::chrono::minutes grace, GateFunction gate)
    : desk_(desk),
      site_(site),
      outreach_(outreach),
      store_(store),
      grace_(grace),
      gate_(std::move(gate)) {}

std::optional<TimePoint> NoShowWatch::nextDue(TimePoint now) const {
  if (grace_.count() <= 0) return std::nullopt;
  std::optional<TimePoint> next;
  for (const site::Shift& s : site_.model().shifts) {
    if (!s.assignee) continue;
    const TimePoint at = timeOf(s.start.utc) + grace_;
    if (checkedThrough_ && at <= *checkedThrough_) continue;
    if (now >= at + kLateWindow || now >= timeOf(s.end.utc)) continue;  // too late to ask
    if (!next || at < *next) next = at;
  }
  return next;
}

Result<int> NoShowWatch::due(TimePoint now) {
  if (grace_.count() <= 0) return 0;
  int asked = 0;
  Status s = store_.run([&](SiteStore& store) -> Status {
    if (Status fresh = site_.refresh(store.db()); !fresh) return fresh;
    for (const site::Shift& shift : site_.model().shifts) {
      if (!shift.assignee) continue;
      const TimePoint graceEnd = timeOf(shift.start.utc) + grace_;
      if (now < graceEnd || now >= timeOf(shift.end.utc) || now >= graceEnd + kLateWindow) {
        continue;
      }
      auto done = check(store, shift, now);
      if (!done) return done.error();
      asked += *done ? 1 : 0;
    }
    return Status::success();
  });
  if (!s) return s.error();
  checkedThrough_ = now;
  return asked;
}

NoShowWatch::Asked NoShowWatch::whoToAsk(const site::Shift& shift) const {
  const site::SiteIndex& index = site_.index();
  for (const site::Shift& other : site_.model().shifts) {
    if (!other.assignee || *other.assignee == *shift.assignee) continue;
    if (other.start.utc > shift.start.utc || other.end.utc <= shift.start.utc) continue;
    if (!isLeadStation(index.station(other.stationId))) continue;
    if (const site::Person* lead = index.person(*other.assignee); lead && !lead->phone.empty()) {
      return {lead->id, lead->name, lead->phone, "lead_on_duty"};
    }
  }
  const site::Person* absent = index.person(*shift.assignee);
  if (absent != nullptr && absent->managerOfRecord) {
    const site::Person* manager = index.person(*absent->managerOfRecord);
    if (manager != nullptr && !manager->phone.empty()) {
      return {manager->id, manager->name, manager->phone, "manager_of_record"};
    }
  }
  const sms::conversation::HumanContact contact = outreach_.roster().humanContact("");
  return {"", contact.name, contact.phone, "site_contact"};
}

Result<bool> NoShowWatch::check(SiteStore& store, const site::Shift& shift, TimePoint now) {
  const std::string& personId = *shift.assignee;
  // A shift with a call-out is the search's, unless the search covered it with the person now on
  // it: a cover who does not come is asked about like anyone else.
  auto latest = CalloutStore(store.db()).latestCalloutForShift(shift.id);
  if (!latest) return latest.error();
  const bool covered =
      *latest && (*latest)->state == CalloutState::kCovered && (*latest)->coveredBy == personId;
  if (*latest && !covered) return false;
  const std::string id = messageId(shift, covered ? *latest : std::optional<CalloutRow>());
  sms::conversation::ConversationTables tables(store.db());
  auto already = tables.findMessage(id);
  if (!already) return already.error();
  if (*already) return false;
  const TimePoint from = timeOf(shift.start.utc) - kEarlyClockIn;
  auto in = shiftClockIn(store.db(), personId, timeOf(shift.start.utc), now);
  if (!in) return in.error();
  if (*in) return false;

  const Asked asked = whoToAsk(shift);
  policy::ProposedAction action;
  action.kind = "callout.noshow_check";
  action.actor = "engine";
  action.automated = true;
  action.subject = personId;
  const policy::GateDecision gate = gate_(action);

  auto batch = store.log().begin();
  if (!batch) return batch.error();
  const ShiftWords words = desk_.words(shift.id, now);
  CalloutReceipt receipt(id, action.kind, now);
  receipt.source("org", "shift:" + shift.id, shiftLabel(words))
      .source("service", "site_punch:" + personId, "no clock-in since " + formatTimestamp(from))
      .rule("callout.noshow.grace",
            {{"grace_minutes", static_cast<std::int64_t>(grace_.count())},
             {"shift_start", formatTimestamp(timeOf(shift.start.utc))}},
            "fail", "no clock-in by the end of the grace period")
      .gate(gate)
      .field("shift", shift.id)
      .field("person", personId)
      .field("cover", covered ? json::Value((*latest)->id) : json::Value())
      .field("asked", asked.personId.empty() ? json::Value() : json::Value(asked.personId))
      .field("askedAs", asked.why);
  if (asked.phone.empty()) receipt.gap("nobody with a phone to ask: no lead, manager or contact");
  const bool asks = gate.executes() && !asked.phone.empty();
  auto seq = receipt.addTo(*batch, "A shift started without a clock-in: a person is asked.",
                           asks ? "asked" : "not_asked");
  if (!seq) return seq.error();
  if (asks) {
    OutreachRequest request;
    request.id = id;
    request.to = asked.phone;
    request.kind = sms::MessageClass::kEscalation;
    request.urgent = true;
    request.body =
        possibleNoShowText(desk_.contextFor(asked.personId), desk_.nameOf(personId), words);
    request.ref = "shift:" + shift.id;
    request.notAfter = timeOf(shift.end.utc);
    request.sources = {{"org", "shift:" + shift.id, shiftLabel(words)},
                       {"decision", id, "no clock-in after the grace period"}};
    auto sent = outreach_.sendIn(store, *batch, request);
    if (!sent) return sent.error();
  }
  if (auto committed = batch->commit(); !committed) return committed.error();
  return asks;
}

}  // namespace atoms::callout
