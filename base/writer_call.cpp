#include "base/writer_call.h"

#include <condition_variable>
#include <memory>
#include <mutex>

namespace atoms {
namespace {

enum class State { kQueued, kRunning, kDone, kThrew, kDropped, kAbandoned };

struct Shared {
  std::mutex mutex;
  std::condition_variable changed;
  State state = State::kQueued;

  void set(State s) {
    {
      std::lock_guard lock(mutex);
      state = s;
    }
    changed.notify_all();
  }
};

// Owned by the posted task (and its copies): destroyed unrun means dropped.
struct Task {
  Task(std::shared_ptr<Shared> s, std::function<void()> f)
      : shared(std::move(s)), fn(std::move(f)) {}
  ~Task() {
    std::lock_guard lock(shared->mutex);
    if (shared->state != State::kQueued) return;
    shared->state = State::kDropped;
    shared->changed.notify_all();
  }
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;

  void run() {
    {
      std::lock_guard lock(shared->mutex);
      if (shared->state != State::kQueued) return;  // abandoned by the caller: skipped
      shared->state = State::kRunning;
    }
    try {
      fn();
      shared->set(State::kDone);
    } catch (...) {
      shared->set(State::kThrew);
    }
  }

  std::shared_ptr<Shared> shared;
  std::function<void()> fn;
};

}  // namespace

WriterCall runOnWriter(Writer& writer, std::chrono::milliseconds timeout,
                       std::function<void()> fn) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto shared = std::make_shared<Shared>();
  bool posted = false;
  {
    auto task = std::make_shared<Task>(shared, std::move(fn));
    posted = writer.post([task] { task->run(); });
  }  // from here only the writer's copy (if any) keeps the task
  if (!posted) return WriterCall::kRefused;
  std::unique_lock lock(shared->mutex);
  shared->changed.wait_until(lock, deadline, [&] { return shared->state != State::kQueued; });
  if (shared->state == State::kQueued) {
    shared->state = State::kAbandoned;
    return WriterCall::kTimedOut;
  }
  shared->changed.wait(lock, [&] { return shared->state != State::kRunning; });
  switch (shared->state) {
    case State::kDone:
      return WriterCall::kDone;
    case State::kThrew:
      return WriterCall::kThrew;
    default:
      return WriterCall::kDropped;
  }
}

}  // namespace atoms
