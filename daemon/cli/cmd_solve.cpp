// `atoms-edge solve INSTANCE`: the roster solver on a file of the public shift scheduling
// benchmark (docs/scheduling.md), writing the best roster found within the time limit; with
// --evaluate ROSTER, the exact evaluator on a roster instead.
#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "base/file_io.h"
#include "daemon/cli/commands.h"
#include "domain/schedule/benchmark_format.h"
#include "domain/schedule/roster_evaluator.h"
#include "domain/schedule/roster_solver.h"

namespace atoms::cli {
namespace {

namespace sch = atoms::schedule;
using SolveClock = std::chrono::steady_clock;

std::optional<std::uint64_t> solveCount(const std::string& text) {
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return n;
}

// Seconds, whole or with a fraction: "60", "0.5".
std::optional<double> solveSeconds(const std::string& text) {
  double s = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), s);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !(s > 0) ||
      s > 1e6) {
    return std::nullopt;
  }
  return s;
}

std::string secondsText(double s) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f s", s);
  return buffer;
}

void printScore(const sch::RosterEvaluation& e, Io& io) {
  io.out << "objective: " << e.objective << " (on-requests not met " << e.onRequests
         << ", off-requests not met " << e.offRequests << ", under cover " << e.underCover
         << ", over cover " << e.overCover << ")\n";
}

int runEvaluate(const sch::RosterInstance& instance, const std::string& path, Io& io) {
  auto text = readFileToString(path);
  if (!text) {
    io.err << "atoms-edge solve: " << text.message() << "\n";
    return kExitUsage;
  }
  auto roster = sch::parseBenchmarkRoster(instance, *text);
  if (!roster) {
    io.err << "atoms-edge solve: " << path << ": " << roster.message() << "\n";
    return kExitUsage;
  }
  const sch::RosterEvaluation e = sch::evaluateRoster(instance, *roster);
  io.out << "feasible: " << (e.feasible ? "yes" : "no") << "\n";
  printScore(e, io);
  for (const sch::RosterViolation& v : e.violations) io.out << "violation: " << v.text << "\n";
  return e.feasible ? kExitOk : kExitFailure;
}

