// What the SMS layer tells the site's breakers (docs/policy-breakers.md; SiteBreakers): pure
// translations of SMS events into BreakerReports, which SmsSubsystem hands to
// PolicySubsystem::reportBreaker. nullopt: the event says nothing to any breaker.
// - a send's answer -> BRK-CONN-<gateway>: accepted is a success, a refused credential an auth
//   failure, any other error a failure. Behind a failover ("twilio+modem") the answer is the
//   primary's: a fallback's own answers are not reported (see docs/policy-breakers.md).
// - an outreach text that reached `sent` -> BRK-OUT outreach.sent (replies in a person's thread and
//   safety alerts are not outreach volume).
// - an inbound STOP-family text (STOP, ALTO, "leave me alone" ... sms/text/keywords.h) -> BRK-OUT
//   outreach.stop_reply, counted once per stored message.
// Threading: pure functions; the parser's parse() is const.
#pragma once

#include <optional>
#include <string_view>

#include "daemon/service/site_breakers.h"
#include "drivers/sms/sms_gateway.h"
#include "sms/mailbox/inbox.h"
#include "sms/mailbox/outbox_row.h"
#include "sms/text/keywords.h"

namespace atoms {

std::optional<BreakerReport> sendResultReport(std::string_view gateway,
                                              const drivers::SendResult& result);
std::optional<BreakerReport> outboxOutcomeReport(const sms::mailbox::OutboxRow& row);
std::optional<BreakerReport> inboundReport(const sms::mailbox::InboxRow& row,
                                           const sms::KeywordParser& keywords);

}  // namespace atoms
