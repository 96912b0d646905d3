#include <Poco/AutoPtr.h>
#include <Poco/Logger.h>

#include <atomic>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <future>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "daemon/engine/deadline_timer.h"
#include "daemon/engine/engine.h"
#include "tests/daemon/helpers.h"

using namespace atoms;
using namespace std::chrono_literals;

namespace {

constexpr auto kDeadline = 10s;

// A logger of its own per test, with a channel that keeps what the engine logs.
struct CapturedLogger {
  explicit CapturedLogger(const std::string& name)
      : channel(new test::CaptureChannel), logger(Poco::Logger::get(name)) {
    logger.setChannel(channel);
    logger.setLevel(Poco::Message::PRIO_TRACE);
  }
  Poco::AutoPtr<test::CaptureChannel> channel;
  Poco::Logger& logger;
};

TimePoint at(int seconds) { return TimePoint(std::chrono::seconds(1'800'000'000 + seconds)); }

}  // namespace

BOOST_AUTO_TEST_SUITE(engine)

BOOST_AUTO_TEST_CASE(simulatedClockMovesOnlyWhenToldAndNotifiesListeners) {
  SimulatedClock clock(at(0));
  int notified = 0;
  Clock::ListenerId id = clock.addListener([&] { ++notified; });
  BOOST_TEST((clock.now() == at(0)));
  clock.advance(5s);
  BOOST_TEST((clock.now() == at(5)));
  clock.set(at(100));
  BOOST_TEST((clock.now() == at(100)));
  BOOST_TEST(notified == 2);
  clock.removeListener(id);
  clock.advance(1s);
  BOOST_TEST(notified == 2);
  BOOST_TEST(!clock.followsSystemTime());
}

BOOST_AUTO_TEST_CASE(eventsFromManyThreadsRunOneAtATimeOnTheEngineThreadInPostOrder) {
  CapturedLogger log("test.engine.fifo");
  SimulatedClock clock(at(0));
  Engine engine(clock, log.logger);
  engine.start();

  constexpr int kThreads = 4;
  constexpr int kPerThread = 500;
  std::mutex postMutex;  // makes "ticket order" and "post order" the same order
  int nextTicket = 0;
  std::vector<int> ran;  // engine thread only, read after drain()
  std::vector<std::thread::id> ranOn;
  std::atomic<int> inside{0};
  std::atomic<int> maxInside{0};
  std::atomic<int> refused{0};

  std::vector<std::thread> posters;
  for (int t = 0; t < kThreads; ++t) {
    posters.emplace_back([&] {
      for (int i = 0; i < kPerThread; ++i) {
        std::lock_guard<std::mutex> lock(postMutex);
        int ticket = nextTicket++;
        bool accepted = engine.post([&, ticket] {
          int now = ++inside;
          if (now > maxInside) maxInside = now;
          ran.push_back(ticket);
          ranOn.push_back(std::this_thread::get_id());
          --inside;
        });
        if (!accepted) ++refused;  // Boost.Test assertions are for the main thread only
      }
    });
  }
  for (auto& p : posters) p.join();
  BOOST_REQUIRE_EQUAL(refused.load(), 0);
  BOOST_REQUIRE(engine.drain(kDeadline));

  BOOST_REQUIRE_EQUAL(ran.size(), static_cast<std::size_t>(kThreads * kPerThread));
  for (std::size_t i = 0; i < ran.size(); ++i) BOOST_REQUIRE_EQUAL(ran[i], static_cast<int>(i));
  BOOST_TEST(maxInside.load() == 1);
  for (const auto& id : ranOn) {
    BOOST_REQUIRE(id == ranOn.front());
  }
  BOOST_TEST((ranOn.front() != std::this_thread::get_id()));
  for (const auto& id : ranOn) {
    for (const auto& poster : posters) BOOST_REQUIRE(id != poster.get_id());
  }
}

BOOST_AUTO_TEST_CASE(timersFireInDeadlineOrderOnAdvanceAndNotBefore) {
  CapturedLogger log("test.engine.timers");
  SimulatedClock clock(at(0));
  Engine engine(clock, log.logger);
  engine.start();

  std::vector<std::pair<std::string, TimePoint>> fired;  // engine thread only
  auto timer = [&](std::string name) {
    return [&fired, &clock, name] { fired.emplace_back(name, clock.now()); };
  };
  BOOST_REQUIRE(engine.post([&] {
    engine.schedule(at(30), timer("a"));
    engine.schedule(at(10), timer("b"));
    engine.schedule(at(20), timer("c"));
    engine.schedule(at(20), timer("d"));  // same deadline as c, scheduled later: fires after c
  }));
  BOOST_REQUIRE(engine.drain(kDeadline));
  BOOST_TEST(fired.empty());

  clock.advance(9s);
  BOOST_REQUIRE(engine.drain(kDeadline));
  BOOST_TEST(fired.empty());

  clock.advance(1s);  // now at(10): b is due, exactly at its deadline
  BOOST_REQUIRE(engine.drain(kDeadline));
  BOOST_REQUIRE_EQUAL(fired.size(), 1u);
  BOOST_TEST(fired[0].first == "b");
  BOOST_TEST((fired[0].second == at(10)));

  clock.advance(15s);  // at(25): c then d, both seeing the clock's time
  BOOST_REQUIRE(engine.drain(kDeadline));
  BOOST_REQUIRE_EQUAL(fired.size(), 3u);
  BOOST_TEST(fired[1].first == "c");
  BOOST_TEST(fired[2].first == "d");
  BOOST_TEST((fired[1].second == at(25)));
  BOOST_TEST((fired[2].second == at(25)));

  clock.advance(1h);
  BOOST_REQUIRE(engine.drain(kDeadline));
  BOOST_REQUIRE_EQUAL(fired.size(), 4u);
  BOOST_TEST(fired[3].first == "a");
}

BOOST_AUTO_TEST_CASE(aTimerScheduledForNowByATimerFiresBeforeDrainReturns) {
  CapturedLogger log("test.engine.chain");
  SimulatedClock clock(at(0));
  Engine engine(clock, log.logger);
  engine.start();
  std::vector<int> fired;
  BOOST_REQUIRE(engine.post([&] {
    engine.schedule(at(5), [&] {
      fired.push_back(1);
      engine.schedule(clock.now(), [&] { fired.push_back(2); });
    });
  }));
  clock.advance(5s);
  BOOST_REQUIRE(engine.drain(kDeadline));
  BOOST_TEST(fired == (std::vector<int>{1, 2}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(cancelledTimerNeverFires) {
  CapturedLogger log("test.engine.cancel");
  SimulatedClock clock(at(0));
  Engine engine(clock, log.logger);
  engine.start();
  std::vector<std::string> fired;
  bool firstCancel = false;
  bool secondCancel = true;
  bool unknownCancel = true;
  BOOST_REQUIRE(engine.post([&] {
    Engine::TimerId keep = engine.schedule(at(10), [&] { fired.push_back("keep"); });
    Engine::TimerId drop = engine.schedule(at(5), [&] { fired.push_back("drop"); });
    firstCancel = engine.cancel(drop);
    secondCancel = engine.cancel(drop);
    unknownCancel = engine.cancel(keep + 1000);
  }));
  BOOST_REQUIRE(engine.drain(kDeadline));
  clock.advance(1min);
  BOOST_REQUIRE(engine.drain(kDeadline));
  BOOST_TEST(firstCancel);
  BOOST_TEST(!secondCancel);
  BOOST_TEST(!unknownCancel);
  BOOST_TEST(fired == (std::vector<std::string>{"keep"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(aDeadlineTimerFollowsTheDeadlineItIsGivenAndFiresOnce) {
  CapturedLogger log("test.engine.deadline");
  SimulatedClock clock(at(0));
  Engine engine(clock, log.logger);
  engine.start();
  std::vector<int> fired;  // the clock's second at each firing
  std::unique_ptr<DeadlineTimer> timer;
  auto onEngine = [&](auto fn) {
    BOOST_REQUIRE(engine.post(fn));
    BOOST_REQUIRE(engine.drain(kDeadline));
  };
  onEngine([&] {
    timer = std::make_unique<DeadlineTimer>(
        engine, [&] { fired.push_back(static_cast<int>((clock.now() - at(0)) / 1s)); });
    timer->setAt(at(10));
    timer->setAt(at(10));  // unchanged: still one timer
    timer->setAt(at(20));  // moved later
  });
  clock.advance(15s);
  BOOST_REQUIRE(engine.drain(kDeadline));
  BOOST_TEST(fired.empty());
  clock.advance(5s);
  BOOST_REQUIRE(engine.drain(kDeadline));
  BOOST_TEST(fired == (std::vector<int>{20}), boost::test_tools::per_element());
  bool unset = false;
  onEngine([&] {
    unset = !timer->at().has_value();  // fired: unset until set again
    timer->setAt(at(30));
    timer->setAt(std::nullopt);  // cancelled
    timer->setAt(at(40));
  });
  BOOST_TEST(unset);
  clock.advance(30s);  // to 50: the timer at 40 fires, once, seeing the clock's time
  BOOST_REQUIRE(engine.drain(kDeadline));
  BOOST_TEST(fired == (std::vector<int>{20, 50}), boost::test_tools::per_element());
  onEngine([&] {
    timer->setAt(at(60));
    timer.reset();  // destroying it cancels the pending timer
  });
  clock.advance(1min);
  BOOST_REQUIRE(engine.drain(kDeadline));
  BOOST_TEST(fired.size() == 2u);
}

BOOST_AUTO_TEST_CASE(anEventThatThrowsIsLoggedAndTheEngineGoesOn) {
  CapturedLogger log("test.engine.throw");
  SimulatedClock clock(at(0));
  Engine engine(clock, log.logger);
  engine.start();
  std::vector<int> ran;
  BOOST_REQUIRE(engine.post([] { throw std::runtime_error("boom in event"); }));
  BOOST_REQUIRE(engine.post([] { throw 42; }));
  BOOST_REQUIRE(engine.post([&] {
    engine.schedule(at(1), [] { throw std::logic_error("boom in timer"); });
    engine.schedule(at(2), [&] { ran.push_back(2); });
  }));
  BOOST_REQUIRE(engine.post([&] { ran.push_back(1); }));
  BOOST_REQUIRE(engine.drain(kDeadline));  // the events first; due timers would go before them
  clock.advance(2s);
  BOOST_REQUIRE(engine.drain(kDeadline));
  BOOST_TEST(ran == (std::vector<int>{1, 2}), boost::test_tools::per_element());

  std::vector<std::string> errors;
  for (const Poco::Message& m : log.channel->messages()) {
    if (m.getPriority() == Poco::Message::PRIO_ERROR) errors.push_back(m.get("error", ""));
  }
  BOOST_TEST(
      errors == (std::vector<std::string>{"boom in event", "unknown exception", "boom in timer"}),
      boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(stopLetsTheRunningEventFinishDropsTheQueueAndJoins) {
  CapturedLogger log("test.engine.stop");
  SimulatedClock clock(at(0));
  Engine engine(clock, log.logger);
  engine.start();

  std::promise<void> started;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<bool> finished{false};
  std::atomic<bool> queuedRan{false};
  BOOST_REQUIRE(engine.post([&] {
    started.set_value();
    released.wait();
    finished = true;
  }));
  BOOST_REQUIRE(engine.post([&] { queuedRan = true; }));
  BOOST_REQUIRE(started.get_future().wait_for(kDeadline) == std::future_status::ready);

  auto stopping = std::async(std::launch::async, [&] { engine.stop(); });
  // Wait until stop() has begun: from then on post() refuses. The no-op events queued meanwhile
  // are dropped with the rest.
  std::size_t queued = 1;
  auto until = std::chrono::steady_clock::now() + kDeadline;
  while (engine.post([] {})) {
    ++queued;
    BOOST_REQUIRE(std::chrono::steady_clock::now() < until);
  }
  // stop() cannot return while the event runs: it joins the engine thread.
  BOOST_TEST((stopping.wait_for(0ms) == std::future_status::timeout));
  release.set_value();
  BOOST_REQUIRE(stopping.wait_for(kDeadline) == std::future_status::ready);
  BOOST_TEST(finished.load());
  BOOST_TEST(!queuedRan.load());
  BOOST_TEST(!engine.post([] {}));
  BOOST_TEST(!engine.drain(100ms));
  engine.stop();  // idempotent

  std::string dropped;
  for (const Poco::Message& m : log.channel->messages()) {
    if (m.getText() == "dropped queued events at stop") dropped = m.get("count", "");
  }
  BOOST_TEST(dropped == std::to_string(queued));
}

BOOST_AUTO_TEST_CASE(postedBeforeStartRunsAfterStartInOrder) {
  CapturedLogger log("test.engine.prestart");
  SimulatedClock clock(at(0));
  Engine engine(clock, log.logger);
  std::vector<int> ran;
  BOOST_REQUIRE(engine.post([&] { ran.push_back(1); }));
  BOOST_REQUIRE(engine.post([&] { ran.push_back(2); }));
  engine.start();
  BOOST_REQUIRE(engine.drain(kDeadline));
  BOOST_TEST(ran == (std::vector<int>{1, 2}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(onTheSystemClockATimerFiresOnceItsDeadlinePasses) {
  CapturedLogger log("test.engine.system");
  SystemClock clock;
  Engine engine(clock, log.logger);
  engine.start();
  std::promise<TimePoint> firedAt;
  TimePoint deadline{};
  BOOST_REQUIRE(engine.post([&] {
    deadline = clock.now() + 20ms;
    engine.schedule(deadline, [&] { firedAt.set_value(clock.now()); });
  }));
  auto future = firedAt.get_future();
  BOOST_REQUIRE(future.wait_for(kDeadline) == std::future_status::ready);
  BOOST_TEST((future.get() >= deadline));
}

BOOST_AUTO_TEST_SUITE_END()
