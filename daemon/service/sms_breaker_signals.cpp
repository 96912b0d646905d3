#include "daemon/service/sms_breaker_signals.h"

#include <string>

#include "daemon/policy/breaker.h"

namespace atoms {

namespace {

constexpr std::string_view kOutreachBreaker = "BRK-OUT";

}  // namespace

std::optional<BreakerReport> sendResultReport(std::string_view gateway,
                                              const drivers::SendResult& result) {
  const std::string_view primary = gateway.substr(0, gateway.find('+'));
  if (primary.empty()) return std::nullopt;
  BreakerReport r{BreakerReport::Kind::kSuccess, connectionBreakerId(primary), {}, "sms"};
  if (!result.ok()) {
    r.kind = result.error().authFailure ? BreakerReport::Kind::kAuthFailure
                                        : BreakerReport::Kind::kFailure;
    r.detail = result.error().message;
  }
  return r;
}

std::optional<BreakerReport> outboxOutcomeReport(const sms::mailbox::OutboxRow& row) {
  if (row.state != sms::mailbox::OutboxState::kSent ||
      row.messageClass != sms::mailbox::MessageClass::kOutreach) {
    return std::nullopt;
  }
  return BreakerReport{BreakerReport::Kind::kSignal, std::string(kOutreachBreaker),
                       std::string(policy::kSignalOutreachSent), "sms"};
}

std::optional<BreakerReport> inboundReport(const sms::mailbox::InboxRow& row,
                                           const sms::KeywordParser& keywords) {
  if (row.body.empty() || keywords.parse(row.body).kind != sms::KeywordKind::kOptOut) {
    return std::nullopt;
  }
  return BreakerReport{BreakerReport::Kind::kSignal, std::string(kOutreachBreaker),
                       std::string(policy::kSignalStopReply), "sms"};
}

}  // namespace atoms
