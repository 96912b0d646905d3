#include "daemon/demo/simulated_time_clock.h"

#include "domain/callout/callout_store.h"
#include "domain/site/site_repository.h"
#include "domain/terminal/punch_ledger.h"

namespace atoms::demo {

Result<int> SimulatedTimeClock::punchArrivals(SiteStore& store, TimePoint from, TimePoint to,
                                              TimePoint now) {
  auto model = site::loadSite(store.db());
  if (!model) return model.error();
  callout::CalloutStore callouts(store.db());
  drivers::terminal::PunchBatch batch;
  batch.terminal = "demo-door";
  for (const site::Shift& s : model->shifts) {
    const TimePoint start(s.start.utc.time_since_epoch());
    if (!s.assignee || start <= from || start > to || away_.count(*s.assignee) > 0) continue;
    auto open = callouts.openCalloutForShift(s.id);
    if (!open) return open.error();
    if (*open && (*open)->absentId == *s.assignee) continue;
    drivers::terminal::Punch punch;
    punch.id = "in-" + s.id + "-" + *s.assignee;
    punch.person = *s.assignee;
    punch.kind = drivers::terminal::PunchKind::kClockIn;
    punch.at = std::chrono::time_point_cast<std::chrono::milliseconds>(start);
    batch.punches.push_back(std::move(punch));
  }
  if (batch.punches.empty()) return 0;
  auto recorded = terminal::recordPunches(store, batch, now);
  if (!recorded) return recorded.error();
  return static_cast<int>(recorded->accepted.size());
}

}  // namespace atoms::demo
