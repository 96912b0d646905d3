#include "daemon/panel/panel_config.h"

namespace atoms::panel {

std::vector<ConfigKey> panelAccountsConfigKeys() {
  return {
      {"panel.session_idle_minutes", "30",
       "minutes without a request after which a panel session ends (sign in again)",
       integerIn(5, 480)},
      {"panel.session_max_hours", "12",
       "hours after sign-in at which a panel session ends however busy it is", integerIn(1, 72)},
      {"panel.invite_valid_hours", "72",
       "hours an invite from `atoms-edge panel invite` or the panel stays usable",
       integerIn(1, 336)},
  };
}

PanelAuthOptions panelAuthOptionsFrom(const Poco::Util::AbstractConfiguration& config) {
  PanelAuthOptions o;
  o.sessionIdle = std::chrono::minutes(configInteger(config, "panel.session_idle_minutes"));
  o.sessionMax = std::chrono::hours(configInteger(config, "panel.session_max_hours"));
  o.inviteValidity = std::chrono::hours(configInteger(config, "panel.invite_valid_hours"));
  o.owners = splitConfigList(configString(config, "policy.owners"));
  return o;
}

}  // namespace atoms::panel
