#include "daemon/service/sms_config.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "daemon/service/sync_subsystem.h"
#include "drivers/sms/modem/serial_port.h"
#include "drivers/sms/modem/submit_builder.h"
#include "sms/mailbox/message_checks.h"

namespace atoms {
namespace {

using drivers::modem::ModemConfig;
using std::chrono::milliseconds;

constexpr const char* kPinCredential = "modem-sim-pin";

std::string millis(milliseconds m) { return std::to_string(m.count()); }

ConfigValidator oneLine() {
  return [](const std::string& v) -> std::optional<std::string> {
    for (const unsigned char c : v) {
      if (c < 0x20 || c == 0x7f) return "one line of text without control characters";
    }
    if (v.size() > 80) return "at most 80 characters";
    return std::nullopt;
  };
}

ConfigValidator clockTimeValue() {
  return [](const std::string& v) -> std::optional<std::string> {
    if (sms::parseHhmm(v)) return std::nullopt;
    return "a local time HH:MM, e.g. 21:00";
  };
}

ConfigValidator optionalSmsc() {
  return [](const std::string& v) -> std::optional<std::string> {
    if (v.empty() || drivers::modem::isDialableNumber(v)) return std::nullopt;
    return "empty (the SIM's own) or a number such as +447785016005";
  };
}

ConfigValidator optionalE164() {
  return [](const std::string& v) -> std::optional<std::string> {
    if (v.empty() || sms::mailbox::isE164(v)) return std::nullopt;
    return "empty or an E.164 number such as +15550100000";
  };
}

ConfigValidator storageName() {
  return [](const std::string& v) -> std::optional<std::string> {
    if (v.empty() || v == "SM" || v == "ME" || v == "MT") return std::nullopt;
    return "empty (the modem's default), SM, ME or MT";
  };
}

ConfigValidator baudRate() {
  return [](const std::string& v) -> std::optional<std::string> {
    const std::string expected = "a standard baud rate from 1200 to 921600, e.g. 115200";
    if (integerIn(1200, 921600)(v)) return expected;
    if (!drivers::modem::isSupportedBaud(std::stoi(v))) return expected;
    return std::nullopt;
  };
}

milliseconds ms(const Poco::Util::AbstractConfiguration& c, const std::string& key) {
  return milliseconds(c.getInt(key));  // validated at load
}

// The SIM PIN from a file (or credential): 4 to 8 digits and one optional trailing newline; the
// file must not be readable by group or others. Errors name the key, never the content.
Result<std::string> readPinFile(const std::string& path, const std::string& source) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return makeError(source + " " + path + " cannot be read");
  if (!S_ISREG(st.st_mode)) return makeError(source + " " + path + " is not a regular file");
  if ((st.st_mode & 077) != 0) {
    return makeError(source + " " + path + " is readable by group or others; run chmod 600 " +
                     path);
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return makeError(source + " " + path + " cannot be read");
  std::ostringstream s;
  s << in.rdbuf();
  std::string pin = s.str();
  if (!pin.empty() && pin.back() == '\n') pin.pop_back();
  if (!pin.empty() && pin.back() == '\r') pin.pop_back();
  const bool digits =
      std::all_of(pin.begin(), pin.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
  if (!digits || pin.size() < 4 || pin.size() > 8) {
    return makeError(source + " " + path + " must hold the SIM PIN: 4 to 8 digits");
  }
  return pin;
}

Result<ModemConfig> loadModem(const Poco::Util::AbstractConfiguration& c,
                              const std::string& stateDir,
                              const std::optional<std::string>& credentialsDir) {
  ModemConfig m;
  m.serial.device = c.getString("sms.modem.device");
  if (m.serial.device.empty()) {
    return makeError(
        "sms.modem.device must be set when sms.driver = modem or sms.failover = modem (the "
        "modem's serial port, e.g. /dev/serial/by-id/usb-...-if02-port0)");
  }
  m.serial.baud = c.getInt("sms.modem.baud");
  m.serial.hardwareFlowControl = c.getString("sms.modem.flow-control") == "rtscts";
  m.mode =
      c.getString("sms.modem.mode") == "text" ? ModemConfig::Mode::kText : ModemConfig::Mode::kPdu;
  m.inbound = c.getString("sms.modem.inbound") == "direct" ? ModemConfig::Inbound::kDirect
                                                           : ModemConfig::Inbound::kStored;
  m.smsc = c.getString("sms.modem.smsc");
  m.storage = c.getString("sms.modem.storage");
  m.ownNumber = c.getString("sms.modem.own-number");
  m.requestStatusReports = c.getString("sms.modem.status-reports") == "on";
  if (const int minutes = c.getInt("sms.modem.validity-minutes"); minutes > 0) {
    m.validity = std::chrono::minutes(minutes);
  } else {
    m.validity.reset();
  }
  m.commandTimeout = ms(c, "sms.modem.command-timeout-ms");
  m.sendTimeout = ms(c, "sms.modem.send-timeout-ms");
  m.keepaliveInterval = ms(c, "sms.modem.keepalive-ms");
  m.storageScanInterval = ms(c, "sms.modem.storage-scan-ms");
  m.reassemblyTimeout = std::chrono::minutes(c.getInt("sms.modem.reassembly-minutes"));
  m.backoffInitial = ms(c, "sms.modem.backoff-min-ms");
  m.backoffMax = ms(c, "sms.modem.backoff-max-ms");
  if (m.backoffMax < m.backoffInitial) {
    return makeError("sms.modem.backoff-max-ms is below sms.modem.backoff-min-ms");
  }
  if (const std::string file = c.getString("sms.modem.sim-pin-file"); !file.empty()) {
    auto pin = readPinFile(file, "sms.modem.sim-pin-file");
    if (!pin) return pin.error();
    m.simPin = std::move(*pin);
  } else if (credentialsDir && !credentialsDir->empty()) {
    const std::string credential = *credentialsDir + "/" + kPinCredential;
    if (::access(credential.c_str(), F_OK) == 0) {
      auto pin = readPinFile(credential, std::string("the credential ") + kPinCredential);
      if (!pin) return pin.error();
      m.simPin = std::move(*pin);
    }
  }
  m.journalPath = modemJournalPath(stateDir);
  // The driver's own checks, as a backstop for what the rows above cannot see.
  if (Status s = drivers::modem::validateModemConfig(m); !s) {
    return makeError("sms.modem.*: " + s.message());
  }
  return m;
}

}  // namespace

std::string_view smsDriverName(SmsDriver driver) {
  switch (driver) {
    case SmsDriver::kOff:
      return "off";
    case SmsDriver::kSimulated:
      return "simulated";
    case SmsDriver::kTwilio:
      return "twilio";
    case SmsDriver::kModem:
      return "modem";
  }
  return "off";
}

std::string modemJournalPath(const std::string& stateDir) {
  return stateDir + "/sms-modem-sends.jsonl";
}

std::vector<ConfigKey> smsConfigKeys() {
  const sms::mailbox::RetryPolicy retry;
  const ModemConfig modem;
  const sms::OutreachSettings outreach;
  std::vector<ConfigKey> rows = {
      {"sms.driver", "off", "what carries text messages: off, simulated, twilio or modem",
       oneOf({"off", "simulated", "twilio", "modem"})},
      {"sms.failover", "off",
       "modem: with sms.driver = twilio, the modem (sms.modem.*) carries safety alerts Twilio "
       "does not take; off: none",
       oneOf({"off", "modem"})},
      {"sms.retry.initial-delay-ms", millis(retry.initialDelay),
       "wait after the first failed send of a message (doubles up to the max, jittered)",
       integerIn(100, 86'400'000)},
      {"sms.retry.max-delay-ms", millis(retry.maxDelay), "longest wait between two sends",
       integerIn(100, 86'400'000)},
      {"sms.retry.max-attempts", std::to_string(retry.maxAttempts),
       "sends of one message before it is failed for good", integerIn(1, 100)},
      {"sms.quiet-hours.start", sms::hhmm(outreach.quietStartMinute),
       "local time non-urgent texts stop for the night (HH:MM; equal to the end: none)",
       clockTimeValue()},
      {"sms.quiet-hours.end", sms::hhmm(outreach.quietEndMinute),
       "local time held texts go out in the morning (HH:MM)", clockTimeValue()},
      {"sms.daily-cap", std::to_string(outreach.dailyCap),
       "offers and notices per person per local day (replies and safety alerts not counted)",
       integerIn(1, 100)},
      {"sms.language", "en", "language of replies when the sender's is not known: en or es",
       oneOf({"en", "es"})},
      {"sms.safety.emergency-number", "911",
       "the number a safety report's answer says to call first (2-15 digits)",
       [](const std::string& v) -> std::optional<std::string> {
         sms::conversation::SafetySettings safety;
         safety.emergencyNumber = v;
         if (sms::conversation::validateSafetySettings(safety)) return std::nullopt;
         return "2-15 digits, like 911 or 112";
       }},
      {"sms.safety.reminder-minutes", "5",
       "how often the people alerted about a safety report are reminded until one replies ACK",
       integerIn(1, 60)},
      {"sms.checklists.file", "",
       "the site's checklists with due times (JSON, docs/checklists.md); empty: none",
       syncOptionalPath()},
      {"sms.contact.name", "",
       "who HELP names for people without a manager of record and for unknown numbers", oneLine()},
      {"sms.contact.phone", "", "that person's phone number, E.164 (may be empty)", optionalE164()},
      {"sms.modem.device", "", "the modem's serial device (required for the modem driver)",
       syncOptionalPath()},
      {"sms.modem.baud", std::to_string(modem.serial.baud), "serial line rate", baudRate()},
      {"sms.modem.flow-control", "none", "none or rtscts", oneOf({"none", "rtscts"})},
      {"sms.modem.mode", "pdu", "pdu (any text, long messages) or text (plain ASCII, one segment)",
       oneOf({"pdu", "text"})},
      {"sms.modem.inbound", "stored", "stored (read from the SIM, deleted after commit) or direct",
       oneOf({"stored", "direct"})},
      {"sms.modem.smsc", "", "service centre number; empty: the SIM's own", optionalSmsc()},
      {"sms.modem.storage", "", "message storage SM, ME or MT; empty: the modem's default",
       storageName()},
      {"sms.modem.own-number", "", "the SIM's number, recorded as the recipient of inbound texts",
       optionalE164()},
      {"sms.modem.status-reports", modem.requestStatusReports ? "on" : "off",
       "ask the network for delivery reports", oneOf({"on", "off"})},
      {"sms.modem.validity-minutes", std::to_string(modem.validity ? modem.validity->count() : 0),
       "how long the service centre keeps trying; 0: the network's default",
       integerIn(0, 63 * 7 * 24 * 60)},
      {"sms.modem.sim-pin-file", "",
       "file holding the SIM PIN (mode 0600); default: the credential modem-sim-pin, else none",
       syncOptionalPath()},
      {"sms.modem.command-timeout-ms", millis(modem.commandTimeout),
       "an AT command without an answer by then is a failure", integerIn(100, 600'000)},
      {"sms.modem.send-timeout-ms", millis(modem.sendTimeout),
       "how long the network may take to accept a message", integerIn(1000, 600'000)},
      {"sms.modem.keepalive-ms", millis(modem.keepaliveInterval), "idle probe of the modem",
       integerIn(100, 3'600'000)},
      {"sms.modem.storage-scan-ms", millis(modem.storageScanInterval),
       "how often stored messages are read again", integerIn(100, 3'600'000)},
      {"sms.modem.reassembly-minutes",
       std::to_string(
           std::chrono::duration_cast<std::chrono::minutes>(modem.reassemblyTimeout).count()),
       "how long the parts of a long incoming text are awaited before it is handled incomplete "
       "(parts of a handled text that come again are dropped for 6 times as long)",
       integerIn(1, 1440)},
      {"sms.modem.backoff-min-ms", millis(modem.backoffInitial),
       "first wait before reopening a modem that failed (doubles, jittered)",
       integerIn(10, 3'600'000)},
      {"sms.modem.backoff-max-ms", millis(modem.backoffMax), "longest wait before reopening",
       integerIn(10, 3'600'000)},
  };
  for (drivers::twilio::TwilioConfigKey& k : drivers::twilio::twilioConfigKeys()) {
    rows.push_back({std::move(k.key), std::move(k.defaultValue), std::move(k.description),
                    std::move(k.validate)});
  }
  return rows;
}

Result<SmsSettings> loadSmsSettings(const Poco::Util::AbstractConfiguration& c,
                                    const std::string& stateDir,
                                    const std::optional<std::string>& credentialsDir) {
  SmsSettings settings;
  const std::string driver = c.getString("sms.driver");
  if (driver == "simulated") settings.driver = SmsDriver::kSimulated;
  if (driver == "twilio") settings.driver = SmsDriver::kTwilio;
  if (driver == "modem") settings.driver = SmsDriver::kModem;
  settings.modemFailover = c.getString("sms.failover") == "modem";
  if (settings.modemFailover && settings.driver != SmsDriver::kTwilio) {
    return makeError(
        "sms.failover = modem needs sms.driver = twilio (the modem is the fallback "
        "for safety alerts Twilio does not take), not " +
        driver);
  }

  settings.retry.initialDelay = ms(c, "sms.retry.initial-delay-ms");
  settings.retry.maxDelay = ms(c, "sms.retry.max-delay-ms");
  settings.retry.maxAttempts = c.getInt("sms.retry.max-attempts");
  if (settings.retry.maxDelay < settings.retry.initialDelay) {
    return makeError("sms.retry.max-delay-ms is below sms.retry.initial-delay-ms");
  }
  if (Status s = sms::mailbox::validatePolicy(settings.retry); !s) {
    return makeError("sms.retry.*: " + s.message());
  }

  sms::conversation::ConversationSettings& talk = settings.conversation;
  talk.outreach.quietStartMinute = *sms::parseHhmm(c.getString("sms.quiet-hours.start"));
  talk.outreach.quietEndMinute = *sms::parseHhmm(c.getString("sms.quiet-hours.end"));
  talk.outreach.dailyCap = c.getInt("sms.daily-cap");
  talk.defaultLanguage = c.getString("sms.language") == "es"
                             ? sms::conversation::Language::kSpanish
                             : sms::conversation::Language::kEnglish;
  talk.safety.emergencyNumber = c.getString("sms.safety.emergency-number");
  talk.safety.realertEvery = std::chrono::minutes(c.getInt("sms.safety.reminder-minutes"));
  if (Status s = sms::conversation::validateConversationSettings(talk); !s) {
    return makeError("sms.quiet-hours/sms.daily-cap/sms.safety.*: " + s.message());
  }
  if (const std::string file = c.getString("sms.checklists.file"); !file.empty()) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return makeError("sms.checklists.file " + file + " cannot be read");
    std::ostringstream text;
    text << in.rdbuf();
    auto book = sms::conversation::parseChecklistBook(text.str());
    if (!book) return makeError("sms.checklists.file " + file + ": " + book.message());
    talk.checklists = std::move(*book);
  }
  settings.contact.name = c.getString("sms.contact.name");
  settings.contact.phone = c.getString("sms.contact.phone");

  if (settings.driver == SmsDriver::kTwilio) {
    auto twilio = drivers::twilio::loadTwilioConfig(
        [&c](const std::string& key) -> std::optional<std::string> {
          if (!c.hasProperty(key)) return std::nullopt;
          return c.getRawString(key);
        },
        credentialsDir);
    if (!twilio) return twilio.error();
    settings.twilio.emplace(std::move(*twilio));
    if (settings.twilio->providerConfirmsKeywords) {
      // Only what Twilio received (its MessageSid, "SM..." or "MM..."): a STOP sent to the
      // failover modem's own number reaches no provider, and the box confirms it.
      talk.providerConfirmsKeywords = [](const sms::mailbox::InboxRow& row) {
        return row.providerId.starts_with("SM") || row.providerId.starts_with("MM");
      };
    }
  }
  if (settings.driver == SmsDriver::kModem || settings.modemFailover) {
    auto modem = loadModem(c, stateDir, credentialsDir);
    if (!modem) return modem.error();
    settings.modem.emplace(std::move(*modem));
  }
  return settings;
}

}  // namespace atoms
