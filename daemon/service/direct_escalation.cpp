#include "daemon/service/direct_escalation.h"

#include "daemon/log/log.h"
#include "sms/mailbox/message_checks.h"

namespace atoms {

StallWatchdog::Callback directSmsEscalation(drivers::SmsGateway& gateway,
                                            std::vector<std::string> phones, const Clock& clock,
                                            Poco::Logger& logger) {
  return [&gateway, phones = std::move(phones), &clock, &logger](const Stall& stall) {
    const auto minute =
        std::chrono::duration_cast<std::chrono::minutes>(clock.now().time_since_epoch()).count();
    for (std::size_t k = 0; k < phones.size(); ++k) {
      drivers::OutboundSms sms{
          "watchdog-" + stall.key + "-" + std::to_string(minute) + "-" + std::to_string(k + 1),
          phones[k], stall.text, true};
      const drivers::SendResult result = gateway.send(sms);
      if (result.ok()) {
        logInfo(logger, "silent stall: text sent",
                {{"stall", stall.key},
                 {"to", sms::mailbox::maskNumber(phones[k])},
                 {"provider_id", result.accepted().providerId}});
      } else {
        logWarning(logger, "silent stall: the text was not sent",
                   {{"stall", stall.key},
                    {"to", sms::mailbox::maskNumber(phones[k])},
                    {"error", result.error().message}});
      }
    }
  };
}

}  // namespace atoms
