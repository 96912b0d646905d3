#include <boost/test/unit_test.hpp>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>

#include "tests/sms/mailbox/mailbox_fixture.h"

namespace atoms::sms::mailbox {
namespace {

using testing::MailboxFixture;
using namespace std::chrono_literals;

constexpr auto kDeadline = 20s;

// Counts outcomes of one state, and lets a test wait for a number of them.
class OutcomeCounter {
 public:
  OutcomeCounter(Outbox& outbox, OutboxState state) : state_(state) {
    outbox.setOnOutcome([this](const OutboxRow& row) {
      if (row.state != state_) return;
      std::lock_guard<std::mutex> lock(mutex_);
      ids_.push_back(row.id);
      changed_.notify_all();
    });
  }
  bool waitFor(std::size_t count) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, kDeadline, [&] { return ids_.size() >= count; });
  }
  std::vector<std::string> ids() {
    std::lock_guard<std::mutex> lock(mutex_);
    return ids_;
  }

 private:
  OutboxState state_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> ids_;
};

BOOST_AUTO_TEST_SUITE(dispatcher)

BOOST_AUTO_TEST_CASE(sendsEveryEnqueuedMessageOnceFromItsOwnThread) {
  MailboxFixture f;
  f.gateway.setHonourIdempotencyKeys(false);
  OutcomeCounter sent(*f.outbox, OutboxState::kSent);
  auto d = f.dispatcher();
  BOOST_TEST_REQUIRE(d->start().ok());
  constexpr int kPerThread = 12;
  std::vector<std::thread> producers;
  for (int t = 0; t < 2; ++t) {
    producers.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        auto id = f.outbox->enqueue(
            MailboxFixture::request("t" + std::to_string(t) + "-" + std::to_string(i)));
        BOOST_TEST(id.ok(), id.message());
      }
    });
  }
  for (auto& p : producers) p.join();
  BOOST_TEST_REQUIRE(sent.waitFor(2 * kPerThread));
  BOOST_TEST_REQUIRE(d->waitUntilIdle(kDeadline));
  d->stop();

  const auto transmitted = f.gateway.transmissions();
  BOOST_TEST(transmitted.size() == static_cast<std::size_t>(2 * kPerThread));
  std::set<std::string> keys;
  for (const auto& t : transmitted) keys.insert(t.message.idempotencyKey);
  BOOST_TEST(keys.size() == transmitted.size());
  auto rows = f.outbox->list(OutboxQuery{OutboxState::kSent, false, 100});
  BOOST_TEST(rows->size() == static_cast<std::size_t>(2 * kPerThread));
}

BOOST_AUTO_TEST_CASE(retriesWhenTheClockReachesTheRetryTime) {
  MailboxFixture f;
  f.gateway.failNextSends(1, true);
  auto d = f.dispatcher();
  BOOST_TEST_REQUIRE(d->start().ok());
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("m")).ok());
  BOOST_TEST_REQUIRE(f.gateway.waitForSendCalls(1, kDeadline));
  BOOST_TEST_REQUIRE(d->waitUntilIdle(kDeadline));
  BOOST_TEST(f.row("m").state == OutboxState::kQueued);

  f.clock.advance(8s);  // not yet (9 s)
  d->wake();
  BOOST_TEST_REQUIRE(d->waitUntilIdle(kDeadline));
  BOOST_TEST(f.gateway.sendCalls() == 1u);

  f.clock.advance(1s);
  d->wake();
  BOOST_TEST_REQUIRE(d->waitUntilIdle(kDeadline));
  BOOST_TEST(f.row("m").state == OutboxState::kSent);
  BOOST_TEST(f.gateway.sendCalls() == 2u);
}

BOOST_AUTO_TEST_CASE(reconcilesWhatACrashLeftInDoubtAsItStarts) {
  MailboxFixture f;
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("m")).ok());
  BOOST_TEST_REQUIRE(f.outbox->claimNext().ok());  // the previous process died here
  auto d = f.dispatcher();
  BOOST_TEST_REQUIRE(d->start().ok());
  BOOST_TEST_REQUIRE(d->waitUntilIdle(kDeadline));
  BOOST_TEST(f.gateway.reconcileCalls() == 1u);
  BOOST_TEST(f.row("m").state == OutboxState::kSent);
}

BOOST_AUTO_TEST_CASE(stopsCleanlyAndStartsAgain) {
  MailboxFixture f;
  auto d = f.dispatcher();
  d->stop();  // never started: nothing to do
  BOOST_TEST_REQUIRE(d->start().ok());
  BOOST_TEST(!d->start().ok());
  d->stop();
  d->stop();
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("while-stopped")).ok());
  BOOST_TEST(f.gateway.sendCalls() == 0u);
  BOOST_TEST_REQUIRE(d->start().ok());
  BOOST_TEST_REQUIRE(f.gateway.waitForTransmissions(1, kDeadline));
  d.reset();                                                             // the destructor stops it
  BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("after")).ok());  // no dangling wake-up
}

BOOST_AUTO_TEST_CASE(onSystemTimeItSleepsUntilTheNextMessageIsDue) {
  MailboxFixture f;
  Outbox outbox(
      *f.runner, [] { return std::chrono::system_clock::now(); }, [] { return 0.0; },
      testing::testPolicy());
  Dispatcher d(outbox, f.gateway, DispatcherOptions{true, 30s, 5s, {}});
  BOOST_TEST_REQUIRE(d.start().ok());
  OutboundRequest r = MailboxFixture::request("soon");
  r.notBefore = std::chrono::system_clock::now() + 50ms;
  BOOST_TEST(outbox.enqueue(r).ok());
  BOOST_TEST_REQUIRE(f.gateway.waitForTransmissions(1, kDeadline));
  d.stop();
}

BOOST_AUTO_TEST_CASE(inboundReportsAndSendsInterleaveSafely) {
  MailboxFixture f;
  f.gateway.setAutoReport(drivers::DeliveryState::kDelivered);
  OutcomeCounter delivered(*f.outbox, OutboxState::kDelivered);
  auto d = f.dispatcher();
  BOOST_TEST_REQUIRE(d->start().ok());
  constexpr int kMessages = 15;
  std::thread inbound([&] {
    for (int i = 0; i < 2 * kMessages; ++i) {
      drivers::InboundSms m{"SMin" + std::to_string(i), "+15551230002", "+15559990000", "ok", {}};
      BOOST_TEST(f.gateway.deliverInbound(m).ok());
    }
  });
  for (int i = 0; i < kMessages; ++i) {
    BOOST_TEST(f.outbox->enqueue(MailboxFixture::request("out" + std::to_string(i))).ok());
  }
  inbound.join();
  BOOST_TEST_REQUIRE(delivered.waitFor(kMessages));
  d->stop();
  auto unhandled = f.inbox->unhandled(100);
  BOOST_TEST(unhandled->size() == static_cast<std::size_t>(2 * kMessages));
  auto rows = f.outbox->list(OutboxQuery{OutboxState::kDelivered, false, 100});
  BOOST_TEST(rows->size() == static_cast<std::size_t>(kMessages));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::sms::mailbox
