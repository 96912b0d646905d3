#include "domain/callout/early_finish.h"

#include <utility>

#include "domain/site/time_zone.h"
#include "sms/outreach/outreach_policy.h"

namespace atoms::callout {

namespace {

Error outOfDate(const std::string& why) {
  return makeError("the schedule changed since: " + why + "; nothing was changed",
                   ErrorKind::kRefused);
}

std::string localHhmm(site::LocalTime t) { return sms::hhmm(sms::minuteOfDay(t)); }

}  // namespace

Result<EarlyFinishDone> finishEarly(const DeskContext& desk, DeskStep& step,
                                    const EarlyFinish& finish, const std::string& approverId) {
  SiteSnapshot& snapshot = desk.site();
  const site::Instant now = site::toInstant(step.now);
  const site::Shift* shift = snapshot.index().shift(finish.shiftId);
  if (shift == nullptr) return outOfDate("shift " + finish.shiftId + " is no longer scheduled");
  if (shift->assignee != finish.personId) {
    return outOfDate("shift " + finish.shiftId + " is no longer " + desk.nameOf(finish.personId) +
                     "'s");
  }
  if (shift->end.utc != finish.scheduledEnd) {
    return outOfDate("shift " + finish.shiftId + " now ends at " + localHhmm(shift->end.local));
  }
  if (finish.newEnd <= now || finish.newEnd <= shift->start.utc ||
      finish.newEnd >= shift->end.utc) {
    return outOfDate("finishing at " + localHhmm(snapshot.zone().toLocal(finish.newEnd)) +
                     " is no longer possible");
  }
  const site::Stamp newEnd{finish.newEnd, snapshot.zone().toLocal(finish.newEnd)};
  auto verdict = snapshot.changes().evaluate(
      labor::ScheduleChange{labor::CutShift{shift->id, false, shift->start, newEnd}}, now);
  if (!verdict) return verdict.error();
  if (verdict->kind == labor::VerdictKind::kDenied) {
    return makeError("the labor rules do not allow this cut now; nothing was changed",
                     ErrorKind::kRefused);
  }
  const std::string stationName = desk.words(shift->id, step.now).station;
  const std::string oldEnd = localHhmm(shift->end.local);
  const std::string station = shift->stationId;

  site::SiteModel next = snapshot.model();
  for (site::Shift& s : next.shifts) {
    if (s.id == finish.shiftId) s.end = newEnd;
  }
  if (Status s = snapshot.replace(step.store.db(), std::move(next)); !s) return s.error();

  EarlyFinishDone done;
  done.premiumCents = verdict->premiumCents;
  done.premiumMinutes = verdict->premiumMinutes;
  if (Status s = audit(step, "schedule.early_finish",
                       {{"shift", finish.shiftId},
                        {"person", finish.personId},
                        {"station", station},
                        {"from", site::formatLocal(snapshot.zone().toLocal(finish.scheduledEnd))},
                        {"to", site::formatLocal(newEnd.local)},
                        {"premiumCents", done.premiumCents},
                        {"premiumMinutes", done.premiumMinutes},
                        {"approvedBy", approverId},
                        {"ref", finish.ref}});
      !s) {
    return s.error();
  }
  const site::Person* person = snapshot.index().person(finish.personId);
  sms::conversation::OutreachRequest text;
  text.id = finish.ref + "-early-finish";
  text.to = person != nullptr ? person->phone : "";
  text.kind = sms::MessageClass::kNotice;
  text.body = earlyFinishText(desk.contextFor(finish.personId), stationName,
                              localHhmm(newEnd.local), oldEnd, done.premiumCents);
  text.ref = finish.ref;
  text.notAfter = TimePoint(finish.newEnd.time_since_epoch());
  text.sources.push_back({"service", "site_shift:" + finish.shiftId, "the shift, ending early"});
  auto sent = desk.outreach().sendIn(step.store, step.batch, text);
  if (!sent) return sent.error();
  done.text = std::move(*sent);
  return done;
}

}  // namespace atoms::callout
