// What the SMS layer tells the site's breakers (docs/policy-breakers.md; SiteBreakers): pure
// translations of SMS events into BreakerReports, which SmsSubsystem hands to
// PolicySubsystem::reportBreaker. nullopt: the event says nothing to any breaker.
// - a send's answer -> BRK-CONN-<gateway>: accepted is a success, a refused credential an auth
//   failure, any other transport or account error a failure; a refusal about the recipient (opted
//   out at the provider, an invalid number, a landline) or the content says nothing
//   (drivers::SendErrorCause). Behind a failover ("twilio+modem") each carrier's own
//   answer goes to its own breaker (SendAnswerSignals below; docs/policy-breakers.md).
// - an outreach text that reached `sent` -> BRK-OUT outreach.sent (replies in a person's thread and
//   safety alerts are not outreach volume).
// - an inbound STOP-family text (STOP, ALTO, "leave me alone" ... sms/text/keywords.h), or a
//   stop-like reply ("ugh, enough texts", "oh please, message me MORE": sms/text/stop_like.h,
//   which seed 001 treats as a stop for offers) -> BRK-OUT outreach.stop_reply, counted once per
//   stored message. It reads the conversation layer's classification of the text
//   (sms/conversation/classification.h, stopClass()), the one its reply came from; it never reads
//   the text again.
// Threading: pure functions. SendAnswerSignals: see there.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "daemon/service/site_breakers.h"
#include "drivers/sms/failover_gateway.h"
#include "drivers/sms/sms_gateway.h"
#include "sms/conversation/classification.h"
#include "sms/mailbox/outbox_row.h"

namespace atoms {

// A send's answer as the dispatcher sees it; behind a failover ("twilio+modem") the primary's
// (what a send not handed over returns).
std::optional<BreakerReport> sendResultReport(std::string_view gateway,
                                              const drivers::SendResult& result);

// Each carrier's own send answers, from the dispatcher's onSendResult (answer) and a
// FailoverGateway's onFailover (handOver). A hand-over reports the primary's failure to
// BRK-CONN-<primary> (an auth failure kept) and the fallback's answer to BRK-CONN-<fallback>; the
// dispatcher's answer for that same send, which follows on the same thread (the fallback's
// acceptance, or both carriers' errors joined), is then not reported again, so a message the
// fallback carried is never a success of the primary. Any other answer is sendResultReport's.
// When the dispatcher could not record a handed-over send (it then reports nothing), the next
// answer is the one skipped: one sample of the primary's breaker, after a store failure.
// Threading: not thread-safe; use it on the dispatcher thread, where both callbacks run.
class SendAnswerSignals {
 public:
  std::vector<BreakerReport> handOver(std::string_view gateway,
                                      const drivers::FailoverEvent& event);
  std::optional<BreakerReport> answer(std::string_view gateway, const drivers::SendResult& result);

 private:
  bool handedOver_ = false;  // a hand-over was reported; its dispatcher answer is still to come
};

std::optional<BreakerReport> outboxOutcomeReport(const sms::mailbox::OutboxRow& row);
std::optional<BreakerReport> inboundReport(const sms::conversation::Classification& text);

}  // namespace atoms
