// The silent-stall watchdog's path to a human (docs/watchdog.md): a text sent straight through the
// SMS gateway from the watchdog's own thread, past the engine thread and the outbox, because
// either may be what is stuck (the outbox's store work runs on the engine thread). Every gateway
// may be called from any thread (sms_gateway.h, the drivers' own headers), and each text is marked
// urgent, so with sms.failover = modem it falls over to the modem like a safety alert.
//
// What this path gives up, on purpose: no outbox row, no retry and no delivery report. The
// watchdog repeats an unresolved stall every hour instead, and logs every attempt.
//
// Threading: the callback runs on the watchdog's thread; `gateway` and `logger` must outlive it.
// Errors: a refused send is logged (warning) with the gateway's one line; nothing is thrown.
#pragma once

#include <Poco/Logger.h>

#include <string>
#include <vector>

#include "base/clock.h"
#include "daemon/engine/stall_watchdog.h"
#include "drivers/sms/sms_gateway.h"

namespace atoms {

// Sends each stall's text to every number in `phones` (E.164; the site contact and the managers
// of record). The idempotency key is "watchdog-<stall key>-<unix minute>-<n>".
StallWatchdog::Callback directSmsEscalation(drivers::SmsGateway& gateway,
                                            std::vector<std::string> phones, const Clock& clock,
                                            Poco::Logger& logger);

}  // namespace atoms
