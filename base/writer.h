// Writer: the thread that owns the site state and the store (DESIGN.md section 2). I/O threads
// (HTTP workers, Paho's callbacks, driver threads, the dispatcher) hand it work; it runs that work
// one task at a time, so code running on it needs no locks. In `atoms-edge serve` it is the engine
// thread (daemon/engine/engine.h); tests, benchmarks and tools use sync/worker_thread.h or, on
// simulated time, sync/simulated_executor.h.
//
// The one seam for handing work to the writer: the store runner (store/store_runner.h), the
// bounded and unbounded waits (base/writer_call.h) and the sync objects all take a Writer&.
//
// Threading: post() and onWriterThread() from any thread (post() must never block on the writer:
// Paho's callback threads call it); runAfter() only from the writer thread.
#pragma once

#include <chrono>
#include <functional>

namespace atoms {

class Writer {
 public:
  using Task = std::function<void()>;

  virtual ~Writer() = default;

  // Queues task to run on the writer, in posting order. False (task dropped) once the writer has
  // begun to stop. A task accepted here may still be dropped unrun when the writer stops: it is
  // then destroyed without running (callers that wait detect that through what the task owns).
  virtual bool post(Task task) = 0;

  // Whether the caller is the writer thread (then work for the writer may run inline).
  virtual bool onWriterThread() const = 0;

  // Writer thread only. Runs task on the writer once `delay` has passed on the writer's clock.
  // Timers are not cancelled: a task checks on its own whether it is still wanted (the uplink
  // keeps a generation counter for that). Dropped when the writer stops.
  virtual void runAfter(std::chrono::milliseconds delay, Task task) = 0;
};

}  // namespace atoms
