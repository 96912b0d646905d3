// PollThread: runs one step function again and again on a thread of its own, waiting between runs
// as long as the step says (the Square poller's pollOnce, the CSV folder's scan), until stop().
// The wait is on the system clock (what `serve` runs on); the tests and the demo call the steps
// themselves under a simulated clock instead.
//
// A step returning nullopt ends the loop (a halted poller). An exception from the step is caught
// and the step is run again after `afterError`. stop() wakes the wait, waits for a step in progress
// to return and joins; it is idempotent and the destructor calls it.
// Threading: start()/stop() from one thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

namespace atoms::drivers::pos {

class PollThread {
 public:
  using Step = std::function<std::optional<std::chrono::seconds>()>;

  explicit PollThread(Step step, std::chrono::seconds afterError = std::chrono::seconds(60))
      : step_(std::move(step)), afterError_(afterError) {}
  ~PollThread() { stop(); }
  PollThread(const PollThread&) = delete;
  PollThread& operator=(const PollThread&) = delete;

  void start();
  void stop();

 private:
  void run();

  Step step_;
  std::chrono::seconds afterError_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace atoms::drivers::pos
