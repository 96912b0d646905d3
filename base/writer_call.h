// Waiting for work done on the writer (base/writer.h) from another thread: the two ways a thread
// that needs an answer has the writer (the engine, which owns the store) do something.
//
// runOnWriter: for a thread that must answer someone in bounded time (an HTTP worker of the
// approvals API), without waiting forever when the writer is busy or stopping. fn is posted to the
// writer and the caller waits at most `timeout` (real time: it bounds how long a client waits, it
// is not domain time) for it to START. If the deadline passes first, fn is cancelled: when its
// turn comes it is skipped, so it never runs after the caller has given up and said "not done".
// Once fn has started, the caller waits for it to finish whatever the deadline, so what fn did and
// what the caller answers always agree. An exception escaping fn is caught (kThrew).
//
// callOnWriter: for a thread that may wait as long as the writer takes (the service's main thread
// wiring its parts at start and stop, tests). fn is posted and the caller waits for its result;
// nullopt when the writer refused the task or dropped it unrun (it stopped), or when fn threw (the
// exception is the writer's to handle: the engine logs it, WorkerThread counts it).
//
// Threading: call from any thread but the writer's (a writer that runs posted tasks inline, as
// some tests' do, also works). fn runs on the writer.
#pragma once

#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <optional>

#include "base/writer.h"

namespace atoms {

enum class WriterCall {
  kDone,      // fn ran to its end
  kThrew,     // fn ran and threw
  kRefused,   // the writer refused the task: fn never ran
  kDropped,   // the writer dropped the task unrun (it stopped): fn never ran
  kTimedOut,  // fn had not started by the deadline and never will
};

WriterCall runOnWriter(Writer& writer, std::chrono::milliseconds timeout, std::function<void()> fn);

template <class F>
auto callOnWriter(Writer& writer, F fn) -> std::optional<decltype(fn())> {
  auto promise = std::make_shared<std::promise<decltype(fn())>>();
  auto future = promise->get_future();
  // From here the task alone owns the promise, so a task destroyed unrun (dropped) or whose fn
  // threw breaks it and wakes the caller. fn is captured by reference: this frame waits for the
  // task.
  if (!writer.post([promise = std::move(promise), &fn] { promise->set_value(fn()); })) {
    return std::nullopt;
  }
  try {
    return future.get();
  } catch (const std::future_error&) {
    return std::nullopt;  // dropped unrun, or fn threw: the promise was never kept
  }
}

}  // namespace atoms
