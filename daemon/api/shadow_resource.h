// ShadowResource: a person's verdict on the box's shadow decisions in the JSON API (docs/api.md,
// "Shadow decisions"; seed 001 section 6; docs/callouts.md "shadow"), on the approvals API's port
// with its tokens (api_resource.h):
//   GET  /v1/trust/staffing_scheduling/shadow        the shadow decisions awaiting a verdict (not
//                                                    judged yet, or judged unknown by the clock)
//   POST /v1/trust/staffing_scheduling/shadow/{id}   {"agree":true|false}  a person says whether
//                                                    they would have made the same call
// Both are for an owner of the site or a manager of record (a decision names who was ruled out
// and why): anyone else is a 403. A verdict is recorded like the time clock's (callout.shadow_
// judged by "panel:<person>", source "panel"; agreement +1 trust, disagreement counted against
// the 80%). Refused: an id that is no call-out (404), a call-out decided other than in shadow or a
// decision judged already (409); refusals are audited by the server (api.refused).
//
// Threading: as ApiResource; the access functions run on the writer.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/result.h"
#include "daemon/api/api_resource.h"

namespace atoms::api {

inline constexpr char kShadowPath[] = "/v1/trust/staffing_scheduling/shadow";

// {"agree":true|false}: strict JSON, no other fields. Errors name the field.
Result<bool> parseShadowVerdict(std::string_view body);

enum class ShadowJudgement {
  kJudged,         // recorded
  kUnknown,        // no such call-out
  kNotShadow,      // the call-out was not decided in shadow
  kAlreadyJudged,  // agreed or disagreed already
};

// What the resource needs of the daemon, each called on the writer. Errors are the store's.
struct ShadowAccess {
  RolesLookup roles;
  std::function<Result<json::Value>()> awaiting;  // {"decisions":[...]}
  std::function<Result<ShadowJudgement>(std::int64_t callout, bool agree,
                                        const std::string& person)>
      judge;
};

class ShadowResource final : public ApiResource {
 public:
  explicit ShadowResource(ShadowAccess access) : access_(std::move(access)) {}
  std::vector<std::string> methods(std::string_view path) const override;
  ApiAnswer handle(const ApiRequest& request) override;

 private:
  ShadowAccess access_;
};

}  // namespace atoms::api
