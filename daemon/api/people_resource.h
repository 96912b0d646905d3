// PeopleResource: the panel's People page in one read (docs/api.md, "People"):
//   GET /v1/people
//   {"now","view":"manager"|"lead","people":[{"id","name","stations":[{"id","name"}],
//                    "today":[{"shift","station","start","end","state"}], ...manager view only:
//                    "certifications":[{"id","name","expires","state"}],"minor",
//                    "managerOfRecord":{"id","name"}|null,"panelRole","panelAccount",
//                    "phone","sms":{"consent","optedOut"},"offersPaused":{"since"}|null,
//                    "mayResume"}]}
// Who sees what (docs/decisions/0024-panel-people-and-safety.md): owners and managers of record get
// the manager view; anyone else of the site (a lead) gets names, stations and today's shifts
// only. In the manager view the phone number is whole for an owner and for the person's own
// manager of record, masked for everyone else. A certification's state is "ok", "expiring"
// (within kCertificationWarningDays) or "expired"; "minor" is the stored flag or an age under 18
// from the birth date, which is never sent. Opt-out is the person's own: shown, never changed
// here. Paused offers are resumed through POST /v1/people/{id}/offers/resume (offers_resource.h);
// "mayResume" says whether the caller may. 403 for a caller not on the site.
//
// Threading: as ApiResource; every access function runs on the writer.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "base/time_point.h"
#include "daemon/api/api_resource.h"
#include "store/database.h"

namespace atoms::api {

inline constexpr int kCertificationWarningDays = 30;

struct PeopleAccess {
  RolesLookup roles;
  std::function<Database&()> db;
  std::function<TimePoint()> now;
  std::vector<std::string> owners;  // policy.owners
  std::chrono::minutes noShowGrace{10};
};

class PeopleResource final : public ApiResource {
 public:
  explicit PeopleResource(PeopleAccess access) : access_(std::move(access)) {}
  std::vector<std::string> methods(std::string_view path) const override;
  ApiAnswer handle(const ApiRequest& request) override;

 private:
  PeopleAccess access_;
};

}  // namespace atoms::api
