#include <boost/test/unit_test.hpp>
// What the SMS layer tells the breakers (daemon/service/sms_breaker_signals.h): a send's answer
// per gateway, outreach volume, stop-class replies; nothing else.
#include <string>

#include "daemon/policy/breaker.h"
#include "daemon/service/sms_breaker_signals.h"

using namespace atoms;
using Kind = BreakerReport::Kind;

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

BOOST_AUTO_TEST_CASE(aStopFamilyTextIsAStopClassReply) {
  const sms::KeywordParser keywords;
  sms::mailbox::InboxRow row;
  for (const char* body : {"STOP", "stop", "ALTO", "Unsubscribe"}) {
    row.body = body;
    auto stop = inboundReport(row, keywords);
    BOOST_REQUIRE_MESSAGE(stop.has_value(), body);
    BOOST_TEST(stop->breaker == "BRK-OUT");
    BOOST_TEST(stop->detail == std::string(policy::kSignalStopReply));
  }
  for (const char* body : {"HELP", "Jamal didn't show", "YES", ""}) {
    row.body = body;
    BOOST_TEST(!inboundReport(row, keywords).has_value(), body);
  }
}

BOOST_AUTO_TEST_SUITE_END()
