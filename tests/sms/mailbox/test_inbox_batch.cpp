// The inbox's group commit (Inbox::commitBatch, base/group_commit.h): concurrent inbound messages
// commit together, each caller answered with its own result after its batch committed. Batches
// are formed on purpose: a gate in front of the store holds the first caller's batch on the store
// while the others queue behind it, so the rest of them make exactly one batch.

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/sms/mailbox/mailbox_fixture.h"

namespace atoms::sms::mailbox {
namespace {

using testing::MailboxFixture;

constexpr auto kBatchDeadline = std::chrono::seconds(20);

drivers::InboundSms batchText(std::string providerId, std::string body = "Running late, sorry") {
  drivers::InboundSms m;
  m.providerId = std::move(providerId);
  m.from = "+15551230002";
  m.to = "+15559990000";
  m.body = std::move(body);
  return m;
}

// A store runner whose run() waits at a gate while it is closed; counts the runs that passed it.
class GatedRunner final : public StoreRunner {
 public:
  explicit GatedRunner(StoreRunner& inner) : inner_(inner) {}

  Status run(const StoreFunction& fn) override {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      ++arrived_;
      changed_.notify_all();
      changed_.wait(lock, [&] { return open_; });
      ++runs_;
    }
    return inner_.run(fn);
  }

  void close() {
    std::lock_guard<std::mutex> lock(mutex_);
    open_ = false;
    arrivedAtClose_ = arrived_;
  }
  void open() {
    std::lock_guard<std::mutex> lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }
  // Whether a run() reached the closed gate before the deadline.
  bool waitHeld() {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, kBatchDeadline, [&] { return arrived_ > arrivedAtClose_; });
  }
  int runs() {
    std::lock_guard<std::mutex> lock(mutex_);
    return runs_;
  }

 private:
  StoreRunner& inner_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool open_ = true;
  int arrived_ = 0;
  int arrivedAtClose_ = 0;
  int runs_ = 0;
};

// Waits (yielding, bounded) until the inbox has n callers queued or committing.
bool waitInFlight(const Inbox& inbox, std::size_t n) {
  const auto deadline = std::chrono::steady_clock::now() + kBatchDeadline;
  while (inbox.arrivalsInFlight() < n) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::yield();
  }
  return true;
}

// An inbox on the fixture's store behind a gate, and callers that each deliver one message on
// their own thread and keep their result.
class BatchBench {
 public:
  BatchBench()
      : gated(*f.runner), inbox(gated, *f.outbox, "simulated", [this] { return f.clock.now(); }) {}

  // The first message commits alone, held at the gate until release(); `rest` queue behind it.
  void deliverHeld(const drivers::InboundSms& first, std::vector<drivers::InboundSms> rest) {
    messages.clear();
    messages.push_back(first);
    for (auto& m : rest) messages.push_back(std::move(m));
    results.assign(messages.size(), Status::success());
    callerThreads.assign(messages.size(), std::thread::id());
    gated.close();
    startCaller(0);
    BOOST_TEST_REQUIRE(gated.waitHeld());
    for (std::size_t i = 1; i < messages.size(); ++i) startCaller(i);
    BOOST_TEST_REQUIRE(waitInFlight(inbox, messages.size()));
    gated.open();
    for (std::thread& t : threads) t.join();
    threads.clear();
  }

  std::int64_t storedRows(const std::string& where) {
    std::int64_t n = -1;
    Status s = f.runner->run([&](SiteStore& store) -> Status {
      auto stmt = store.db().prepare("SELECT count(*) FROM sms_inbox WHERE " + where);
      if (!stmt) return stmt.error();
      auto row = stmt->step();
      if (!row) return row.error();
      n = stmt->columnInt64(0);
      return Status::success();
    });
    BOOST_TEST_REQUIRE(s.ok(), s.message());
    return n;
  }

  std::uint64_t logSize() {
    std::uint64_t n = 0;
    Status s = f.runner->run([&](SiteStore& store) -> Status {
      n = store.log().size();
      return Status::success();
    });
    BOOST_TEST_REQUIRE(s.ok(), s.message());
    return n;
  }

  std::size_t signedSizes() {
    std::size_t n = 0;
    Status s = f.runner->run([&](SiteStore& store) -> Status {
      n = store.log().signedSizes().size();
      return Status::success();
    });
    BOOST_TEST_REQUIRE(s.ok(), s.message());
    return n;
  }

