#include "daemon/service/callout_config.h"

#include <chrono>

#include "daemon/service/config_schema.h"

namespace atoms {

sms_site::CalloutOptions readCalloutConfig(const Poco::Util::AbstractConfiguration& config) {
  const auto minutes = [&config](const char* key) {
    return std::chrono::minutes(configInteger(config, key));
  };
  sms_site::CalloutOptions options;
  options.laborDir = configString(config, "labor.rules_dir");
  options.settings.waveSize = static_cast<int>(configInteger(config, "callout.wave_size"));
  options.settings.waveInterval = minutes("callout.wave_interval_minutes");
  options.settings.escalateAfter = minutes("callout.escalate_after_minutes");
  options.settings.approvalExpiry = minutes("callout.approval_expiry_minutes");
  options.settings.lookahead = std::chrono::hours(configInteger(config, "callout.lookahead_hours"));
  options.settings.generalManager = configString(config, "callout.general_manager");
  options.noShowGrace = minutes("callout.no_show_grace_minutes");
  options.timeClocks = !configString(config, "terminal.listen").empty();
  return options;
}

}  // namespace atoms
