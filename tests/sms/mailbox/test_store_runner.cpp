#include <boost/test/unit_test.hpp>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "tests/sms/mailbox/mailbox_fixture.h"

namespace atoms::sms::mailbox {
namespace {

using testing::MailboxFixture;

// A stand-in for the engine: one thread running posted events in order; stop() drops what is
// still queued, as Engine::stop does.
class WriterThread final : public Writer {
 public:
  WriterThread() : thread_([this] { loop(); }) {}
  ~WriterThread() override { stop(); }
  bool post(Task ev) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_ || refuse_) return false;
    queue_.push_back(std::move(ev));
    changed_.notify_all();
    return true;
  }
  bool onWriterThread() const override { return std::this_thread::get_id() == thread_.get_id(); }
  void runAfter(std::chrono::milliseconds, Task) override {
    throw std::logic_error("the store runner sets no timers");
  }
  // Holds the thread inside an event until release().
  void block() {
    post([this] {
      std::unique_lock<std::mutex> lock(mutex_);
      blocked_ = true;
      changed_.notify_all();
      changed_.wait(lock, [this] { return !blocked_; });
    });
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return blocked_; });
  }
  void release() {
    std::lock_guard<std::mutex> lock(mutex_);
    blocked_ = false;
    changed_.notify_all();
  }
  // Waits until n events are queued behind the running one.
  void waitQueued(std::size_t n) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return queue_.size() >= n; });
  }
  void refuse() {
    std::lock_guard<std::mutex> lock(mutex_);
    refuse_ = true;
  }
  void stop() {
    std::deque<std::function<void()>> dropped;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
      blocked_ = false;
      dropped.swap(queue_);
      changed_.notify_all();
    }
    if (thread_.joinable()) thread_.join();
  }

 private:
  void loop() {
    for (;;) {
      std::function<void()> ev;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (stopping_) return;
        ev = std::move(queue_.front());
        queue_.pop_front();
      }
      ev();
    }
  }
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  bool refuse_ = false;
  bool blocked_ = false;
  std::thread thread_;
};

BOOST_AUTO_TEST_SUITE(store_runner)

BOOST_AUTO_TEST_CASE(runsEveryCallOnTheWriterThread) {
  MailboxFixture f;
  WriterThread writer;
  PostingStoreRunner runner(*f.store, writer);
  bool onWriter = false;
  bool nestedOnWriter = false;
  Status s = runner.run([&](SiteStore&) -> Status {
    onWriter = writer.onWriterThread();
    // A nested call from the writer runs inline instead of deadlocking.
    return runner.run([&](SiteStore&) -> Status {
      nestedOnWriter = writer.onWriterThread();
      return Status::success();
    });
  });
  BOOST_TEST(s.ok(), s.message());
  BOOST_TEST(onWriter);
  BOOST_TEST(nestedOnWriter);
  Status err = runner.run([](SiteStore&) -> Status { return makeError("nope"); });
  BOOST_TEST(err.message() == "nope");
}

BOOST_AUTO_TEST_CASE(theMailboxWorksThroughAPostingRunner) {
  MailboxFixture f;
  WriterThread writer;
  PostingStoreRunner runner(*f.store, writer);
  Outbox outbox(
      runner, [&] { return f.clock.now(); }, [] { return 0.5; });
  Inbox inbox(runner, outbox, "simulated", [&] { return f.clock.now(); });
  BOOST_TEST(inbox.acceptInbound({"SMp1", "+15551230002", "+15559990000", "hi", {}}).ok());
  BOOST_TEST(outbox.enqueue(MailboxFixture::request("p1")).ok());
  Dispatcher d(outbox, f.gateway, DispatcherOptions{false, {}, {}, {}});
  BOOST_TEST(d.runPass().ok());
  auto row = outbox.find("p1");
  BOOST_TEST_REQUIRE((row.ok() && row->has_value()));
  BOOST_TEST((*row)->state == OutboxState::kSent);
}

// An inbound message delivered on the writer itself commits alone: queued behind another caller's
// batch it would wait for a batch that waits for the writer.
BOOST_AUTO_TEST_CASE(anInboundMessageOnTheWriterDoesNotWaitForAnotherCallersBatch) {
  MailboxFixture f;
  WriterThread writer;
  PostingStoreRunner runner(*f.store, writer);
  Outbox outbox(
      runner, [&] { return f.clock.now(); }, [] { return 0.5; });
  Inbox inbox(runner, outbox, "simulated", [&] { return f.clock.now(); });
  std::promise<Status> onWriter;
  std::future<Status> onWriterResult = onWriter.get_future();
  BOOST_TEST_REQUIRE(writer.post([&] {
    // Another caller is queued (leading its batch, which it posts behind this event).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (inbox.arrivalsInFlight() < 1 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    onWriter.set_value(inbox.acceptInbound({"SMw1", "+15551230002", "+15559990000", "hi", {}}));
  }));
  Status fromDriver;
  std::thread driver([&] {
    fromDriver = inbox.acceptInbound({"SMd1", "+15551230003", "+15559990000", "yo", {}});
  });
  BOOST_TEST_REQUIRE(
      (onWriterResult.wait_for(std::chrono::seconds(30)) == std::future_status::ready));
  driver.join();
  Status w = onWriterResult.get();
  BOOST_TEST(w.ok(), w.message());
  BOOST_TEST(fromDriver.ok(), fromDriver.message());
  BOOST_TEST(inbox.unhandled(10)->size() == 2u);
}

BOOST_AUTO_TEST_CASE(aCallTheWriterDropsOrRefusesFailsInsteadOfHanging) {
  MailboxFixture f;
  WriterThread writer;
  PostingStoreRunner runner(*f.store, writer);
  writer.block();
  Status dropped;
  bool ran = false;
  std::thread caller([&] {
    dropped = runner.run([&](SiteStore&) -> Status {
      ran = true;
      return Status::success();
    });
  });
  writer.waitQueued(1);
  writer.stop();  // drops the queued call
  caller.join();
  BOOST_TEST(!ran);
  BOOST_TEST(dropped.message() == "the SMS store operation did not run: the engine is stopping");

  WriterThread refusing;
  refusing.refuse();
  PostingStoreRunner closed(*f.store, refusing);
  Status refused = closed.run([](SiteStore&) -> Status { return Status::success(); });
  BOOST_TEST(refused.message() ==
             "the SMS store operation did not run: the engine takes no more events");
}

BOOST_AUTO_TEST_CASE(anExceptionInAStoreCallBecomesAnError) {
  MailboxFixture f;
  Status s = f.runner->run([](SiteStore&) -> Status { throw std::runtime_error("boom"); });
  BOOST_TEST(s.message() == "SMS store operation failed: boom");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::sms::mailbox
