// InlineWriter: a Writer (base/writer.h) that runs each posted task at once, on the posting thread,
// for tests of code that hands work to the writer when the test needs no writer thread of its
// own. post() always accepts; onWriterThread() is false (nothing here is the writer's own
// thread); runAfter() is not for it (it throws std::logic_error: use WorkerThread or
// SimulatedExecutor).
#pragma once

#include <stdexcept>

#include "base/writer.h"

namespace atoms::testing {

class InlineWriter final : public Writer {
 public:
  bool post(Task task) override {
    task();
    return true;
  }
  bool onWriterThread() const override { return false; }
  void runAfter(std::chrono::milliseconds, Task) override {
    throw std::logic_error("InlineWriter has no timers");
  }
};

}  // namespace atoms::testing
