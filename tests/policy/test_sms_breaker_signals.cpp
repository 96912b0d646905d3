#include <boost/test/unit_test.hpp>
// What the SMS layer tells the breakers (daemon/service/sms_breaker_signals.h): a send's answer
// per gateway, outreach volume, stop-class replies; nothing else.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "daemon/service/sms_breaker_signals.h"
#include "domain/policy/breaker.h"
#include "drivers/sms/failover_gateway.h"

using namespace atoms;
using Kind = BreakerReport::Kind;

namespace {

// A carrier that gives the answers it is told, one per send (then accepts).
class ScriptedCarrier final : public drivers::SmsGateway {
 public:
  ScriptedCarrier(std::string name, std::vector<drivers::SendResult> answers)
      : name_(std::move(name)), answers_(std::move(answers)) {}
  std::string_view name() const override { return name_; }
  Status start(drivers::SmsSink&) override { return Status::success(); }
  void stop() override {}
  drivers::SendResult send(const drivers::OutboundSms&) override {
    if (next_ < answers_.size()) return answers_[next_++];
    return drivers::SendAccepted{name_ + "-ok", 1};
  }
  drivers::ReconcileResult reconcile(const drivers::OutboundSms&,
                                     drivers::SmsClock::time_point) override {
    return {};
  }

 private:
  std::string name_;
  std::vector<drivers::SendResult> answers_;
  std::size_t next_ = 0;
};

// A FailoverGateway whose hand-overs and answers feed a SendAnswerSignals, as SmsSubsystem wires
// them (onFailover inside send(), then the dispatcher's onSendResult).
struct WiredFailover {
  WiredFailover(std::vector<drivers::SendResult> twilio, std::vector<drivers::SendResult> modem)
      : gateway(std::make_unique<ScriptedCarrier>("twilio", std::move(twilio)),
                std::make_unique<ScriptedCarrier>("modem", std::move(modem)),
                [this](const drivers::FailoverEvent& e) {
                  for (auto& r : signals.handOver(gateway.name(), e)) reports.push_back(r);
                }) {}

  void send(bool urgent) {
    drivers::SendResult answer = gateway.send({"m1", "+15550100", "body", urgent});
    if (auto r = signals.answer(gateway.name(), answer)) reports.push_back(*r);
  }

