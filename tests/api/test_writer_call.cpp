// runOnWriter (base/writer_call.h): a task the writer has not started by the deadline is skipped
// when its turn comes; one it has started is waited for; a refused or dropped task is said so, and
// never runs. callOnWriter: the result, or nothing when the task was refused, dropped or threw.
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "base/writer_call.h"
#include "tests/support/inline_writer.h"

namespace atoms {
namespace {

using namespace std::chrono_literals;

// Holds posted tasks until the test runs or drops them; says when one arrived.
class HeldTasks final : public Writer {
 public:
  bool post(Task task) override {
    {
      std::lock_guard lock(mutex_);
      tasks_.push_back(std::move(task));
    }
    arrived_.notify_all();
    return true;
  }
  bool onWriterThread() const override { return false; }
  void runAfter(std::chrono::milliseconds, Task) override {
    throw std::logic_error("HeldTasks has no timers");
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

// A writer that has stopped: it takes no more work.
class StoppedWriter final : public Writer {
 public:
  bool post(Task) override { return false; }
  bool onWriterThread() const override { return false; }
  void runAfter(std::chrono::milliseconds, Task) override {
    throw std::logic_error("StoppedWriter has no timers");
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(writer_call)

BOOST_AUTO_TEST_CASE(aTaskRunOnTheWriterIsDone) {
  testing::InlineWriter writer;
  int ran = 0;
  BOOST_TEST((runOnWriter(writer, 1s, [&] { ++ran; }) == WriterCall::kDone));
  BOOST_TEST(ran == 1);
  BOOST_TEST(
      (runOnWriter(writer, 1s, [] { throw std::runtime_error("x"); }) == WriterCall::kThrew));
}

BOOST_AUTO_TEST_CASE(aRefusedTaskNeverRuns) {
  int ran = 0;
  StoppedWriter stopped;
  BOOST_TEST((runOnWriter(stopped, 1s, [&] { ++ran; }) == WriterCall::kRefused));
  BOOST_TEST(ran == 0);
}

BOOST_AUTO_TEST_CASE(aTaskNotStartedByTheDeadlineIsSkippedWhenItsTurnComes) {
  HeldTasks writer;
  int ran = 0;
  BOOST_TEST((runOnWriter(writer, 20ms, [&] { ++ran; }) == WriterCall::kTimedOut));
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
  BOOST_TEST((runOnWriter(writer, 60s, [&] { ++ran; }) == WriterCall::kDropped));
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
  const WriterCall call = runOnWriter(writer, 1s, [&] {
    // Still running when the caller's deadline passes: the caller must wait for the end.
    while (std::chrono::steady_clock::now() < called + 1100ms) std::this_thread::yield();
    finished = true;
  });
  engine.join();
  BOOST_TEST((call == WriterCall::kDone));
  BOOST_TEST(finished);
}

BOOST_AUTO_TEST_CASE(callOnWriterReturnsWhatTheTaskReturned) {
  testing::InlineWriter writer;
  BOOST_TEST(callOnWriter(writer, [] { return 42; }).value_or(0) == 42);
}

BOOST_AUTO_TEST_CASE(callOnWriterSaysNothingWhenTheTaskWasRefusedDroppedOrThrew) {
  StoppedWriter stopped;
  int ran = 0;
  BOOST_TEST(!callOnWriter(stopped, [&] { return ++ran; }).has_value());
  BOOST_TEST(ran == 0);

  HeldTasks writer;
  std::thread stopping([&] {
    BOOST_REQUIRE(writer.waitForOne(10s));
    writer.dropAll();  // the engine stopped with the task still queued
  });
  BOOST_TEST(!callOnWriter(writer, [&] { return ++ran; }).has_value());
  stopping.join();
  BOOST_TEST(ran == 0);

  // The exception is the writer's to handle: here it reaches the thread running the tasks.
  HeldTasks throwing;
  bool writerSawIt = false;
  std::thread engine([&] {
    if (!throwing.waitForOne(10s)) return;
    try {
      throwing.runAll();
    } catch (const std::runtime_error&) {
      writerSawIt = true;
    }
  });
  BOOST_TEST(!callOnWriter(throwing, []() -> int { throw std::runtime_error("x"); }).has_value());
  engine.join();
  BOOST_TEST(writerSawIt);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms
