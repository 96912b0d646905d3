#include <boost/test/unit_test.hpp>

#include "tests/sms/mailbox/mailbox_fixture.h"

namespace atoms::sms::mailbox {
namespace {

using testing::MailboxFixture;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(retries)

// testPolicy(): 10 s doubling to 80 s, jitter 0.2; the fixture's random source answers 0.5, so
// each wait is 90 % of the undisturbed one.
BOOST_AUTO_TEST_CASE(retryableFailuresBackOffExponentiallyWithJitter) {
  MailboxFixture f;
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("m")).ok());
  f.gateway.failNextSends(4, true, "HTTP 503 from the provider");
  auto d = f.dispatcher();

  const std::chrono::milliseconds waits[] = {9s, 18s, 36s, 72s};
  for (int attempt = 1; attempt <= 4; ++attempt) {
    BOOST_TEST_CONTEXT("attempt " << attempt) {
      BOOST_TEST_REQUIRE(d->runPass().ok());
      BOOST_TEST(f.gateway.sendCalls() == static_cast<std::size_t>(attempt));
      const OutboxRow row = f.row("m");
      BOOST_TEST(row.state == OutboxState::kQueued);
      BOOST_TEST(row.attempts == attempt);
      BOOST_TEST(row.lastError == "HTTP 503 from the provider");
      const auto wait = waits[attempt - 1];
      BOOST_TEST((row.nextAttemptAt == f.clock.now() + wait));

      // Not a millisecond early.
      f.clock.advance(wait - 1ms);
      BOOST_TEST_REQUIRE(d->runPass().ok());
      BOOST_TEST(f.gateway.sendCalls() == static_cast<std::size_t>(attempt));
      f.clock.advance(1ms);
    }
  }
  BOOST_TEST_REQUIRE(d->runPass().ok());
  const OutboxRow row = f.row("m");
  BOOST_TEST(row.state == OutboxState::kSent);
  BOOST_TEST(row.attempts == 5);
  BOOST_TEST(row.lastError.empty());
  BOOST_TEST(f.gateway.transmissions().size() == 1u);
}

BOOST_AUTO_TEST_CASE(theDelayStopsDoublingAtTheCap) {
  RetryPolicy policy = testing::testPolicy();
  policy.maxAttempts = 10;
  policy.jitter = 0;
  MailboxFixture f(policy);
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("m")).ok());
  f.gateway.failNextSends(7, true);
  auto d = f.dispatcher();
  std::vector<std::chrono::milliseconds> seen;
  for (int attempt = 1; attempt <= 7; ++attempt) {
    BOOST_TEST_REQUIRE(d->runPass().ok());
    const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(
        f.row("m").nextAttemptAt - f.clock.now());
    seen.push_back(wait);
    f.clock.advance(wait);
  }
  const std::vector<std::chrono::milliseconds> expected = {10s, 20s, 40s, 80s, 80s, 80s, 80s};
  BOOST_TEST((seen == expected));
}

BOOST_AUTO_TEST_CASE(theAttemptCapFailsTheMessageForGoodAndAuditsIt) {
  MailboxFixture f;  // 5 attempts
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("m")).ok());
  f.gateway.failNextSends(100, true, "network unreachable");
  auto d = f.dispatcher();
  for (int i = 0; i < 10; ++i) {
    BOOST_TEST_REQUIRE(d->runPass().ok());
    f.clock.advance(10min);
  }
  BOOST_TEST(f.gateway.sendCalls() == 5u);
  const OutboxRow row = f.row("m");
  BOOST_TEST(row.state == OutboxState::kFailed);
  BOOST_TEST(row.lastError == "network unreachable (gave up after 5 attempts)");
  BOOST_TEST(row.finalAt.has_value());
  const auto failed = f.entries("sms.out.failed");
  BOOST_TEST_REQUIRE(failed.size() == 1u);
  BOOST_TEST(failed[0].body.find("attempts")->asInt() == 5);
  BOOST_TEST(failed[0].body.find("id")->asString() == "m");
}

BOOST_AUTO_TEST_CASE(aPermanentErrorFailsAtOnce) {
  MailboxFixture f;
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("m")).ok());
  f.gateway.failNextSends(1, false, "21211: invalid 'To' number");
  auto d = f.dispatcher();
  BOOST_TEST_REQUIRE(d->runPass().ok());
  f.clock.advance(1h);
  BOOST_TEST_REQUIRE(d->runPass().ok());
  BOOST_TEST(f.gateway.sendCalls() == 1u);
  BOOST_TEST(f.row("m").state == OutboxState::kFailed);
  BOOST_TEST(f.row("m").lastError == "21211: invalid 'To' number");
  BOOST_TEST(f.entries("sms.out.failed").size() == 1u);
}

BOOST_AUTO_TEST_CASE(aDriverErrorWithRawBytesIsStoredAndAuditedSafely) {
  MailboxFixture f;
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("m")).ok());
  f.gateway.failNextSends(1, false, "+CMS ERROR: \xFF\x01 garbage");
  BOOST_TEST_REQUIRE(f.dispatcher()->runPass().ok());
  BOOST_TEST(f.row("m").state == OutboxState::kFailed);
  BOOST_TEST(f.row("m").lastError == "+CMS ERROR: ?? garbage");
  BOOST_TEST(f.entries("sms.out.failed").size() == 1u);
}

BOOST_AUTO_TEST_CASE(oneFailingMessageDoesNotHoldUpTheOthers) {
  MailboxFixture f;
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("first")).ok());
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("second")).ok());
  f.gateway.failNextSends(1, true);
  BOOST_TEST_REQUIRE(f.dispatcher()->runPass().ok());
  BOOST_TEST(f.row("first").state == OutboxState::kQueued);
  BOOST_TEST(f.row("second").state == OutboxState::kSent);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::sms::mailbox
