#include "domain/forecast/early_release.h"

#include <chrono>

namespace atoms::forecast {

Result<std::optional<EarlyRelease>> quoteEarlyRelease(const labor::ChangeEvaluator& evaluator,
                                                      const site::SiteModel& model,
                                                      const site::TimeZone& zone,
                                                      const std::string& stationId,
                                                      int minimumHeads, site::Instant now) {
  // Quarter hours of UTC are the site's too: every zone's offset is a whole quarter hour.
  using Quarter = std::chrono::duration<std::int64_t, std::ratio<900>>;
  const site::Instant newEndUtc =
      std::chrono::time_point_cast<site::Seconds>(std::chrono::ceil<Quarter>(now) + Quarter(1));
  int onShift = 0;
  const site::Shift* latest = nullptr;
  for (const site::Shift& shift : model.shifts) {
    if (shift.stationId != stationId || !shift.assignee) continue;
    if (shift.start.utc > now || shift.end.utc <= now) continue;
    ++onShift;
    if (shift.end.utc <= newEndUtc) continue;
    if (latest == nullptr || shift.end.utc > latest->end.utc ||
        (shift.end.utc == latest->end.utc && shift.id > latest->id)) {
      latest = &shift;
    }
  }
  if (latest == nullptr || onShift <= minimumHeads) return std::optional<EarlyRelease>();

  const site::Stamp newEnd{newEndUtc, zone.toLocal(newEndUtc)};
  auto verdict = evaluator.evaluate(
      labor::ScheduleChange{labor::CutShift{latest->id, false, latest->start, newEnd}}, now);
  if (!verdict) return verdict.error();
  EarlyRelease release;
  release.shiftId = latest->id;
  release.personId = *latest->assignee;
  release.scheduledEnd = latest->end;
  release.newEnd = newEnd;
  release.premiumCents = verdict->premiumCents;
  release.premiumMinutes = verdict->premiumMinutes;
  release.approvers = verdict->approvers;
  return std::optional<EarlyRelease>(std::move(release));
}

}  // namespace atoms::forecast
