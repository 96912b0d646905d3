// PolicyResource: the owner's controls of the box's autonomy in the JSON API (docs/api.md,
// "Trust and breakers"; seed 001 sections 6 and 8), on the approvals API's port with its tokens
// (api_resource.h):
//   GET  /v1/trust                         every function's trust, level, ceiling and the
//                                          conditions of its next step
//   POST /v1/trust/{function}/advance      {}                      the owner confirms the next step
//   POST /v1/trust/{function}/regress      {"to":"SHADOW","reason":"..."}  the owner narrows it
//   POST /v1/trust/{function}/incident     {"id":"inc-7","level":2}  an incident (SEV) against
//                                          the function; half-open breakers restart their probe
//   POST /v1/trust/{function}/incident/{id}/close  {}              its review closed it
//   GET  /v1/breakers                      every breaker: state, since, reason, probe progress
//   POST /v1/breakers/{id}/ack             {}                      a person closes a HalfOpen
//                                          breaker whose probe window is clean
// Advance, regress and incidents are for the site's owners (policy.owners); an ack for an owner or
// a manager of record; reading for anyone of the site. The checks and the audit (graduation.
// changed/refused, breaker.changed/ack_refused) are the policy service's: a refusal there is a
// 409 with its reason; a person without the role is a 403.
//
// Threading: as ApiResource; the access functions run on the writer.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "daemon/api/api_resource.h"
#include "domain/policy/panel_kill_switch.h"

namespace atoms::api {

inline constexpr char kTrustPath[] = "/v1/trust";
inline constexpr char kBreakersPath[] = "/v1/breakers";

struct RegressRequest {
  std::string to;  // "SHADOW", "PROPOSE" (as given; the policy service checks it)
  std::string reason;
};

// {"to":"SHADOW","reason":"..."}: strict JSON, no other fields. Errors name the field.
Result<RegressRequest> parseRegressRequest(std::string_view body);

struct IncidentRequest {
  std::string id;  // "inc-7": letters, digits, '_' and '-', at most 64
  int level = 0;   // 1..4
};

// {"id":"inc-7","level":2}: strict JSON, no other fields. Errors name the field.
Result<IncidentRequest> parseIncidentRequest(std::string_view body);

// What the resource needs of the daemon, each called on the writer. A Result's error from
// advance/regress/acknowledge/incident/closeIncident is the policy's refusal (409); the others'
// errors are the store's.
struct PolicyAccess {
  RolesLookup roles;
  std::function<Result<json::Value>()> trust;     // {"functions":[...]}
  std::function<Result<json::Value>()> breakers;  // {"breakers":[...]}
  std::function<Result<std::string>(const std::string& function, const std::string& person)>
      advance;
  std::function<Result<std::string>(const std::string& function, const RegressRequest& request,
                                    const std::string& person)>
      regress;
  std::function<Result<std::string>(const std::string& breaker, const std::string& person)>
      acknowledge;
  std::function<Result<std::string>(const std::string& function, const IncidentRequest& request,
                                    const std::string& person)>
      incident;
  std::function<Result<std::string>(const std::string& function, const std::string& id,
                                    const std::string& person)>
      closeIncident;
};

class PolicyResource final : public ApiResource {
 public:
  explicit PolicyResource(PolicyAccess access) : access_(std::move(access)) {}
  std::vector<std::string> methods(std::string_view path) const override;
  ApiAnswer handle(const ApiRequest& request) override;

 private:
  PolicyAccess access_;
};

}  // namespace atoms::api