  MailboxFixture f;
  GatedRunner gated;
  Inbox inbox;
  std::vector<drivers::InboundSms> messages;
  std::vector<Status> results;
  std::vector<std::thread::id> callerThreads;

 private:
  void startCaller(std::size_t i) {
    threads.emplace_back([this, i] {
      callerThreads[i] = std::this_thread::get_id();
      results[i] = inbox.acceptInbound(messages[i]);
    });
  }

  std::vector<std::thread> threads;
};

BOOST_AUTO_TEST_SUITE(inbox_batch)

BOOST_AUTO_TEST_CASE(concurrentCallersCommitInOneBatchEachWithItsOwnResult) {
  BatchBench b;
  const std::size_t checkpointsBefore = b.signedSizes();
  std::vector<drivers::InboundSms> rest;
  for (int i = 0; i < 20; ++i) rest.push_back(batchText("SMbatch" + std::to_string(i)));
  rest.push_back(batchText("", "no provider id: cannot be deduplicated"));
  rest.push_back(batchText("SMbad", std::string("nul \0 inside", 12)));  // refused, stored
  b.deliverHeld(batchText("SMfirst"), std::move(rest));

  BOOST_TEST(b.gated.runs() == 2);  // the held message, then all the others together
  BOOST_TEST(b.signedSizes() == checkpointsBefore + 2);
  for (std::size_t i = 0; i < b.messages.size(); ++i) {
    BOOST_TEST_CONTEXT(b.messages[i].providerId) {
      BOOST_TEST(b.results[i].ok() == !b.messages[i].providerId.empty(), b.results[i].message());
    }
  }
  BOOST_TEST(b.results[21].message().find("provider id is missing") != std::string::npos);
  BOOST_TEST(b.storedRows("state = 'new'") == 21);
  BOOST_TEST(b.storedRows("state = 'refused' AND provider_id = 'SMbad'") == 1);
  BOOST_TEST(b.f.entries("sms.in").size() == 21u);
  BOOST_TEST(b.f.entries("sms.in.refused").size() == 2u);  // the bad body, the missing id
}

BOOST_AUTO_TEST_CASE(aRedeliveryInABatchDoesNotFailTheOthers) {
  BatchBench b;
  BOOST_TEST_REQUIRE(b.inbox.acceptInbound(batchText("SMold")).ok());
  // An old message redelivered, and one message delivered twice within the batch.
  b.deliverHeld(batchText("SMhead"),
                {batchText("SMold", "a replay"), batchText("SMtwice"),
                 batchText("SMtwice", "the provider retried"), batchText("SMother")});
  for (const Status& s : b.results) BOOST_TEST(s.ok(), s.message());
  BOOST_TEST(b.storedRows("provider_id = 'SMold'") == 1);
  BOOST_TEST(b.storedRows("provider_id = 'SMtwice'") == 1);
  // Whichever of the two queued first is the one stored (the callers race to the queue).
  BOOST_TEST(b.storedRows("provider_id = 'SMtwice' AND body IN ('Running late, sorry',"
                          " 'the provider retried')") == 1);
  BOOST_TEST(b.storedRows("provider_id = 'SMother'") == 1);
  BOOST_TEST(b.f.entries("sms.in").size() == 4u);  // SMold, SMhead, SMtwice, SMother: once each
}

