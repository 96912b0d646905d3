// What happens to a message whose send was interrupted: by a crash between claim and send, between
// the gateway accepting it and the outbox recording that, or by an answer lost on the way back.
// The interruption is reproduced in-process by taking the dispatcher's steps by hand and stopping
// half-way; the SIGKILL test (test_crash.cpp) does the same with a real process.
#include <boost/test/unit_test.hpp>

#include "tests/sms/mailbox/mailbox_fixture.h"

namespace atoms::sms::mailbox {
namespace {

using drivers::SimulatedSmsGateway;
using testing::MailboxFixture;
using namespace std::chrono_literals;

// Claims the row as a dispatcher would, and returns it: the "process" then dies.
OutboxRow claim(MailboxFixture& f) {
  auto claimed = f.outbox->claimNext();
  BOOST_TEST_REQUIRE(claimed.ok(), claimed.message());
  BOOST_TEST_REQUIRE(claimed->has_value());
  return **claimed;
}

BOOST_AUTO_TEST_SUITE(recovery)

BOOST_AUTO_TEST_CASE(aCrashBeforeTheSendSendsItOnceAfterRestart) {
  MailboxFixture f;
  f.gateway.setHonourIdempotencyKeys(false);  // any second send would be a second message
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("m")).ok());
  claim(f);
  BOOST_TEST(f.row("m").state == OutboxState::kSending);

  BOOST_TEST_REQUIRE(f.dispatcher()->runPass().ok());  // the restarted dispatcher
  BOOST_TEST(f.gateway.reconcileCalls() == 1u);
  BOOST_TEST(f.gateway.transmissions().size() == 1u);
  const OutboxRow row = f.row("m");
  BOOST_TEST(row.state == OutboxState::kSent);
  BOOST_TEST(row.attempts == 2);  // the interrupted attempt counts towards the cap
}

BOOST_AUTO_TEST_CASE(aCrashAfterTheGatewayAcceptedNeverSendsItAgain) {
  MailboxFixture f;
  f.gateway.setHonourIdempotencyKeys(false);
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("m")).ok());
  const OutboxRow row = claim(f);
  const drivers::SendResult accepted = f.gateway.send(Outbox::outboundSms(row));
  BOOST_TEST_REQUIRE(accepted.ok());
  // ... and the process dies before recording it.

  BOOST_TEST_REQUIRE(f.dispatcher()->runPass().ok());
  BOOST_TEST(f.gateway.transmissions().size() == 1u);
  const OutboxRow after = f.row("m");
  BOOST_TEST(after.state == OutboxState::kSent);
  BOOST_TEST(after.providerId == accepted.accepted().providerId);
  BOOST_TEST(!after.uncertain);
}

BOOST_AUTO_TEST_CASE(aLostAnswerIsReconciledNotSentAgain) {
  MailboxFixture f;
  f.gateway.setHonourIdempotencyKeys(false);
  f.gateway.loseAnswerAfterAccepting(1);
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("m")).ok());
  auto d = f.dispatcher();
  BOOST_TEST_REQUIRE(d->runPass().ok());
  OutboxRow row = f.row("m");
  BOOST_TEST(row.state == OutboxState::kSending);  // in doubt until the gateway says
  BOOST_TEST(row.lastError.find("checking with the gateway") != std::string::npos, row.lastError);
  BOOST_TEST(f.gateway.reconcileCalls() == 0u);

  f.clock.advance(9s);
  BOOST_TEST_REQUIRE(d->runPass().ok());
  BOOST_TEST(f.gateway.reconcileCalls() == 1u);
  BOOST_TEST(f.gateway.transmissions().size() == 1u);
  row = f.row("m");
  BOOST_TEST(row.state == OutboxState::kSent);
  BOOST_TEST(row.providerId == f.gateway.transmissions()[0].providerId);
}

BOOST_AUTO_TEST_CASE(anUnknownOutcomeCountsAsSentIsFlaggedAndIsNeverSentAgain) {
  MailboxFixture f;
  f.gateway.setReconcileMode(SimulatedSmsGateway::ReconcileMode::kUnknown);  // like a modem
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("m")).ok());
  claim(f);
  auto d = f.dispatcher();
  BOOST_TEST_REQUIRE(d->runPass().ok());
  f.clock.advance(1h);
  BOOST_TEST_REQUIRE(d->runPass().ok());

  BOOST_TEST(f.gateway.sendCalls() == 0u);
  const OutboxRow row = f.row("m");
  BOOST_TEST(row.state == OutboxState::kSent);
  BOOST_TEST(row.uncertain);
  auto flagged = f.outbox->list(OutboxQuery{std::nullopt, true, 10});
  BOOST_TEST_REQUIRE(flagged->size() == 1u);
  BOOST_TEST((*flagged)[0].id == "m");
  const auto entries = f.entries("sms.out.uncertain");
  BOOST_TEST_REQUIRE(entries.size() == 1u);
  BOOST_TEST(entries[0].body.find("resent")->asBool() == false);
}

