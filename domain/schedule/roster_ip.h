// The benchmark's integer programming formulation of the roster model (Curtois & Qu,
// schedulingbenchmarks.org, instances 1-24; the same rules and horizon edges as
// roster_evaluator.h), solved with CBC (COIN-OR branch and cut, Debian coinor-libcbc-dev).
//
// Two uses: the whole model, as the natural peer of the solver (tests/bench/bench_schedule), and a
// sub-model in which only some cells are free and the rest keep a given roster's values, which the
// solver's large-neighbourhood steps solve exactly (roster_solver.h).
//
// Each call builds and owns its own CBC model: calls on different threads do not share state.
#pragma once

#include <cstdint>
#include <mutex>
#include <vector>

#include "domain/schedule/roster_model.h"

namespace atoms::schedule {

struct IpOptions {
  double seconds = 10;  // CBC's time limit
  // Solve as the `cbc` program does (its default cuts and heuristics, CbcMain), for the benchmark
  // peer; otherwise a plain branch and bound with a few cut generators, for small sub-models.
  bool standardCbc = false;
  int threads = 1;  // CBC's own threads, standardCbc only, where the library was built with them
  // standardCbc only: held while CBC's solver driver runs, which keeps state in statics. Callers
  // that may solve on several threads at once share one; the plain branch and bound needs none.
  std::mutex* driverMutex = nullptr;
};

struct IpOutcome {
  bool found = false;          // CBC returned an integer solution
  bool optimal = false;        // proven optimal (for the sub-model when cells were fixed)
  Roster roster;               // when found: the whole roster, fixed cells included
  std::int64_t objective = 0;  // when found: evaluateRoster's objective of that roster
  int columns = 0;             // the model's size, for the caller's neighbourhood sizing
  int rows = 0;
};

// Solves the formulation with the cells where free[person][day] is true as variables and every
// other cell fixed to start's value. `start` also seeds CBC with a first solution when it keeps
// the hard rules. free all true and start all off: the whole model.
IpOutcome solveRosterIp(const RosterInstance& instance, const Roster& start,
                        const std::vector<std::vector<char>>& free, const IpOptions& options);

}  // namespace atoms::schedule
