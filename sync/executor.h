// Executor: the owner thread of the sync objects (DESIGN.md section 2: one thread owns the site
// state, I/O threads hand it work). In `atoms-edge serve` it is the engine thread (an adapter in
// daemon/service/sync_subsystem.cpp); tests, benchmarks and tools use WorkerThread
// (sync/worker_thread.h). sync/ does not depend on daemon/, hence this small interface.
//
// Threading: post() from any thread, including Paho's callback threads (it must never block on
// the owner). runAfter() only from the owner thread.
#pragma once

#include <chrono>
#include <functional>

namespace atoms::sync {

class Executor {
 public:
  using Task = std::function<void()>;

  virtual ~Executor() = default;

  // Queues task to run on the owner thread, in posting order. False (task dropped) once the owner
  // has stopped.
  virtual bool post(Task task) = 0;

  // Owner thread only. Runs task on the owner thread once `delay` has passed. Timers are not
  // cancelled: a task checks on its own whether it is still wanted (the uplink keeps a
  // generation counter for that).
  virtual void runAfter(std::chrono::milliseconds delay, Task task) = 0;
};

}  // namespace atoms::sync
