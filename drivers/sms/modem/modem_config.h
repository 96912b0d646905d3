// ModemConfig: how the modem driver (modem_gateway.h) talks to its modem, with every default; the
// operator's reference is docs/sms-modem.md, "Configuration". validateModemConfig() names the first
// bad field in one line.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "base/random.h"
#include "base/result.h"
#include "drivers/sms/modem/serial_port.h"
#include "drivers/sms/sms_gateway.h"

namespace atoms::drivers::modem {

// Something the service's log should say (ModemConfig::onNotice). Numbers are as the network
// gave them: the service masks them before it logs.
struct ModemNotice {
  enum class Kind {
    kRepeatedPart,  // a part of a message already handled came again and was dropped (once per
                    // part: later repeats of it are only counted in health().duplicateParts)
    kSendRefused,   // the modem answered AT+CMGS with an error (+CMS ERROR): nothing went out
  };
  Kind kind = Kind::kSendRefused;
  std::string number;  // the sender (kRepeatedPart) or the recipient (kSendRefused)
  int cmsError = -1;   // kSendRefused: the +CMS ERROR code; -1 for another error answer
  std::string detail;  // one line: "part 2 of 3, reference 77", "AT+CMGS: +CMS ERROR: 38"
};

struct ModemConfig {
  SerialSettings serial;  // device, baud, RTS/CTS

  enum class Mode { kPdu, kText };
  Mode mode = Mode::kPdu;
  enum class Inbound { kStored, kDirect };
  Inbound inbound = Inbound::kStored;

  std::string smsc;       // "" = the SIM's own SMSC (the usual case); else "+CC..."
  std::string simPin;     // "" = none; sent only when the SIM asks for it, never logged
  std::string storage;    // message storage for AT+CPMS ("SM", "ME", "MT"); "" = modem default
  std::string ownNumber;  // InboundSms::to; "" when unknown
  bool requestStatusReports = true;
  std::optional<std::chrono::minutes> validity = std::chrono::hours(24);  // relative TP-VP

  std::chrono::milliseconds commandTimeout{5000};
  std::chrono::milliseconds promptTimeout{5000};  // AT+CMGS until "> "
  std::chrono::milliseconds sendTimeout{60000};   // after the PDU: the network round trip
  std::chrono::milliseconds queueTimeout{30000};  // how long send() waits for a ready modem
  std::chrono::milliseconds keepaliveInterval{30000};
  std::chrono::milliseconds storageScanInterval{60000};
  std::chrono::milliseconds refusedRetryInterval{30000};  // offer a refused message again
  // How long the parts of a long message are awaited (sms.modem.reassembly-minutes, 1 to 1440);
  // the parts of a handled message are recognised as repeats for 6 times as long.
  std::chrono::milliseconds reassemblyTimeout{std::chrono::minutes(10)};
  std::chrono::milliseconds quietTime{200};  // silence that ends a drain after a timeout
  std::chrono::milliseconds backoffInitial{1000};
  std::chrono::milliseconds backoffMax{60000};
  int maxConsecutiveFailures = 2;

  // Local record of sends for reconcile() (send_journal.h); "" = none (reconcile: kUnknown).
  std::string journalPath;
  std::chrono::hours journalRetention{24 * 7};

  // Wall-clock time for timestamps, reassembly and retry deadlines; tests inject a fake one.
  std::function<SmsClock::time_point()> now = [] { return SmsClock::now(); };
  // Randomness (base/random.h): the first 8-bit concatenation reference (drawn by the gateway's
  // constructor, on the caller's thread) and the jitter of the reopen backoff (on the worker
  // thread, after start()); never called from both at once. Empty (the default): a generator of
  // the gateway's own, seeded from std::random_device. A seeded one makes a gateway's choices
  // repeatable.
  UnitRandom random;
  // Called on the worker's thread for what the service should log (ModemNotice); must be quick
  // and must not call the gateway. Empty: nothing is told.
  std::function<void(const ModemNotice&)> onNotice;
};

// Ok, or one line naming the first bad field.
Status validateModemConfig(const ModemConfig& config);

// A plain storage name ("SM", "ME", "MT": 2 to 4 capitals). Storage names come from the modem
// (URCs); only plain names are ever put into a command.
bool isStorageName(std::string_view s);

}  // namespace atoms::drivers::modem
