#include "domain/forecast/proposal_desk.h"

#include <utility>

#include "domain/callout/early_finish.h"
#include "domain/callout/extra_shift.h"
#include "domain/labor/pay.h"
#include "domain/site/time_zone.h"
#include "sms/outreach/outreach_policy.h"

namespace atoms::forecast {

namespace {

std::string clockText(const site::TimeZone& zone, TimePoint t) {
  return sms::hhmm(sms::minuteOfDay(zone.toLocal(site::toInstant(t))));
}

// What the manager reads about the text to a person let go early.
std::string textOutcome(const sms::conversation::OutreachResult& text, const std::string& name) {
  switch (text.outcome) {
    case sms::conversation::OutreachOutcome::kQueued:
      return name + " was texted.";
    case sms::conversation::OutreachOutcome::kHeld:
      return "The text to " + name + " is held (" + text.explanation + "): please tell " + name +
             " yourself.";
    default:
      return "No text could go to " + name + " (" + text.explanation + "): please tell " + name +
             " yourself.";
  }
}

// To the general manager when a proposal is filed: its summary, and where and by when to decide.
std::string announcementText(const callout::ReplyContext& c, const IntradayProposal& p,
                             const std::string& until) {
  if (c.spanish()) {
    return "Propuesta " + std::to_string(p.id) + ": " + p.summary +
           " Decide en el panel (Aprobaciones) antes de las " + until + ".";
  }
  return "Proposal " + std::to_string(p.id) + ": " + p.summary +
         " Decide on the panel (Approvals) before " + until + ".";
}

}  // namespace

ProposalDesk::ProposalDesk(callout::CalloutDesk& desk, atoms::StoreRunner& store,
                           std::function<void()> onDecided)
    : desk_(desk), store_(store), onDecided_(std::move(onDecided)) {}

Result<ProposalAnswer> ProposalDesk::decide(const std::string& personId, std::int64_t id,
                                            bool approve, const std::string& remark) {
  ProposalAnswer out;
  callout::SiteSnapshot& site = desk_.context().site();
  Status s = store_.run([&](SiteStore& store) -> Status {
    if (Status r = site.refresh(store.db()); !r) return r;
    auto batch = store.log().begin();
    if (!batch) return batch.error();
    const TimePoint now = desk_.now();
    auto decided = decideProposalIn(store, *batch, id, approve, personId, remark, now);
    if (!decided) return decided.error();
    out.proposal = std::move(*decided);
    switch (out.proposal.state) {
      case ProposalState::kExpired:
        out.message = "This proposal lapsed at " +
                      clockText(site.zone(), proposalExpiry(out.proposal)) +
                      "; nothing was changed.";
        break;
      case ProposalState::kDenied:
        out.message = "Denied: nothing changes.";
        break;
      default: {
        callout::DeskStep step(store, *batch, now, std::nullopt);
        if (Status done = this->approve(step, personId, out); !done) return done;
      }
    }
    if (auto committed = batch->commit(); !committed) return committed.error();
    return Status::success();
  });
  if (!s) {
    site.invalidate();  // the schedule may have changed in memory before the batch was dropped
    return s.error();
  }
  if (out.proposal.state == ProposalState::kApproved && onDecided_) onDecided_();
  if (out.proposal.state == ProposalState::kExpired) {
    return makeError(out.message, ErrorKind::kRefused);
  }
  return out;
}

Status ProposalDesk::approve(callout::DeskStep& step, const std::string& personId,
                             ProposalAnswer& out) {
  const callout::DeskContext& ctx = desk_.context();
  const IntradayProposal& p = out.proposal;
  if (p.signal.kind == IntradayKind::kAdd) {
    auto shift = callout::extraShiftAt(ctx, p.signal.station, "extra-" + std::to_string(p.id),
                                       site::toInstant(step.now));
    if (!shift) return shift.error();
    auto answer = callout::openExtraShift(ctx, step, personId, *shift);
    if (!answer) return answer.error();
    out.calloutId = answer->callout;
    out.shiftId = shift->id;
    out.message = answer->text;
    return Status::success();
  }
  if (!p.cutTo) return makeError("intraday proposal " + std::to_string(p.id) + " has no cut");
  callout::EarlyFinish finish;
  finish.shiftId = p.shiftId;
  finish.personId = p.personId;
  // The end the manager saw: the shift's end when the cut was quoted (before migration 31 it
  // was not kept, and the shift's end now stands in for it).
  if (p.scheduledEnd) {
    finish.scheduledEnd = *p.scheduledEnd;
  } else if (const site::Shift* shift = ctx.site().index().shift(p.shiftId); shift != nullptr) {
    finish.scheduledEnd = shift->end.utc;
  }
  finish.newEnd = *p.cutTo;
  finish.ref = "intraday-" + std::to_string(p.id);
  auto done = callout::finishEarly(ctx, step, finish, personId);
  if (!done) return done.error();
  const std::string name = ctx.nameOf(p.personId);
  out.shiftId = p.shiftId;
  out.message = name + " can finish at " +
                clockText(ctx.site().zone(), TimePoint(p.cutTo->time_since_epoch())) +
                (done->premiumCents > 0
                     ? " (schedule-change premium " + labor::formatCents(done->premiumCents) + ")"
                     : "") +
                ". " + textOutcome(done->text, name);
  return Status::success();
}

Result<std::optional<sms::conversation::OutreachResult>> ProposalDesk::announce(
    const IntradayProposal& p) {
  const callout::DeskContext& ctx = desk_.context();
  const sms::conversation::HumanContact gm = ctx.generalManager();
  std::optional<sms::conversation::OutreachResult> out;
  if (gm.phone.empty()) return out;
  Status s = store_.run([&](SiteStore& store) -> Status {
    auto batch = store.log().begin();
    if (!batch) return batch.error();
    sms::conversation::OutreachRequest text;
    text.id = "intraday-" + std::to_string(p.id) + "-announce";
    text.to = gm.phone;
    text.kind = sms::MessageClass::kEscalation;
    text.body = announcementText(ctx.contextForPhone(gm.phone), p,
                                 clockText(ctx.site().zone(), proposalExpiry(p)));
    text.ref = "intraday-" + std::to_string(p.id);
    text.notAfter = proposalExpiry(p);
    text.sources.push_back({"decision", "intraday_proposal:" + std::to_string(p.id),
                            "the intraday proposal and its evidence"});
    auto sent = ctx.outreach().sendIn(store, *batch, text);
    if (!sent) return sent.error();
    if (auto committed = batch->commit(); !committed) return committed.error();
    out = std::move(*sent);
    return Status::success();
  });
  if (!s) return s.error();
  return out;
}

}  // namespace atoms::forecast
