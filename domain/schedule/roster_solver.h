// The roster solver: builds a roster for a RosterInstance that keeps every hard rule and costs as
// little as it can find, and keeps the best one found at every moment (anytime). The algorithm
// (docs/decisions/0027-shift-scheduling-solver.md): simulated annealing over whole rosters with
// hard rules as an adaptive penalty, moves that keep cover (swaps of days and blocks between two
// people) and moves that change it (a day, a block of days, a short or over-covered shift); on
// small instances the whole model solved exactly by CBC from the best roster; optionally
// large-neighbourhood steps that free a few people or days and solve that sub-model with CBC.
// Workers on threads each run their own search from their own seed and restart each cycle from
// the best roster any of them has found.
//
// Time is not read here: the caller's `shouldStop` says when to stop (it is polled from every
// worker thread, so it must be thread-safe). With one thread, a seed and an iteration budget, a
// run is deterministic: the same roster every time.
#pragma once

#include <cstdint>
#include <functional>

#include "domain/schedule/roster_model.h"

namespace atoms::schedule {

struct SolveOptions {
  int threads = 1;                   // worker threads, at least 1
  std::uint64_t seed = 1;            // worker i searches with seed + i
  std::uint64_t maxIterations = 0;   // moves tried per worker; 0 = until shouldStop
  std::function<bool()> shouldStop;  // polled every few hundred moves; may be empty
  // Seconds left, when known: an exact step never runs past it. May be empty.
  std::function<double()> secondsLeft;
  // Exact steps with CBC (roster_ip.h). On small instances (and with secondsLeft), worker 0 hands
  // the whole model to CBC once, from the best roster, for most of the time left. Off: annealing
  // alone, deterministic under an iteration budget.
  bool exactSteps = true;
  // With exactSteps: large-neighbourhood rounds between annealing cycles, a few people or days
  // freed and solved exactly. Off by default: within 10 s on instances 5 and 7 they cost more
  // time than they gained (docs/decisions/0027-shift-scheduling-solver.md).
  bool exactNeighbourhoods = false;
  double exactStepSeconds = 0.3;  // CBC's limit for one sub-model
  // Told of each new best feasible roster's objective (under the solver's lock; keep it short).
  std::function<void(std::int64_t objective)> onImproved;
};

struct SolveResult {
  Roster roster;                 // the best feasible roster found, or the least infeasible one
  bool feasible = false;         // keeps every hard rule
  std::int64_t objective = 0;    // the roster's objective as the solver counted it
  std::int64_t hardExcess = 0;   // 0 when feasible (lineHardExcess summed over people)
  std::uint64_t iterations = 0;  // moves tried, all workers together
};

// Runs until shouldStop() or every worker's iteration budget is spent. One of the two must be set.
SolveResult solveRoster(const RosterInstance& instance, const SolveOptions& options);

}  // namespace atoms::schedule
