#include "domain/callout/desk_context.h"

#include <utility>

#include "domain/site/time_zone.h"

namespace atoms::callout {

using sms::MessageClass;
using sms::conversation::HumanContact;
using sms::conversation::OutreachRequest;
using sms::conversation::OutreachResult;

DeskContext::DeskContext(SiteSnapshot& site, sms::conversation::Outreach& outreach,
                         CalloutSettings settings, GateFunction gate, sms::RandomSource random)
    : site_(site),
      outreach_(outreach),
      settings_(std::move(settings)),
      gate_(std::move(gate)),
      random_(std::move(random)) {}

void DeskContext::violationAtAct(DeskStep& step, const std::string& ref) const {
  if (violationAtAct_) violationAtAct_(step.batch, step.now, ref);
}

std::string DeskContext::nameOf(std::string_view personId) const {
  const site::Person* p = site_.index().person(personId);
  if (p == nullptr) return std::string(personId);
  // First name only: enough on a small site, and less of a person's data in every text.
  const std::size_t space = p->name.find(' ');
  return space == std::string::npos ? p->name : p->name.substr(0, space);
}

ReplyContext DeskContext::contextFor(std::string_view personId) const {
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

ReplyContext DeskContext::contextForPhone(const std::string& phone) const {
  auto contact = outreach_.roster().findByPhone(phone);
  return contextFor(contact ? std::string_view(contact->personId) : std::string_view());
}

HumanContact DeskContext::generalManager() const {
  if (!settings_.generalManager.empty()) {
    if (const site::Person* p = site_.index().person(settings_.generalManager)) {
      return {p->name, p->phone};
    }
  }
  return outreach_.roster().humanContact("");
}

ShiftWords DeskContext::words(std::string_view shiftId, TimePoint now) const {
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

const site::Shift* DeskContext::shiftOf(std::string_view personId, site::Instant now) const {
  const site::Shift* best = nullptr;
  for (const site::Shift& s : site_.model().shifts) {
    if (!s.assignee || *s.assignee != personId || s.end.utc <= now) continue;
    if (s.start.utc > now + settings_.lookahead) continue;
    if (best == nullptr || s.start.utc < best->start.utc) best = &s;
  }
  return best;
}

policy::GateDecision DeskContext::ask(DeskStep& step, std::string_view kind, bool automated,
                                      std::string_view subject) const {
  policy::ProposedAction action;
  action.kind = std::string(kind);
  action.actor = automated ? "engine" : "person";
  action.automated = automated;
  action.subject = std::string(subject);
  if (automated && feedback_.decision) feedback_.decision(step.batch, step.now, action);
  return gate_(action);
}

Result<OutreachResult> DeskContext::send(
    DeskStep& step, const std::string& id, const std::string& to, MessageClass kind, bool urgent,
    const std::string& body, const CalloutRow& callout, std::optional<TimePoint> notAfter,
    std::optional<sms::conversation::ReceiptSource> why) const {
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

Status DeskContext::tellLead(DeskStep& step, const CalloutRow& callout, std::string_view what,
                             const std::string& text) const {
  if (callout.reporterPhone.empty()) return Status::success();
  auto sent =
      send(step, "callout-" + std::to_string(callout.id) + "-lead-" + std::string(what),
           callout.reporterPhone, MessageClass::kThreadReply, true, text, callout, std::nullopt);
  if (!sent) return sent.error();
  return Status::success();
}

}  // namespace atoms::callout
