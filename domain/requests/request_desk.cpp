#include "domain/requests/request_desk.h"

#include <chrono>
#include <utility>

#include "base/canonical_json.h"
#include "domain/requests/request_effect.h"
#include "domain/requests/request_texts.h"
#include "store/row_reader.h"

namespace atoms::requests {

namespace {

using callout::DecisionOutcome;
using sms::MessageClass;
using sms::conversation::OutreachRequest;

json::Array weekdayArray(const std::vector<unsigned>& weekdays) {
  json::Array a;
  for (unsigned d : weekdays) a.push_back(static_cast<std::int64_t>(d));
  return a;
}

// What a request asks, for the audit entries: dates, part, weekdays, never words of the text.
json::Object requestFacts(const RequestRow& row) {
  return json::Object{
      {"request", row.id},
      {"person", row.personId},
      {"kind", sms::requestKindName(row.kind)},
      {"from", row.fromDate},
      {"to", row.toDate},
      {"part", sms::dayPartName(row.part)},
      {"weekdays", weekdayArray(row.weekdays)},
      {"change", row.kind == sms::RequestKind::kAvailability
                     ? json::Value(std::string(sms::availabilityChangeName(row.change)))
                     : json::Value()}};
}

json::Array touchedIds(const std::vector<TouchedShift>& touched) {
  json::Array a;
  for (const TouchedShift& t : touched) a.push_back(t.shiftId);
  return a;
}

std::int64_t seconds(site::Instant t) { return t.time_since_epoch().count(); }
std::int64_t seconds(site::LocalTime t) { return t.time_since_epoch().count(); }

}  // namespace

RequestDesk::RequestDesk(const callout::DeskContext& desk) : desk_(desk) {}

bool RequestDesk::knowsPerson(std::string_view personId) const {
  return site().index().person(personId) != nullptr;
}

std::string RequestDesk::approverFor(const site::Person& person) const {
  if (person.managerOfRecord && *person.managerOfRecord != person.id &&
      site().index().person(*person.managerOfRecord) != nullptr) {
    return *person.managerOfRecord;
  }
  const std::string& gm = desk_.settings().generalManager;
  if (!gm.empty() && gm != person.id && site().index().person(gm) != nullptr) return gm;
  return "";
}

Result<sms::conversation::OutreachResult> RequestDesk::send(
    RequestStep& step, const std::string& id, const std::string& to, MessageClass kind,
    const std::string& body, const RequestRow& row) {
  OutreachRequest request;
  request.id = id;
  request.to = to;
  request.kind = kind;
  request.body = body;
  request.ref = "request-" + std::to_string(row.id);
  request.sources = {{"decision", request.ref,
                      requestLabel(row.id) + ": " + requestWords(row, false) + " (" +
                          std::string(requestStateName(row.state)) + ")"}};
  return desk_.outreach().sendIn(step.store, step.batch, request);
}

Result<std::optional<RequestAnswer>> RequestDesk::receive(RequestStep& step,
                                                          const sms::conversation::Contact& sender,
                                                          std::string_view body,
                                                          sms::conversation::Language language) {
  const site::Person* person = site().index().person(sender.personId);
  if (person == nullptr) return std::optional<RequestAnswer>();
  const site::Instant now = site::toInstant(step.now);
  const site::TimeZone& zone = site().zone();
  const sms::RequestCalendar calendar{std::chrono::floor<std::chrono::days>(zone.toLocal(now)),
                                      site().model().site.workweekStart};
  const sms::RequestIntent intent = sms::parseRequestIntent(body, calendar);
  if (intent.kind == sms::RequestKind::kNone) return std::optional<RequestAnswer>();

  sms::conversation::ReplyContext ctx = desk_.contextFor(sender.personId);
  // The language the request is written in, else the turn's (the roster's).
  ctx.language = sms::conversation::parseLanguage(intent.language).value_or(language);
  json::Array matched;
  for (const std::string& m : intent.matched) matched.push_back(m);
  if (!intent.clear()) {
    if (Status s = step.batch.record(
            step.now, "request.asked", "engine",
            json::Object{{"person", sender.personId},
                         {"kind", sms::requestKindName(intent.kind)},
                         {"question", intent.question},
                         {"inbox", step.inboxId ? json::Value(*step.inboxId) : json::Value()},
                         {"matched", std::move(matched)}});
        !s) {
      return s.error();
    }
    return std::optional<RequestAnswer>(
        RequestAnswer{"request_question", requestQuestionText(ctx, intent.question), 0});
  }

  RequestRow row;
  row.personId = sender.personId;
  row.kind = intent.kind;
  row.state = RequestState::kPending;
  if (intent.kind == sms::RequestKind::kTimeOff) {
    row.fromDate = formatRequestDate(*intent.from);
    row.toDate = formatRequestDate(*intent.to);
  }
  row.part = intent.part;
  row.weekdays = intent.weekdays;
  row.change = intent.change;
  row.approverId = approverFor(*person);
  row.inboxId = step.inboxId;
  row.createdAt = step.now;
  RequestStore rows(step.store.db());
  // The same request again (a retyped text, a double send): the one already filed is the answer.
  auto pending = rows.pendingFor(row.personId);
  if (!pending) return pending.error();
  for (const RequestRow& p : *pending) {
    if (p.kind == row.kind && p.fromDate == row.fromDate && p.toDate == row.toDate &&
        p.part == row.part && p.weekdays == row.weekdays && p.change == row.change) {
      return std::optional<RequestAnswer>(
          RequestAnswer{"request_repeated",
                        requestReceivedText(ctx, requestWords(p, ctx.spanish()), p.id), p.id});
    }
  }
  auto id = rows.insert(row);
  if (!id) return id.error();
  row.id = *id;
  auto view = this->view(row, step.now);
  if (!view) return view.error();
  json::Object facts = requestFacts(row);
  facts["approver"] = row.approverId;
  facts["inbox"] = step.inboxId ? json::Value(*step.inboxId) : json::Value();
  facts["matched"] = std::move(matched);
  facts["touched"] = touchedIds(view->touched);
  if (Status s = step.batch.record(step.now, "request.received", "engine", std::move(facts)); !s) {
    return s.error();
  }
  if (const site::Person* approver = site().index().person(row.approverId)) {
    const sms::conversation::ReplyContext actx = desk_.contextFor(approver->id);
    auto sent =
        send(step, "request-" + std::to_string(row.id) + "-manager", approver->phone,
             MessageClass::kNotice,
             requestForManagerText(actx, desk_.nameOf(row.personId),
                                   requestWords(row, actx.spanish()), row.id, view->touched.size()),
             row);
    if (!sent) return sent.error();
  }
  return std::optional<RequestAnswer>(
      RequestAnswer{"request_received",
                    requestReceivedText(ctx, requestWords(row, ctx.spanish()), row.id), row.id});
}

Status RequestDesk::apply(RequestStep& step, const RequestRow& row) {
  Database& db = step.store.db();
  const site::Person* person = site().index().person(row.personId);
  if (person == nullptr) {
    return makeError("staff request " + std::to_string(row.id) + ": person not on the site");
  }
  if (row.kind == sms::RequestKind::kTimeOff) {
    auto periods = timeOffPeriods(row, site().zone());
    if (!periods) return periods.error();
    auto next =
        db.cached("SELECT COALESCE(MAX(position), -1) + 1 FROM site_time_off WHERE person_id = ?");
    if (!next) return next.error();
    next->bind(1, std::string_view(row.personId));
    auto positions = readRows(*next, [](RowReader& r) { return r.int64(); });
    if (!positions) return positions.error();
    std::int64_t position = positions->empty() ? 0 : positions->front();
    for (const site::TimeOff& off : *periods) {
      auto insert = db.cached(
          "INSERT INTO site_time_off(person_id, position, start_utc, start_local, end_utc,"
          " end_local) VALUES (?,?,?,?,?,?)");
      if (!insert) return insert.error();
      insert->bind(1, std::string_view(row.personId))
          .bind(2, position++)
          .bind(3, seconds(off.start.utc))
          .bind(4, seconds(off.start.local))
          .bind(5, seconds(off.end.utc))
          .bind(6, seconds(off.end.local));
      if (Status s = insert->run(); !s) return s;
    }
  } else {
    const std::vector<site::AvailabilityWindow> windows =
        availabilityAfter(person->availability, row);
    auto clear = db.cached("DELETE FROM site_availability WHERE person_id = ?");
    if (!clear) return clear.error();
    clear->bind(1, std::string_view(row.personId));
    if (Status s = clear->run(); !s) return s;
    std::int64_t position = 0;
    for (const site::AvailabilityWindow& w : windows) {
      auto insert = db.cached(
          "INSERT INTO site_availability(person_id, position, weekday, start_minute, end_minute)"
          " VALUES (?,?,?,?,?)");
      if (!insert) return insert.error();
      insert->bind(1, std::string_view(row.personId))
          .bind(2, position++)
          .bind(3, static_cast<std::int64_t>(w.weekday))
          .bind(4, static_cast<std::int64_t>(w.startMinute))
          .bind(5, static_cast<std::int64_t>(w.endMinute));
      if (Status s = insert->run(); !s) return s;
    }
  }
  // The call-out desk, the labor engine and the scheduler read the site from the store: the
  // snapshot reads it back at its next refresh (this batch's rows included).
  site().invalidate();
  return Status::success();
}

Result<RequestDecision> RequestDesk::decide(RequestStep& step, const callout::Decider& who,
                                            std::int64_t id, bool approve, std::string remark) {
  const sms::conversation::ReplyContext ctx = desk_.contextFor(who.personId);
  RequestStore rows(step.store.db());
  auto found = rows.get(id);
  if (!found) return found.error();
  if (!*found || (*found)->state != RequestState::kPending) {
    return RequestDecision{*found ? DecisionOutcome::kClosed : DecisionOutcome::kUnknown,
                           {"request_closed", requestClosedText(ctx, id), id}};
  }
  RequestRow row = **found;
  auto refuse = [&](DecisionOutcome outcome, std::string_view reason, std::string text,
                    json::Value gate = json::Value()) -> Result<RequestDecision> {
    json::Object facts = callout::deciderFacts(who, step.inboxId);
    facts["request"] = row.id;
    facts["reason"] = reason;
    facts["gate"] = std::move(gate);
    if (Status s = step.batch.record(step.now, "request.refused", "engine", std::move(facts)); !s) {
      return s.error();
    }
    return RequestDecision{outcome,
                           {"request_refused_" + std::string(reason), std::move(text), id}};
  };
  if (!who.personId.empty() && who.personId == row.personId) {
    return refuse(DecisionOutcome::kRefusedSelf, "self_approval", requestSelfText(ctx, id));
  }
  // As for call-out approvals: by text, from the approver's number; on the API, the approver.
  const site::Person* approver = site().index().person(row.approverId);
  const bool isApprover = approver != nullptr && who.personId == row.approverId &&
                          (who.phone.empty() || who.phone == approver->phone);
  if (!isApprover) {
    return refuse(DecisionOutcome::kRefusedNotApprover, "not_approver",
                  requestNotYoursText(ctx, id));
  }
  policy::GateDecision gate;
  if (approve) {
    policy::ProposedAction action;
    action.kind = row.kind == sms::RequestKind::kTimeOff ? "pto.approve" : "availability.update";
    action.actor = who.via == "api" ? "panel:" + who.personId : "person:" + who.personId;
    action.automated = false;
    action.subject = row.personId;
    gate = desk_.gate(action);
    if (!gate.executes() && gate.outcome != policy::EffectiveOutcome::kQueueForApproval) {
      return refuse(DecisionOutcome::kRefusedPolicy, "policy", requestPausedText(ctx),
                    gate.toJson());
    }
    // As for call-out approvals (seed 001 EC-RISK-001): the box is about to write what was OKed;
    // while that kind's breaker is open nothing is written and the request stays pending.
    policy::ProposedAction act = action;
    act.actor = "engine";
    act.automated = true;
    const policy::GateDecision atAct = desk_.gate(act);
    if (!atAct.breaker.empty()) {
      return refuse(DecisionOutcome::kRefusedPolicy, "held_by_breaker", requestPausedText(ctx),
                    atAct.toJson());
    }
  }
  auto view = this->view(row, step.now);
  if (!view) return view.error();
  row.state = approve ? RequestState::kApproved : RequestState::kDenied;
  row.decidedBy = who.personId;
  row.decidedVia = who.via;
  row.decidedAt = step.now;
  row.remark = std::move(remark);
  if (Status s = rows.update(row); !s) return s.error();
  if (approve) {
    if (Status s = apply(step, row); !s) return s.error();
  }
  json::Object facts = requestFacts(row);
  facts["decision"] = approve ? "approved" : "denied";
  facts["by"] = who.personId;
  facts["via"] = who.via;
  facts["touched"] = touchedIds(view->touched);
  facts["unassigned"] = json::Array{};  // never: the manager sees the touched shifts instead
  facts["gate"] = approve ? gate.toJson() : json::Value();
  if (Status s = step.batch.record(step.now, "request.decided", "engine", std::move(facts)); !s) {
    return s.error();
  }
  if (const site::Person* person = site().index().person(row.personId)) {
    const sms::conversation::ReplyContext pctx = desk_.contextFor(person->id);
    const std::string what = requestWords(row, pctx.spanish());
    auto sent =
        send(step, "request-" + std::to_string(row.id) + "-decided", person->phone,
             MessageClass::kThreadReply,
             approve ? requestApprovedText(pctx, what) : requestDeniedText(pctx, what), row);
    if (!sent) return sent.error();
  }
  return RequestDecision{approve ? DecisionOutcome::kApproved : DecisionOutcome::kDenied,
                         {approve ? "request_approved" : "request_denied",
                          requestRecordedText(ctx, id, approve, view->touched.size()), id}};
}

Result<RequestAnswer> RequestDesk::withdraw(RequestStep& step, const callout::Decider& who,
                                            std::int64_t id) {
  const sms::conversation::ReplyContext ctx = desk_.contextFor(who.personId);
  RequestStore rows(step.store.db());
  auto found = rows.get(id);
  if (!found) return found.error();
  if (!*found || (*found)->state != RequestState::kPending || (*found)->personId != who.personId) {
    return RequestAnswer{"request_closed", requestClosedText(ctx, id), id};
  }
  RequestRow row = **found;
  row.state = RequestState::kWithdrawn;
  row.decidedBy = who.personId;
  row.decidedVia = who.via;
  row.decidedAt = step.now;
  if (Status s = rows.update(row); !s) return s.error();
  json::Object facts = requestFacts(row);
  facts["via"] = who.via;
  if (Status s = step.batch.record(step.now, "request.withdrawn", "engine", std::move(facts)); !s) {
    return s.error();
  }
  return RequestAnswer{"request_withdrawn", requestWithdrawnText(ctx, id), id};
}

Result<RequestView> RequestDesk::view(const RequestRow& row, TimePoint now) const {
  RequestView v;
  v.row = row;
  const site::Person* person = site().index().person(row.personId);
  v.personName = person ? person->name : "";
  const site::Person* approver = site().index().person(row.approverId);
  v.approverName = approver ? approver->name : "";
  v.words = requestWords(row, false);
  auto touched = touchedShifts(site().model(), row, site().zone(), site::toInstant(now));
  if (!touched) return touched.error();
  for (const site::Shift* s : *touched) {
    v.touched.push_back({s->id, s->stationId, s->start, s->end});
  }
  if (row.kind == sms::RequestKind::kTimeOff) {
    auto periods = timeOffPeriods(row, site().zone());
    if (!periods) return periods.error();
    v.timeOff = std::move(*periods);
  } else {
    v.windows = availabilityAfter(
        person ? person->availability : std::vector<site::AvailabilityWindow>{}, row);
  }
  return v;
}

}  // namespace atoms::requests
