// bench_schedule: the roster solver (`atoms-edge solve`'s engine, domain/schedule/) on the public
// shift scheduling benchmark's instances, against the best known objectives and against CBC on the
// benchmark's own integer programming formulation with the same time limit (domain/schedule/
// roster_ip.h: the whole model, solved as the `cbc` program does). docs/benchmarks.md.
//
// For each instance and limit: the solver's objective, whether it keeps every hard rule (checked by
// the evaluator, not taken from the solver), the gap to the best known, then CBC's objective (or
// "none") in the same run. Wall-clock limits: figures depend on the machine and its load.
//
// Usage: bench_schedule [--dir DIR] [--limits 10,60] [--instances 1,2,...] [--threads 2]
//                       [--seed 1] [--no-cbc] [--no-exact] [--quick]
//   --no-exact: the solver without its exact (CBC) steps, annealing alone.
//   --quick: limits 10, instances 1 to 8 (the table's rows stay the same shape).
// DIR defaults to ../shared/bench/shift-scheduling beside the checkout (README.md and
// best_known.csv there). Prints a table; asserts nothing.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "base/file_io.h"
#include "domain/schedule/benchmark_format.h"
#include "domain/schedule/roster_evaluator.h"
#include "domain/schedule/roster_ip.h"
#include "domain/schedule/roster_solver.h"
#include "tests/bench/bench_support.h"
#include "tests/support/build_paths.h"

namespace atoms {
namespace {

using bench::Clock;
using bench::die;
using bench::must;
namespace sch = atoms::schedule;

std::vector<int> numberList(const std::string& text, const char* what) {
  std::vector<int> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    char* end = nullptr;
    const long v = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || v <= 0) die(std::string("not a list of numbers: ") + what);
    out.push_back(static_cast<int>(v));
  }
  return out;
}

// best_known.csv: instance,weeks,employees,shift_types,lower_bound,solution,...
std::map<std::string, long> bestKnown(const std::string& dir) {
  std::map<std::string, long> best;
  auto text = readFileToString(dir + "/best_known.csv");
  if (!text) return best;  // no gaps shown
  std::stringstream in(*text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("instance,", 0) == 0) continue;
    std::vector<std::string> f;
    std::stringstream fields(line);
    std::string field;
    while (std::getline(fields, field, ',')) f.push_back(field);
    if (f.size() >= 6) best[f[0]] = std::strtol(f[5].c_str(), nullptr, 10);
  }
  return best;
}

struct Row {
  std::string name;
  double limit = 0;
  bool feasible = false;
  long objective = 0;
  long best = -1;
  std::string cbc;
};

std::string gapText(long objective, long best) {
  if (best <= 0) return "-";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f%%", 100.0 * (objective - best) / best);
  return buffer;
}

int run(int argc, char** argv) {
  std::string dir = testing::sourceDir() + "/../shared/bench/shift-scheduling";
  std::vector<int> limits = {10, 60};
  std::vector<int> instances = {1,  2,  3,  4,  5,  6,  7,  9,  10, 11,
                                12, 13, 14, 16, 17, 18, 20, 21, 23, 24};
  int threads = 2;
  std::uint64_t seed = 1;
  bool cbc = true;
  bool exact = true;  // the solver's exact steps (SolveOptions::exactSteps)
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) die("option " + a + " needs a value");
      return argv[++i];
    };
    if (a == "--dir") {
      dir = value();
    } else if (a == "--limits") {
      limits = numberList(value(), "--limits");
    } else if (a == "--instances") {
      instances = numberList(value(), "--instances");
    } else if (a == "--threads") {
      threads = numberList(value(), "--threads").at(0);
    } else if (a == "--seed") {
      seed = static_cast<std::uint64_t>(numberList(value(), "--seed").at(0));
    } else if (a == "--no-cbc") {
      cbc = false;
    } else if (a == "--no-exact") {
      exact = false;
    } else if (a == "--quick") {
      limits = {10};
      instances = {1, 2, 3, 4, 5, 6, 7};
    } else {
      die("unknown option " + a +
          " (--dir DIR --limits a,b --instances a,b --threads T --seed S --no-cbc --no-exact "
          "--quick)");
    }
  }
  const std::map<std::string, long> best = bestKnown(dir);
  std::printf("%-11s %6s %5s %10s %10s %8s %10s\n", "instance", "limit", "feas", "objective",
              "best known", "gap", "CBC");
  for (int number : instances) {
    const std::string name = "Instance" + std::to_string(number);
    const std::string path = dir + "/" + name + ".txt";
    auto text = readFileToString(path);
    if (!text) {
      std::printf("%-11s (not in %s)\n", name.c_str(), dir.c_str());
      continue;
    }
    const sch::RosterInstance instance = must(sch::parseBenchmarkInstance(*text), path.c_str());
    for (int limit : limits) {
      Row row;
      row.name = name;
      row.limit = limit;
      const auto it = best.find(name);
      row.best = it == best.end() ? -1 : it->second;
      const auto deadline = Clock::now() + std::chrono::seconds(limit);
      sch::SolveOptions options;
      options.threads = threads;
      options.seed = seed;
      options.exactSteps = exact;
      options.shouldStop = [deadline] { return Clock::now() >= deadline; };
      options.secondsLeft = [deadline] {
        return std::chrono::duration<double>(deadline - Clock::now()).count();
      };
      const sch::SolveResult result = sch::solveRoster(instance, options);
      const sch::RosterEvaluation e = sch::evaluateRoster(instance, result.roster);
      row.feasible = e.feasible;
      row.objective = static_cast<long>(e.objective);
      if (cbc) {
        sch::IpOptions ip;
        ip.seconds = limit;
        ip.standardCbc = true;
        ip.threads = threads;
        const auto start = Clock::now();
        const std::vector<std::vector<char>> all(
            instance.personCount(), std::vector<char>(static_cast<std::size_t>(instance.days), 1));
        const sch::IpOutcome out =
            sch::solveRosterIp(instance, sch::Roster::allOff(instance), all, ip);
        const bool ok = out.found && sch::evaluateRoster(instance, out.roster).feasible;
        row.cbc = ok ? std::to_string(out.objective) + (out.optimal ? "*" : "") : "none";
        if (bench::secondsSince(start) > limit * 1.5 + 5) row.cbc += " (late)";
      } else {
        row.cbc = "-";
      }
      std::printf("%-11s %5ds %5s %10ld %10s %8s %10s\n", row.name.c_str(), limit,
                  row.feasible ? "yes" : "NO", row.objective,
                  row.best > 0 ? std::to_string(row.best).c_str() : "-",
                  row.feasible ? gapText(row.objective, row.best).c_str() : "-", row.cbc.c_str());
      std::fflush(stdout);
    }
  }
  std::printf("(CBC: * proven optimal; none: no solution within the limit)\n");
  return 0;
}

}  // namespace
}  // namespace atoms

int main(int argc, char** argv) { return atoms::run(argc, argv); }
