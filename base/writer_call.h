// runOnWriter: how a thread that must answer someone in bounded time (an HTTP worker of the
// approvals API) has work done on the writer thread (the engine, which owns the store) without
// waiting forever when the engine is busy or stopping.
//
// fn is handed to `post` (Engine::post in the daemon) and the caller waits at most `timeout`
// (real time: it bounds how long a client waits, it is not domain time) for it to START. If the
// deadline passes first, fn is cancelled: when its turn comes it is skipped, so it never runs
// after the caller has given up and said "not done". Once fn has started, the caller waits for it
// to finish whatever the deadline, so what fn did and what the caller answers always agree.
//
// Threading: call from any thread but the writer's (a post that runs its task inline, as tests
// do, also works). fn runs on the writer; an exception escaping it is caught (kThrew).
#pragma once

#include <chrono>
#include <functional>

namespace atoms {

// Queues a task on the writer; false when the writer takes no more work (it is stopping).
using WriterPost = std::function<bool(std::function<void()>)>;

enum class WriterCall {
  kDone,      // fn ran to its end
  kThrew,     // fn ran and threw
  kRefused,   // post refused the task: fn never ran
  kDropped,   // the writer dropped the task unrun (it stopped): fn never ran
  kTimedOut,  // fn had not started by the deadline and never will
};

WriterCall runOnWriter(const WriterPost& post, std::chrono::milliseconds timeout,
                       std::function<void()> fn);

}  // namespace atoms
