// ScheduleResource: the manager's week in the JSON API (docs/api.md, "Schedule"; decision 0032):
//   GET  /v1/schedule/weeks/{week}                 the week's draft (opened from the published
//                                                  week on first read), findings, labor cost
//   GET  /v1/schedule/weeks/{week}/history         its latest edits
//   POST /v1/schedule/weeks/{week}/edits           {"version","edit":{...},"overrideReason"?}
//   POST /v1/schedule/weeks/{week}/copy            {"version","from":"YYYY-MM-DD"}
//   POST /v1/schedule/weeks/{week}/apply-template  {"version","name"}
//   POST /v1/schedule/weeks/{week}/publish         {"version","overrideReason"?}
//   GET  /v1/schedule/templates, POST /v1/schedule/templates {"week","name"}
// {week} is the week's first local day, "2026-03-15". Anyone of the site reads; owners and
// managers of record change and publish (403 otherwise). A change made on a version that is no
// longer the draft's is 409 with "newer" (who, when); a change the labor rules deny is 422 with
// the findings; a publication whose shifts also changed outside the draft is 409 "conflict".
// Nothing is changed by a refused request.
//
// Threading: as ApiResource; the access functions run on the writer.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "base/time_point.h"
#include "daemon/api/api_resource.h"
#include "domain/week/week_desk.h"

namespace atoms::api {

inline constexpr char kSchedulePath[] = "/v1/schedule";

struct ScheduleAccess {
  RolesLookup roles;
  // The desk; nullptr when the box cannot schedule now (503).
  std::function<week::WeekDesk*()> desk;
  std::function<TimePoint()> now;
  // After a publication changed the site's shifts (the call-out flow reads them again).
  std::function<void()> published;
};

class ScheduleResource final : public ApiResource {
 public:
  explicit ScheduleResource(ScheduleAccess access) : access_(std::move(access)) {}
  std::vector<std::string> methods(std::string_view path) const override;
  ApiAnswer handle(const ApiRequest& request) override;

 private:
  ScheduleAccess access_;
};

}  // namespace atoms::api