BOOST_AUTO_TEST_CASE(aStoreFailureMidBatchFailsEveryCallerOfThatBatchAndStoresNone) {
  BatchBench b;
  const std::uint64_t sizeBefore = b.logSize();
  // The third message's insert fails after two rows of its batch were written.
  Status armed = b.f.runner->run([](SiteStore& store) {
    return store.db().exec(
        "CREATE TEMP TRIGGER fail_mid_batch BEFORE INSERT ON sms_inbox"
        " WHEN NEW.provider_id = 'SMpoison' BEGIN SELECT RAISE(ABORT, 'disk says no'); END");
  });
  BOOST_TEST_REQUIRE(armed.ok(), armed.message());
  std::vector<drivers::InboundSms> rest{batchText("SMx1"), batchText("SMx2"), batchText("SMpoison"),
                                        batchText("SMx3")};
  b.deliverHeld(batchText("SMalone"), rest);

  BOOST_TEST(b.results[0].ok(), b.results[0].message());
  for (std::size_t i = 1; i < b.results.size(); ++i) {
    BOOST_TEST(!b.results[i].ok());
    BOOST_TEST(b.results[i].message().find("was not stored") != std::string::npos);
  }
  BOOST_TEST(b.storedRows("provider_id LIKE 'SMx%' OR provider_id = 'SMpoison'") == 0);
  BOOST_TEST(b.logSize() == sizeBefore + 1);  // only SMalone's entry

  // The disk recovers; the provider redelivers the failed ones and the next batch takes them.
  Status healed = b.f.runner->run(
      [](SiteStore& store) { return store.db().exec("DROP TRIGGER temp.fail_mid_batch"); });
  BOOST_TEST_REQUIRE(healed.ok(), healed.message());
  b.deliverHeld(batchText("SMnext"), rest);
  for (const Status& s : b.results) BOOST_TEST(s.ok(), s.message());
  BOOST_TEST(b.storedRows("provider_id LIKE 'SMx%' OR provider_id = 'SMpoison'") == 4);
  BOOST_TEST(b.logSize() == sizeBefore + 6);
}

BOOST_AUTO_TEST_CASE(theListenerHearsEachStoredRowOnceAfterTheCommitOnTheCallersThread) {
  BatchBench b;
  BOOST_TEST_REQUIRE(b.inbox.acceptInbound(batchText("SMseen")).ok());
  std::mutex mutex;
  std::map<std::string, int> heard;
  std::map<std::string, std::thread::id> heardOn;
  std::vector<std::string> problems;
  b.inbox.setOnStored([&](const InboxRow& row) {
    // Committed already: the store (a second store call, not under the batch's lock) finds it.
    auto found = b.inbox.find(row.id);
    std::lock_guard<std::mutex> lock(mutex);
    if (!found.ok() || !*found) problems.push_back(row.providerId + " not found by the listener");
    ++heard[row.providerId];
    heardOn[row.providerId] = std::this_thread::get_id();
  });
  b.deliverHeld(batchText("SMl0"),
                {batchText("SMl1"), batchText("SMl2"), batchText("SMseen"), batchText("SMl3"),
                 batchText("SMl4", std::string(1601, 'x'))});  // refused: too long, still stored

  for (const Status& s : b.results) BOOST_TEST(s.ok(), s.message());
  BOOST_TEST(problems.empty());
  BOOST_TEST(heard.size() == 5u);  // not SMseen, a redelivery
  BOOST_TEST(heard.count("SMseen") == 0u);
  for (std::size_t i = 0; i < b.messages.size(); ++i) {
    const std::string& id = b.messages[i].providerId;
    if (id == "SMseen") continue;
    BOOST_TEST(heard[id] == 1, id);
    BOOST_TEST((heardOn[id] == b.callerThreads[i]), id << " heard on another thread");
  }
}

BOOST_AUTO_TEST_CASE(commitBatchStoresAWholeBatchInOneCheckpoint) {
  MailboxFixture f;
  std::vector<drivers::InboundSms> messages;
  for (std::size_t i = 0; i < kMaxGroupCommitItems; ++i) {
    messages.push_back(batchText("SMfull" + std::to_string(i)));
  }
  std::vector<Inbox::Arrival> arrivals(messages.size());
  std::vector<Inbox::Arrival*> pointers;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    arrivals[i].message = &messages[i];
    pointers.push_back(&arrivals[i]);
  }
  std::vector<Status> results(messages.size());
  f.inbox->commitBatch(pointers, results);
  for (const Status& s : results) BOOST_TEST(s.ok(), s.message());
  for (const Inbox::Arrival& a : arrivals) BOOST_TEST(a.stored.has_value());
  BOOST_TEST(f.entries("sms.in").size() == kMaxGroupCommitItems);
  std::uint64_t size = 0;
  std::uint64_t signedSize = 0;
  BOOST_TEST_REQUIRE(f.runner
                         ->run([&](SiteStore& store) {
                           size = store.log().size();
                           signedSize = store.log().signedSize();
                           return Status::success();
                         })
                         .ok());
  BOOST_TEST(signedSize == size);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::sms::mailbox
