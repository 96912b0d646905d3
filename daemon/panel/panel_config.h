// The configuration keys of the panel's accounts (docs/configuration.md, "Panel accounts"),
// part of serviceConfigSchema(), and the PanelAuthOptions they give.
#pragma once

#include <Poco/Util/AbstractConfiguration.h>

#include <vector>

#include "daemon/panel/panel_auth.h"
#include "daemon/service/config_schema.h"

namespace atoms::panel {

// panel.session_idle_minutes, panel.session_max_hours, panel.invite_valid_hours.
std::vector<ConfigKey> panelAccountsConfigKeys();

// The options from a configuration validated against serviceConfigSchema() (owners from
// policy.owners). panelOrigin is left empty: the panel's server knows its own origin and sets it.
PanelAuthOptions panelAuthOptionsFrom(const Poco::Util::AbstractConfiguration& config);

}  // namespace atoms::panel