  SendAnswerSignals signals;
  drivers::FailoverGateway gateway;
  std::vector<BreakerReport> reports;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(sms_breaker_signals)

BOOST_AUTO_TEST_CASE(aSendAnswerFeedsTheGatewaysConnectionBreaker) {
  auto ok = sendResultReport("twilio", drivers::SendAccepted{"SM1", 1});
  BOOST_REQUIRE(ok.has_value());
  BOOST_TEST(ok->breaker == "BRK-CONN-twilio");
  BOOST_TEST((ok->kind == Kind::kSuccess));
  auto failed = sendResultReport("modem", drivers::SendError{true, "no answer to AT+CMGS", true});
  BOOST_REQUIRE(failed.has_value());
  BOOST_TEST(failed->breaker == "BRK-CONN-modem");
  BOOST_TEST((failed->kind == Kind::kFailure));
  BOOST_TEST(failed->detail == "no answer to AT+CMGS");
  drivers::SendError refused{true, "Twilio did not take the message (HTTP 401)", false, true};
  auto auth = sendResultReport("twilio+modem", refused);
  BOOST_REQUIRE(auth.has_value());
  BOOST_TEST(auth->breaker == "BRK-CONN-twilio");  // behind a failover: the primary's answer
  BOOST_TEST((auth->kind == Kind::kAuthFailure));
}

BOOST_AUTO_TEST_CASE(aHandOverReportsEachCarriersOwnAnswerToItsOwnBreaker) {
  drivers::SendError refused{false, "Twilio did not take the message (HTTP 401)", false, true};
  WiredFailover wired({refused}, {});
  wired.send(/*urgent=*/true);  // Twilio refuses our credentials, the modem sends it
  BOOST_REQUIRE_EQUAL(wired.reports.size(), 2u);  // not also a success of BRK-CONN-twilio
  BOOST_TEST(wired.reports[0].breaker == "BRK-CONN-twilio");
  BOOST_TEST((wired.reports[0].kind == Kind::kAuthFailure));
  BOOST_TEST(wired.reports[0].detail == "Twilio did not take the message (HTTP 401)");
  BOOST_TEST(wired.reports[1].breaker == "BRK-CONN-modem");
  BOOST_TEST((wired.reports[1].kind == Kind::kSuccess));

  wired.reports.clear();
  wired.send(/*urgent=*/true);  // Twilio takes the next one itself: its success, nothing else
  BOOST_REQUIRE_EQUAL(wired.reports.size(), 1u);
  BOOST_TEST(wired.reports[0].breaker == "BRK-CONN-twilio");
  BOOST_TEST((wired.reports[0].kind == Kind::kSuccess));
}

BOOST_AUTO_TEST_CASE(aHandOverNeitherCarrierTookIsAFailureOfEach) {
  WiredFailover wired({drivers::SendError{true, "connection refused"}},
                      {drivers::SendError{true, "no network"}});
  wired.send(/*urgent=*/true);
  BOOST_REQUIRE_EQUAL(wired.reports.size(), 2u);  // the joined error is not reported again
  BOOST_TEST(wired.reports[0].breaker == "BRK-CONN-twilio");
  BOOST_TEST((wired.reports[0].kind == Kind::kFailure));
  BOOST_TEST(wired.reports[0].detail == "connection refused");
  BOOST_TEST(wired.reports[1].breaker == "BRK-CONN-modem");
  BOOST_TEST((wired.reports[1].kind == Kind::kFailure));
  BOOST_TEST(wired.reports[1].detail == "no network");
}

BOOST_AUTO_TEST_CASE(aMessageNotHandedOverIsThePrimarysAnswerAlone) {
  drivers::SendError refused{false, "Twilio did not take the message (HTTP 403)", false, true};
  WiredFailover wired({refused}, {});
  wired.send(/*urgent=*/false);  // not a safety alert: it waits for Twilio
  BOOST_REQUIRE_EQUAL(wired.reports.size(), 1u);
  BOOST_TEST(wired.reports[0].breaker == "BRK-CONN-twilio");
  BOOST_TEST((wired.reports[0].kind == Kind::kAuthFailure));
}

// A refusal about the recipient or the content says the provider is there and answering: it is
// not an outage (the issue "Call-outs and texts", defect 3: two STOPs opened BRK-CONN-twilio).
BOOST_AUTO_TEST_CASE(aRefusalAboutTheRecipientOrTheContentIsNoConnectionFailure) {
  using drivers::SendErrorCause;
  for (SendErrorCause cause : {SendErrorCause::kRecipient, SendErrorCause::kContent}) {
    drivers::SendError refused{false, "Twilio refused the message (HTTP 400, Twilio error 21610)"};
    refused.cause = cause;
    BOOST_TEST(!refused.aboutTheConnection());
    BOOST_TEST(!sendResultReport("twilio", refused).has_value(),
               drivers::sendErrorCauseName(cause));
  }
  drivers::SendError account{false, "Twilio refused the message (HTTP 400, Twilio error 21408)"};
  account.cause = SendErrorCause::kAccount;
  auto failed = sendResultReport("twilio", account);
  BOOST_REQUIRE(failed.has_value());
  BOOST_TEST((failed->kind == Kind::kFailure));
}

// An opted-out or unreachable number is the same number through the modem: no hand-over.
BOOST_AUTO_TEST_CASE(aRefusalAboutTheRecipientIsNotHandedToTheFallback) {
  drivers::SendError optedOut{false, "Twilio refused the message (HTTP 400, Twilio error 21610)"};
  optedOut.cause = drivers::SendErrorCause::kRecipient;
  WiredFailover wired({optedOut}, {});
  wired.send(/*urgent=*/true);
  BOOST_TEST(wired.reports.empty());  // neither a failure of Twilio nor a send by the modem
  drivers::SendError outage{true, "connection refused"};
  WiredFailover down({outage}, {});
  down.send(/*urgent=*/true);
  BOOST_REQUIRE_EQUAL(down.reports.size(), 2u);  // an outage still goes around
  BOOST_TEST(down.reports[1].breaker == "BRK-CONN-modem");
}

BOOST_AUTO_TEST_CASE(onlyOutreachThatWasSentCountsAsVolume) {
  sms::mailbox::OutboxRow row;
  row.state = sms::mailbox::OutboxState::kSent;
  row.messageClass = sms::mailbox::MessageClass::kOutreach;
  auto sent = outboxOutcomeReport(row);
  BOOST_REQUIRE(sent.has_value());
  BOOST_TEST(sent->breaker == "BRK-OUT");
  BOOST_TEST(sent->detail == std::string(policy::kSignalOutreachSent));
  row.messageClass = sms::mailbox::MessageClass::kReply;
  BOOST_TEST(!outboxOutcomeReport(row).has_value());
  row.messageClass = sms::mailbox::MessageClass::kSafety;
  BOOST_TEST(!outboxOutcomeReport(row).has_value());
  row.messageClass = sms::mailbox::MessageClass::kOutreach;
  row.state = sms::mailbox::OutboxState::kDelivered;  // the same text again: not counted twice
  BOOST_TEST(!outboxOutcomeReport(row).has_value());
}

// The signal reads the conversation layer's one classification of the text (classification.h).
BOOST_AUTO_TEST_CASE(aStopFamilyTextOrAStopLikeReplyIsAStopClassReply) {
  const sms::conversation::TextClassifier classifier;
  for (const char* body : {"STOP", "stop", "ALTO", "Unsubscribe", "ugh, enough texts",
                           "oh please, message me MORE", "déjame en paz"}) {
    auto stop = inboundReport(classifier.classify(body));
    BOOST_REQUIRE_MESSAGE(stop.has_value(), body);
    BOOST_TEST(stop->breaker == "BRK-OUT");
    BOOST_TEST(stop->detail == std::string(policy::kSignalStopReply));
  }
  for (const char* body : {"HELP", "Jamal didn't show", "YES", "", "stop by the office later",
                           "can you text me more details about Saturday?"}) {
    BOOST_TEST(!inboundReport(classifier.classify(body)).has_value(), body);
  }
}

BOOST_AUTO_TEST_SUITE_END()