int runSolve(const Args& args, Io& io) {
  const std::string instancePath = args.positionals[0];
  auto text = readFileToString(instancePath);
  if (!text) {
    io.err << "atoms-edge solve: " << text.message() << "\n";
    return kExitUsage;
  }
  auto instance = sch::parseBenchmarkInstance(*text);
  if (!instance) {
    io.err << "atoms-edge solve: " << instancePath << ": " << instance.message() << "\n";
    return kExitUsage;
  }
  if (args.has("evaluate")) return runEvaluate(*instance, args.get("evaluate", ""), io);

  if (!args.has("out")) {
    io.err << "atoms-edge solve: --out ROSTER is needed (or --evaluate ROSTER)\n";
    return kExitUsage;
  }
  const auto limit = solveSeconds(args.get("time-limit", "60"));
  const auto threads = solveCount(args.get("threads", "1"));
  const auto seed = solveCount(args.get("seed", "1"));
  const auto iterations = solveCount(args.get("iterations", "0"));
  if (!limit) {
    io.err << "atoms-edge solve: --time-limit expects seconds above 0\n";
    return kExitUsage;
  }
  if (!threads || *threads < 1 || *threads > 64) {
    io.err << "atoms-edge solve: --threads expects 1 to 64\n";
    return kExitUsage;
  }
  if (!seed || !iterations) {
    io.err << "atoms-edge solve: --seed and --iterations expect whole numbers\n";
    return kExitUsage;
  }

  io.out << "instance: " << instancePath << " (" << instance->personCount() << " employees, "
         << instance->days << " days, " << instance->typeCount() << " shift types)\n";
  const auto start = SolveClock::now();
  const auto deadline = start + std::chrono::duration_cast<SolveClock::duration>(
                                    std::chrono::duration<double>(*limit));
  std::mutex printMutex;
  sch::SolveOptions options;
  options.threads = static_cast<int>(*threads);
  options.seed = *seed;
  options.maxIterations = *iterations;
  options.shouldStop = [deadline] { return SolveClock::now() >= deadline; };
  options.secondsLeft = [deadline] {
    return std::chrono::duration<double>(deadline - SolveClock::now()).count();
  };
  const bool quiet = args.has("quiet");
  options.onImproved = [&](std::int64_t objective) {
    if (quiet) return;
    std::lock_guard lock(printMutex);
    io.err << "atoms-edge solve: "
           << secondsText(std::chrono::duration<double>(SolveClock::now() - start).count())
           << ": a feasible roster of objective " << objective << "\n";
  };
  const sch::SolveResult result = sch::solveRoster(*instance, options);
  const double seconds = std::chrono::duration<double>(SolveClock::now() - start).count();

  const sch::RosterEvaluation e = sch::evaluateRoster(*instance, result.roster);
  const std::string outPath = args.get("out", "");
  Status written =
      replaceFileDurably(outPath, sch::formatBenchmarkRoster(*instance, result.roster));
  if (!written) {
    io.err << "atoms-edge solve: " << written.message() << "\n";
    return kExitFailure;
  }
  io.out << "feasible: " << (e.feasible ? "yes" : "no") << "\n";
  printScore(e, io);
  io.out << "time: " << secondsText(seconds) << ", " << result.iterations << " moves tried on "
         << *threads << (*threads == 1 ? " thread" : " threads") << "\n";
  io.out << "roster: " << outPath << "\n";
  if (e.feasible != result.feasible || e.objective != result.objective) {
    io.err << "atoms-edge solve: internal error: the solver counted objective " << result.objective
           << (result.feasible ? " (feasible)" : " (infeasible)") << ", the evaluator "
           << e.objective << "\n";
    return kExitSoftware;
  }
  if (!e.feasible) {
    io.out << "no roster keeping every hard rule was found; the closest one was written:\n";
    for (const sch::RosterViolation& v : e.violations) io.out << "violation: " << v.text << "\n";
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace

Command solveCommand() {
  return Command{
      .name = "solve",
      .summary = "build a roster for a shift scheduling benchmark instance",
      .usage =
          "atoms-edge solve INSTANCE --out ROSTER [--time-limit S] [--threads T]\n"
          "       atoms-edge solve INSTANCE --evaluate ROSTER",
      .help =
          "Reads INSTANCE in the public shift scheduling benchmark's format (Curtois & Qu,\n"
          "schedulingbenchmarks.org) and searches for the roster of least cost that keeps every\n"
          "hard rule, until the time limit or the iteration budget. The best roster found is\n"
          "kept at every moment and written to ROSTER at the end: one line per employee,\n"
          "ID<TAB>s0<TAB>s1... with a shift ID or '-' for a day off. Prints whether it is\n"
          "feasible, its objective and its parts, and the time taken; each better roster found\n"
          "on the way is reported on stderr. Exit 0 with a feasible roster, 1 when none was\n"
          "found (the closest is written and its violations listed), 2 for bad input (the\n"
          "error names the file's line).\n"
          "\n"
          "With --evaluate ROSTER, checks a roster instead: every hard rule violated, in plain\n"
          "words, and the exact objective. Exit 0 when it is feasible, 1 when it is not.\n"
          "\n"
          "With --threads 1 and --iterations N the run is deterministic for a --seed.\n",
      .options = {{"out", "ROSTER", "where to write the roster"},
                  {"time-limit", "S", "seconds to search, a fraction allowed (default 60)"},
                  {"threads", "T", "worker threads (default 1)"},
                  {"seed", "N", "seed of the search (default 1)"},
                  {"iterations", "N", "moves per worker, then stop (default 0: no budget)"},
                  {"quiet", "", "do not report each better roster on stderr"},
                  {"evaluate", "ROSTER", "check and score ROSTER instead of solving"}},
      .minPositionals = 1,
      .maxPositionals = 1,
      .run = runSolve,
  };
}

}  // namespace atoms::cli
