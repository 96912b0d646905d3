// The call-out desk's settings as the service reads them from its configuration (callout.*,
// labor.rules_dir, terminal.listen; daemon/service/config_schema.cpp holds every default). Only
// the values: the gate and the trust feedback are wired by EdgeServices.
#pragma once

#include <Poco/Util/AbstractConfiguration.h>

#include "daemon/sms/conversation_processor.h"

namespace atoms {

// Precondition: config passed validateConfig() (serve checks it at start), or lacks the keys.
sms_site::CalloutOptions readCalloutConfig(const Poco::Util::AbstractConfiguration& config);

}  // namespace atoms
