// WorkerThread: a Writer (base/writer.h) with a thread of its own, for the sync objects outside the
// service (tests, benchmarks, the future ingest command). Tasks run one at a time in posting order;
// timers run in deadline order on the steady clock, before queued tasks that were posted later.
//
// Threading: post(), onWriterThread(), runAfter() and call() from any thread; stop() and the
// destructor from the owning thread, never from a task. An exception escaping a task is caught and
// counted (failedTasks()), the thread goes on.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "base/writer.h"

namespace atoms::sync {

class WorkerThread final : public Writer {
 public:
  WorkerThread();
  // Stops and joins.
  ~WorkerThread() override;
  WorkerThread(const WorkerThread&) = delete;
  WorkerThread& operator=(const WorkerThread&) = delete;

  bool post(Task task) override;
  bool onWriterThread() const override { return std::this_thread::get_id() == thread_.get_id(); }
  void runAfter(std::chrono::milliseconds delay, Task task) override;

  // Refuses further tasks, lets the running one finish, drops the rest (timers included), joins.
  // Idempotent.
  void stop();

  // Runs fn on the worker and returns its result, or nullopt when the worker stopped or the
  // deadline passed first (fn may then still run later). Never call it from a task.
  template <class F>
  auto call(F fn, std::chrono::milliseconds deadline = std::chrono::seconds(30))
      -> std::optional<decltype(fn())> {
    using R = decltype(fn());
    auto promise = std::make_shared<std::promise<R>>();
    auto future = promise->get_future();
    if (!post([promise, fn = std::move(fn)]() mutable { promise->set_value(fn()); })) {
      return std::nullopt;
    }
    if (future.wait_for(deadline) != std::future_status::ready) return std::nullopt;
    return future.get();
  }

  std::uint64_t failedTasks() const { return failedTasks_.load(); }

 private:
  using Deadline = std::chrono::steady_clock::time_point;
  void loop();

  std::mutex mutex_;  // guards the fields below
  std::condition_variable wake_;
  std::deque<Task> queue_;
  std::multimap<Deadline, Task> timers_;
  bool stopping_ = false;

  std::atomic<std::uint64_t> failedTasks_{0};
  std::thread thread_;
};

}  // namespace atoms::sync
