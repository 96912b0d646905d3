#include "domain/callout/extra_shift.h"

#include <algorithm>
#include <utility>

#include "domain/callout/callout_report.h"
#include "domain/site/time_zone.h"

namespace atoms::callout {

namespace {

// Quarter hours of UTC are the site's too: every zone's offset is a whole quarter hour.
using ExtraQuarter = std::chrono::duration<std::int64_t, std::ratio<900>>;

site::Stamp stampAt(const site::TimeZone& zone, site::Instant utc) {
  return site::Stamp{utc, zone.toLocal(utc)};
}

}  // namespace

Result<site::Shift> extraShiftAt(const DeskContext& desk, const std::string& stationId,
                                 const std::string& shiftId, site::Instant now) {
  const SiteSnapshot& snapshot = desk.site();
  if (snapshot.index().station(stationId) == nullptr) {
    return makeError("no station '" + stationId + "' on the site", ErrorKind::kNotFound);
  }
  const site::Instant start = std::chrono::time_point_cast<site::Seconds>(
      std::chrono::ceil<ExtraQuarter>(now + kExtraShiftLead));
  // The station's last scheduled end today (local day of the start), if it closes sooner.
  const site::TimeZone& zone = snapshot.zone();
  const auto day = std::chrono::floor<std::chrono::days>(zone.toLocal(start));
  site::Instant lastEnd = start;
  for (const site::Shift& s : snapshot.model().shifts) {
    if (s.stationId != stationId) continue;
    if (std::chrono::floor<std::chrono::days>(s.start.local) != day) continue;
    lastEnd = std::max(lastEnd, s.end.utc);
  }
  site::Instant end = start + kExtraShiftLength;
  if (lastEnd >= start + kMinExtraShift && lastEnd < end) end = lastEnd;
  site::Shift shift;
  shift.id = shiftId;
  shift.stationId = stationId;
  shift.start = stampAt(zone, start);
  shift.end = stampAt(zone, end);
  return shift;
}

Result<DeskAnswer> openExtraShift(const DeskContext& desk, DeskStep& step,
                                  const std::string& requesterId, const site::Shift& shift) {
  SiteSnapshot& snapshot = desk.site();
  const site::Person* requester = snapshot.index().person(requesterId);
  if (requester == nullptr) {
    return makeError("no person '" + requesterId + "' on the site", ErrorKind::kNotFound);
  }
  if (snapshot.index().shift(shift.id) != nullptr) {
    return makeError("shift '" + shift.id + "' is already on the schedule", ErrorKind::kRefused);
  }
  // Copied now: replace() below rebuilds the model, and `requester` points into the old one.
  sms::conversation::Contact reporter;
  reporter.personId = requester->id;
  reporter.name = requester->name;
  reporter.phone = requester->phone;
  reporter.smsConsent = requester->smsConsent.granted;
  site::SiteModel next = snapshot.model();
  next.shifts.push_back(shift);
  site::ScheduleVersion version;
  version.id = "extra-" + shift.id;
  version.publishedAt = site::toInstant(step.now);
  version.shiftIds = {shift.id};
  next.scheduleVersions.push_back(std::move(version));
  if (Status s = snapshot.replace(step.store.db(), std::move(next)); !s) return s.error();
  if (Status s = audit(step, "schedule.extra_shift",
                       {{"shift", shift.id},
                        {"station", shift.stationId},
                        {"start", site::formatLocal(shift.start.local)},
                        {"end", site::formatLocal(shift.end.local)},
                        {"by", requesterId}});
      !s) {
    return s.error();
  }
  return openSearch(desk, step, reporter, *snapshot.index().shift(shift.id), "",
                    CalloutOrigin::kExtraShift);
}

}  // namespace atoms::callout