BOOST_AUTO_TEST_CASE(anUnknownOutcomeOfASafetyAlertSendsItAgain) {
  MailboxFixture f;
  f.gateway.setReconcileMode(SimulatedSmsGateway::ReconcileMode::kUnknown);
  OutboundRequest alert = MailboxFixture::request("alert", "Fire alarm: leave by the back door.");
  alert.messageClass = MessageClass::kSafety;
  BOOST_TEST(f.outbox->enqueue(alert).ok());
  claim(f);
  BOOST_TEST_REQUIRE(f.dispatcher()->runPass().ok());
  BOOST_TEST(f.gateway.transmissions().size() == 1u);
  const OutboxRow row = f.row("alert");
  BOOST_TEST(row.state == OutboxState::kSent);
  BOOST_TEST(!row.uncertain);
  const auto entries = f.entries("sms.out.uncertain");
  BOOST_TEST_REQUIRE(entries.size() == 1u);
  BOOST_TEST(entries[0].body.find("resent")->asBool() == true);
}

BOOST_AUTO_TEST_CASE(anUnreachableGatewayIsAskedAgainLaterAndNothingIsSentMeanwhile) {
  MailboxFixture f;
  f.gateway.setHonourIdempotencyKeys(false);
  f.gateway.setReconcileMode(SimulatedSmsGateway::ReconcileMode::kUnavailable);
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("m")).ok());
  const OutboxRow row = claim(f);
  BOOST_TEST_REQUIRE(f.gateway.send(Outbox::outboundSms(row)).ok());  // accepted, then the crash

  auto d = f.dispatcher();
  BOOST_TEST_REQUIRE(d->runPass().ok());
  OutboxRow after = f.row("m");
  BOOST_TEST(after.state == OutboxState::kSending);
  BOOST_TEST(after.reconcileAttempts == 1);
  BOOST_TEST((after.nextAttemptAt == f.clock.now() + 9s));

  f.gateway.setReconcileMode(SimulatedSmsGateway::ReconcileMode::kTruthful);
  f.clock.advance(9s);
  BOOST_TEST_REQUIRE(d->runPass().ok());
  BOOST_TEST(f.row("m").state == OutboxState::kSent);
  BOOST_TEST(f.gateway.transmissions().size() == 1u);
}

BOOST_AUTO_TEST_CASE(aGatewayUnreachableForTooLongFallsBackToTheUncertainPolicy) {
  MailboxFixture f;  // 5 attempts
  f.gateway.setReconcileMode(SimulatedSmsGateway::ReconcileMode::kUnavailable);
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("m")).ok());
  claim(f);
  auto d = f.dispatcher();
  for (int i = 0; i < 8; ++i) {
    BOOST_TEST_REQUIRE(d->runPass().ok());
    f.clock.advance(10min);
  }
  BOOST_TEST(f.gateway.reconcileCalls() == 5u);
  BOOST_TEST(f.row("m").state == OutboxState::kSent);
  BOOST_TEST(f.row("m").uncertain);
  BOOST_TEST(f.gateway.sendCalls() == 0u);
}

BOOST_AUTO_TEST_CASE(aMessageNeverReceivedAfterTheLastAttemptFails) {
  RetryPolicy policy = testing::testPolicy();
  policy.maxAttempts = 1;
  MailboxFixture f(policy);
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("m")).ok());
  claim(f);
  BOOST_TEST_REQUIRE(f.dispatcher()->runPass().ok());
  BOOST_TEST(f.row("m").state == OutboxState::kFailed);
  BOOST_TEST(f.gateway.sendCalls() == 0u);
  BOOST_TEST(f.entries("sms.out.failed").size() == 1u);
}

BOOST_AUTO_TEST_CASE(aStaleOutcomeIsNotRecordedOverANewerState) {
  MailboxFixture f;
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("m")).ok());
  const OutboxRow row = claim(f);
  BOOST_TEST_REQUIRE(f.dispatcher()->runPass().ok());  // reconciled and re-sent meanwhile
  Status stale =
      f.outbox->recordSend(row, "simulated", drivers::SendError{true, "late answer", false});
  BOOST_TEST(stale.message().find("is no longer being sent") != std::string::npos, stale.message());
  BOOST_TEST(f.row("m").state == OutboxState::kSent);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::sms::mailbox
