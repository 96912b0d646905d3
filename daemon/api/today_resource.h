// TodayResource: the panel's Today page in one read (docs/api.md, "Today"):
//   GET /v1/today  {"now","site":{"id","name","timeZone"},
//                   "floor":[{"shift","station","person","start","end","state","since"}],
//                   "callouts":[...open call-outs, and covered ones whose shift has not
//                               ended, with their offers, callout_json.h],
//                   "approvals":{"pending","nextExpiry","proposals"},
//                   "safety":[{"id","openedAt","category","rounds"}],
//                   "killSwitch":{...} or null, "breakers":[...those not closed],
//                   "sync":{"configured","logSize","ackedSize","backlog"},
//                   "sales":{"day","soFar","projected","projectionSource","pos"} or null}
// "approvals": the call-out desk's items waiting ("pending", the next to expire) and the staffing
// proposals waiting on the site's day ("proposals", forecast_resource.h).
// "floor" is the floor board (domain/site/floor_board.h) with the no-show grace of the call-out
// desk. "sales" is labor against sales so far and projected (sales_labor_resource.h,
// todaySalesJson); null when the box does not work it out or could not now (Today still shows
// the rest). Anyone of the site may read it; 403 for a caller not on the site.
//
// Threading: as ApiResource; every access function runs on the writer.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "base/time_point.h"
#include "daemon/api/api_resource.h"
#include "domain/policy/kill_switch.h"
#include "store/site_store.h"

namespace atoms::api {

inline constexpr char kTodayPath[] = "/v1/today";

struct TodayAccess {
  RolesLookup roles;
  std::function<SiteStore&()> store;
  std::function<TimePoint()> now;
  std::chrono::minutes noShowGrace{10};
  bool syncConfigured = false;  // a broker is set (sync.broker): "sync" says "configured"
  // Null when the box runs no policy service: then "killSwitch" is null and "breakers" empty.
  std::function<Result<policy::KillSwitchState>()> killSwitch;
  std::function<json::Array()> breakersNotClosed;
  // Today's labor against sales; empty: "sales" is null.
  std::function<Result<json::Value>()> sales;
};

class TodayResource final : public ApiResource {
 public:
  explicit TodayResource(TodayAccess access) : access_(std::move(access)) {}
  std::vector<std::string> methods(std::string_view path) const override;
  ApiAnswer handle(const ApiRequest& request) override;

 private:
  TodayAccess access_;
};

}  // namespace atoms::api
