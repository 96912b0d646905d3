// KillSwitchResource: the site's kill switch in the JSON API (docs/api.md, "Kill switch"; seed 001
// section 7), on the approvals API's port with its tokens (api_resource.h):
//   GET  /v1/killswitch   {"level":"L1","setAt","setBy","reason","automated"}
//   POST /v1/killswitch   {"level":"L2","reason":"..."}: set by the token's person
// "level" is "L0".."L3" (or the number 0..3); "reason" is required (1..500 bytes, no control
// characters). Who may set which level, the gate and the audit are PanelKillSwitch's
// (domain/policy/panel_kill_switch.h): 200 {"outcome":"changed"|"unchanged","message",
// "killSwitch":{...}}; 403 {"error": why} for a refusal (audited there as killswitch.refused);
// 400 for a bad body; 403 for a token whose person is not on the site.
//
// Threading: as ApiResource; the access functions run on the writer.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "base/result.h"
#include "daemon/api/api_resource.h"
#include "domain/policy/kill_switch.h"
#include "domain/policy/panel_kill_switch.h"

namespace atoms::api {

inline constexpr char kKillSwitchPath[] = "/v1/killswitch";
inline constexpr std::size_t kMaxKillSwitchReasonBytes = 500;

struct KillSwitchRequest {
  policy::KillSwitchLevel level = policy::KillSwitchLevel::kL0;
  std::string reason;
};

// {"level":"L2"|2,"reason":"..."}: strict JSON, no other fields. Errors name the field.
Result<KillSwitchRequest> parseKillSwitchRequest(std::string_view body);

// The kill switch's state as the API shows it.
json::Value killSwitchJson(const policy::KillSwitchState& state);

// What the resource needs of the daemon, each called on the writer.
struct KillSwitchAccess {
  std::function<Result<policy::KillSwitchState>()> current;
  // The person's roles; nullopt when the person is not on the site.
  RolesLookup roles;
  std::function<Result<policy::PanelKillSwitchResult>(
      const std::string& person, const policy::PanelRoles& roles, const KillSwitchRequest& request)>
      set;
};

class KillSwitchResource final : public ApiResource {
 public:
  explicit KillSwitchResource(KillSwitchAccess access) : access_(std::move(access)) {}
  std::vector<std::string> methods(std::string_view path) const override;
  ApiAnswer handle(const ApiRequest& request) override;

 private:
  KillSwitchAccess access_;
};

}  // namespace atoms::api
