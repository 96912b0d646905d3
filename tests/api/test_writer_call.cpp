// runOnWriter (daemon/engine/writer_call.h): a task the writer has not started by the deadline
// is skipped when its turn comes; one it has started is waited for; a refused or dropped task is
// said so, and never runs.
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "base/writer_call.h"

namespace atoms {
namespace {

using namespace std::chrono_literals;

// Holds posted tasks until the test runs or drops them; says when one arrived.
class HeldTasks {
 public:
  WriterPost post() {
    return [this](std::function<void()> task) {
      {
        std::lock_guard lock(mutex_);
        tasks_.push_back(std::move(task));
      }
      arrived_.notify_all();
      return true;
    };
  }
  bool waitForOne(std::chrono::milliseconds deadline) {
    std::unique_lock lock(mutex_);
    return arrived_.wait_for(lock, deadline, [&] { return !tasks_.empty(); });
  }
  void runAll() {
    std::deque<std::function<void()>> tasks;
    {
      std::lock_guard lock(mutex_);
      tasks.swap(tasks_);
    }
    for (auto& t : tasks) t();
  }
  void dropAll() {
    std::deque<std::function<void()>> tasks;
    {
      std::lock_guard lock(mutex_);
      tasks.swap(tasks_);
    }
  }

 private:
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::deque<std::function<void()>> tasks_;
};

const WriterPost kInline = [](std::function<void()> task) {
  task();
  return true;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(writer_call)

BOOST_AUTO_TEST_CASE(aTaskRunOnTheWriterIsDone) {
  int ran = 0;
  BOOST_TEST((runOnWriter(kInline, 1s, [&] { ++ran; }) == WriterCall::kDone));
  BOOST_TEST(ran == 1);
  BOOST_TEST(
      (runOnWriter(kInline, 1s, [] { throw std::runtime_error("x"); }) == WriterCall::kThrew));
}

BOOST_AUTO_TEST_CASE(aRefusedTaskNeverRuns) {
  int ran = 0;
  const WriterPost refuse = [](std::function<void()>) { return false; };
  BOOST_TEST((runOnWriter(refuse, 1s, [&] { ++ran; }) == WriterCall::kRefused));
  BOOST_TEST(ran == 0);
}

BOOST_AUTO_TEST_CASE(aTaskNotStartedByTheDeadlineIsSkippedWhenItsTurnComes) {
  HeldTasks writer;
  int ran = 0;
  BOOST_TEST((runOnWriter(writer.post(), 20ms, [&] { ++ran; }) == WriterCall::kTimedOut));
  writer.runAll();
  BOOST_TEST(ran == 0);
}

BOOST_AUTO_TEST_CASE(aTaskTheWriterDropsIsSaidSoAtOnce) {
  HeldTasks writer;
  std::thread stopping([&] {
    BOOST_REQUIRE(writer.waitForOne(10s));
    writer.dropAll();  // the engine stopped with the task still queued
  });
  int ran = 0;
  const auto started = std::chrono::steady_clock::now();
  BOOST_TEST((runOnWriter(writer.post(), 60s, [&] { ++ran; }) == WriterCall::kDropped));
  stopping.join();
  BOOST_TEST(ran == 0);
  BOOST_TEST((std::chrono::steady_clock::now() - started < 30s));  // not the deadline
}

BOOST_AUTO_TEST_CASE(aTaskStartedBeforeTheDeadlineIsWaitedForPastIt) {
  HeldTasks writer;
  std::thread engine([&] {
    BOOST_REQUIRE(writer.waitForOne(10s));
    writer.runAll();
  });
  bool finished = false;
  const auto called = std::chrono::steady_clock::now();
  const WriterCall call = runOnWriter(writer.post(), 1s, [&] {
    // Still running when the caller's deadline passes: the caller must wait for the end.
    while (std::chrono::steady_clock::now() < called + 1100ms) std::this_thread::yield();
    finished = true;
  });
  engine.join();
  BOOST_TEST((call == WriterCall::kDone));
  BOOST_TEST(finished);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms
