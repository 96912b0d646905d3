// WeekDesk::fill (week_desk.h): the plan of week_builder.h saved as one edit of the draft.
#include "domain/week/week_builder.h"
#include "domain/week/week_desk.h"
#include "domain/week/week_desk_loaded.h"

namespace atoms::week {

Result<FillOutcome> WeekDesk::fill(Week week, std::int64_t version, const FillRequest& request,
                                   const std::string& actor, TimePoint now) {
  auto l = load(week);
  if (!l) return l.error();
  auto opened = openIn(*l, actor, now);
  if (!opened) return opened.error();
  FillOutcome out;
  auto newer = staleCheck(opened->draft, version);
  if (!newer) return newer.error();
  if (*newer) {
    out.edit.status = DeskStatus::kStale;
    out.edit.newer = *newer;
    out.edit.view = std::move(*opened);
    out.edit.message =
        staleMessage(**newer, "the plan was asked on version " + std::to_string(version) +
                                  " and was not made. Reload and try again.");
    return out;
  }

  BuildInput in;
  in.live = &l->live;
  in.rules = &*l->rules;
  in.options = options_;
  in.zone = &*l->zone;
  in.draft = &opened->draft;
  in.now = site::toInstant(now);
  in.mode = request.mode;
  in.requirements = request.requirements;
  in.limits = request.limits;
  auto plan = buildWeek(in);
  if (!plan) return plan.error();
  out.plan = std::move(*plan);
  if (out.plan.shifts == opened->draft.shifts) {
    out.edit.view = std::move(*opened);
    out.edit.message = "Nothing changed: " + out.plan.summary + ".";
    return out;
  }
  PlanWeekEdit edit{out.plan.shifts, out.plan.nextShift, out.plan.summary};
  auto saved = editLoaded(*l, version, edit, actor, now, std::nullopt);
  if (!saved) return saved.error();
  out.edit = std::move(*saved);
  return out;
}

}  // namespace atoms::week
