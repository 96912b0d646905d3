// SimulatedTimeClock: the demo site's time clock by the door. As the simulated clock passes the
// start of a shift, its assignee clocks in, through the same path as a real terminal's punch
// (terminal::recordPunches: a site_punch row and a `punch` audit entry), so the time clock's
// no-show watch (domain/callout/no_show_watch.h) sees who is in. Nobody clocks in for a shift
// with an open call-out for them (they are not there), nor anyone the demo keeps away
// (stayAway(): the newcomer's way to watch the no-show question reach the lead on duty).
//
// Not synchronised: the store's writer (inside a StoreRunner's run()). Errors: store errors.
#pragma once

#include <set>
#include <string>

#include "base/clock.h"
#include "base/result.h"
#include "store/site_store.h"

namespace atoms::demo {

class SimulatedTimeClock {
 public:
  // From now on, `personId` does not clock in.
  void stayAway(const std::string& personId) { away_.insert(personId); }

  // Clocks in the assignees of the shifts starting in (from, to], each at their shift's start,
  // dated no later than `now` allows (kMaxClockSkew). Returns how many punches were recorded.
  Result<int> punchArrivals(SiteStore& store, TimePoint from, TimePoint to, TimePoint now);

 private:
  std::set<std::string> away_;
};

}  // namespace atoms::demo
