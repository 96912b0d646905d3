#include "daemon/service/sms_breaker_signals.h"

#include <string>

#include "domain/policy/breaker.h"

namespace atoms {

namespace {

constexpr std::string_view kOutreachBreaker = "BRK-OUT";

BreakerReport carrierReport(std::string_view carrier, bool ok, bool authFailure,
                            const std::string& error) {
  BreakerReport r{BreakerReport::Kind::kSuccess, connectionBreakerId(carrier), {}, "sms"};
  if (!ok) {
    r.kind = authFailure ? BreakerReport::Kind::kAuthFailure : BreakerReport::Kind::kFailure;
    r.detail = error;
  }
  return r;
}

}  // namespace

std::optional<BreakerReport> sendResultReport(std::string_view gateway,
                                              const drivers::SendResult& result) {
  const std::string_view primary = gateway.substr(0, gateway.find('+'));
  if (primary.empty()) return std::nullopt;
  if (result.ok()) return carrierReport(primary, true, false, {});
  // A refusal about the recipient or the content: the provider is there and answering.
  if (!result.error().aboutTheConnection()) return std::nullopt;
  return carrierReport(primary, false, result.error().authFailure, result.error().message);
}

std::vector<BreakerReport> SendAnswerSignals::handOver(std::string_view gateway,
                                                       const drivers::FailoverEvent& event) {
  handedOver_ = true;
  const std::size_t plus = gateway.find('+');
  if (plus == std::string_view::npos) return {};
  const std::string_view primary = gateway.substr(0, plus);
  const std::string_view fallback = gateway.substr(plus + 1);
  std::vector<BreakerReport> reports;
  if (!primary.empty()) {
    reports.push_back(carrierReport(primary, false, event.primaryAuthFailure, event.primaryError));
  }
  if (!fallback.empty()) {
    reports.push_back(
        carrierReport(fallback, event.fallbackOk, event.fallbackAuthFailure, event.fallbackError));
  }
  return reports;
}

std::optional<BreakerReport> SendAnswerSignals::answer(std::string_view gateway,
                                                       const drivers::SendResult& result) {
  if (handedOver_) {
    handedOver_ = false;
    return std::nullopt;
  }
  return sendResultReport(gateway, result);
}

std::optional<BreakerReport> outboxOutcomeReport(const sms::mailbox::OutboxRow& row) {
  if (row.state != sms::mailbox::OutboxState::kSent ||
      row.messageClass != sms::mailbox::MessageClass::kOutreach) {
    return std::nullopt;
  }
  return BreakerReport{BreakerReport::Kind::kSignal, std::string(kOutreachBreaker),
                       std::string(policy::kSignalOutreachSent), "sms"};
}

std::optional<BreakerReport> inboundReport(const sms::conversation::Classification& text) {
  if (!text.stopClass()) return std::nullopt;
  return BreakerReport{BreakerReport::Kind::kSignal, std::string(kOutreachBreaker),
                       std::string(policy::kSignalStopReply), "sms"};
}

}  // namespace atoms
