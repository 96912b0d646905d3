// The sms.* keys of the service configuration (docs/configuration.md, "Configuring SMS"): which
// driver carries the box's text messages (sms.driver), the outbox's retry limits (sms.retry.*),
// and each driver's own keys. The Twilio rows come from twilioConfigKeys() and the modem defaults
// from ModemConfig{} and RetryPolicy{}, so every default is written once.
//
// smsConfigKeys() gives the rows serviceConfigSchema() lists (each value checked on its own when
// the file is loaded); loadSmsSettings() then checks what only the whole can tell (a required key
// left empty, limits that contradict each other, a secret file that cannot be read) and builds the
// driver's configuration. Every error is one line naming the key; no error or log line holds a
// secret (the Twilio auth token, the SIM PIN).
//
// Pure functions apart from reading the secret files; thread-safe.
#pragma once

#include <Poco/Util/AbstractConfiguration.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "daemon/service/config_schema.h"
#include "drivers/sms/modem/modem_gateway.h"
#include "drivers/sms/twilio/twilio_config.h"
#include "sms/conversation/conversation_settings.h"
#include "sms/conversation/roster.h"
#include "sms/mailbox/retry_policy.h"

namespace atoms {

enum class SmsDriver { kOff, kSimulated, kTwilio, kModem };
std::string_view smsDriverName(SmsDriver driver);  // "off", "simulated", "twilio", "modem"

struct SmsSettings {
  SmsDriver driver = SmsDriver::kOff;
  sms::mailbox::RetryPolicy retry;
  std::optional<drivers::twilio::TwilioConfig> twilio;  // set for kTwilio
  std::optional<drivers::modem::ModemConfig> modem;     // set for kModem and modemFailover
  // sms.failover = modem (only with kTwilio): safety alerts Twilio does not take go by the modem.
  bool modemFailover = false;
  // The conversation layer: quiet hours, daily cap, reply language (sms.quiet-hours.*, ...).
  sms::conversation::ConversationSettings conversation;
  // Who HELP names when a person has no manager of record (sms.contact.*).
  sms::conversation::HumanContact contact;
};

// The rows of every sms.* key, for serviceConfigSchema().
std::vector<ConfigKey> smsConfigKeys();

// Where the modem driver keeps its send journal (sms-modem-sends.jsonl in the state directory).
std::string modemJournalPath(const std::string& stateDir);

// Reads the sms.* keys of `config` (validated, defaults layered under). stateDir holds the modem's
// send journal; credentialsDir is $CREDENTIALS_DIRECTORY (nullopt or empty: none), where the
// credentials "twilio-auth-token" and "modem-sim-pin" are looked for when no file is configured.
// Driver keys are read only for the driver chosen. Errors: "sms.modem.device must be set ...",
// "sms.retry.max-delay-ms is below sms.retry.initial-delay-ms", the Twilio loader's own lines.
Result<SmsSettings> loadSmsSettings(const Poco::Util::AbstractConfiguration& config,
                                    const std::string& stateDir,
                                    const std::optional<std::string>& credentialsDir);

}  // namespace atoms
