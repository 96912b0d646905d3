// bench_labor: the labor engine's speed on a realistic site (tests/support/synthetic_site.h),
// default 200 people, four weeks of shifts, San Francisco (federal + California + city rules).
// Times are this thread's CPU time (meaningful on a busy machine) with wall time beside them.
//
//   1. LaborContext::build: indexing the site once (what a schedule edit costs);
//   2. evaluations of one candidate assignment per second: many different (person, shift)
//      pairs, each evaluate(person, shift) against all of the person's work, as the call-out
//      flow ranks candidates; the mean, and the spread (median, p90, p99) of single calls;
//   3. one open shift against every person of the site (one call-out's full ranking);
//   4. checkSchedule: the whole schedule, every assigned shift (`atoms-edge check`).
//
// Usage: bench_labor [--people N] [--weeks K] [--evaluations E] [--seed S]
//                    [--jurisdictions a,b,c] [--labor-dir DIR] [--write-site FILE]
// Prints figures; asserts nothing.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include "domain/labor/labor_engine.h"
#include "domain/labor/rule_table.h"
#include "domain/labor/schedule_check.h"
#include "domain/site/site_file.h"
#include "domain/site/site_model.h"
#include "tests/bench/bench_support.h"
#include "tests/support/build_paths.h"
#include "tests/support/synthetic_site.h"

namespace atoms {
namespace {

using bench::Clock;
using bench::die;
using bench::must;
using bench::secondsSince;

// This thread's CPU time: on a shared machine (other builds running) it is the figure that still
// means something; wall time is printed beside it.
double cpuSeconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct Stopwatch {
  Clock::time_point wall = Clock::now();
  double cpu = cpuSeconds();
  double wallSeconds() const { return secondsSince(wall); }
  double cpuElapsed() const { return cpuSeconds() - cpu; }
};

struct Options {
  int people = 200;
  int weeks = 4;
  long evaluations = 200000;
  std::uint64_t seed = 1;
  std::vector<std::string> jurisdictions{"us", "us-ca", "us-ca-san-francisco"};
  std::string laborDir = atoms::testing::sourceDir() + "/etc/labor";
  std::string writeSite;  // also write the generated site file here (for `atoms-edge check`)
};

long number(const char* text, const char* flag) {
  char* end = nullptr;
  const long n = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || n <= 0)
    die(std::string(flag) + ": expected a positive number");
  return n;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) die("usage: see the comment at the top of bench_labor.cpp");
    const char* value = argv[++i];
    if (flag == "--people") {
      o.people = static_cast<int>(number(value, "--people"));
    } else if (flag == "--weeks") {
      o.weeks = static_cast<int>(number(value, "--weeks"));
    } else if (flag == "--evaluations") {
      o.evaluations = number(value, "--evaluations");
    } else if (flag == "--seed") {
      o.seed = static_cast<std::uint64_t>(number(value, "--seed"));
    } else if (flag == "--write-site") {
      o.writeSite = value;
    } else if (flag == "--labor-dir") {
      o.laborDir = value;
    } else if (flag == "--jurisdictions") {
      o.jurisdictions.clear();
      std::string list = value;
      for (std::size_t pos = 0; pos <= list.size();) {
        const std::size_t comma = std::min(list.find(',', pos), list.size());
        o.jurisdictions.push_back(list.substr(pos, comma - pos));
        pos = comma + 1;
      }
    } else {
      die("unknown option " + flag);
    }
  }
  return o;
}

// xorshift64: the candidate pairs, the same on every run.
std::uint64_t nextRandom(std::uint64_t& state) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

double percentile(std::vector<double> sorted, double p) {
  if (sorted.empty()) return 0;
  const auto i = static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1));
  return sorted[i];
}

int run(const Options& o) {
  testing::SyntheticSiteSpec spec;
  spec.seed = o.seed;
  spec.people = o.people;
  spec.stations = 8;
  spec.weeks = o.weeks;
  spec.jurisdictions = o.jurisdictions;
  spec.industry = "retail";
  auto start = Clock::now();
  const site::SiteModel model = testing::syntheticSite(spec);
  const double generated = secondsSince(start);
  if (!o.writeSite.empty()) {
    std::ofstream(o.writeSite, std::ios::binary | std::ios::trunc) << site::writeSiteFile(model);
  }
  std::size_t assignedShifts = 0;
  for (const site::Shift& s : model.shifts) assignedShifts += s.assignee ? 1 : 0;

  start = Clock::now();
  const labor::RuleBook rules =
      must(labor::loadRuleBook(o.laborDir, o.jurisdictions), "loading the rule tables");
  const double loaded = secondsSince(start);

  std::string codes;
  for (const std::string& c : o.jurisdictions) codes += (codes.empty() ? "" : ",") + c;
  std::printf(
      "labor engine benchmark: %d people, %zu stations, %d weeks, %zu shifts (%zu assigned), "
      "rules %s (%zu rule versions)\n",
      o.people, model.stations.size(), o.weeks, model.shifts.size(), assignedShifts, codes.c_str(),
      rules.rules().size());
  std::printf("site generated in %.1f ms; rule tables loaded in %.1f ms\n", generated * 1e3,
              loaded * 1e3);

  // 1. Context build.
  const int builds = 20;
  Stopwatch watch;
  for (int i = 0; i < builds; ++i) must(labor::LaborContext::build(model, rules), "build");
  std::printf("context build:            %8.2f ms cpu, %.2f ms wall (mean of %d)\n",
              watch.cpuElapsed() * 1e3 / builds, watch.wallSeconds() * 1e3 / builds, builds);
  const labor::LaborContext ctx = must(labor::LaborContext::build(model, rules), "build");

  // 2. Many different candidate/shift pairs: any person, any shift of the site.
  std::uint64_t state = 0x9e3779b97f4a7c15ULL ^ o.seed;
  std::vector<std::pair<const site::Person*, const site::Shift*>> pairs;
  pairs.reserve(static_cast<std::size_t>(o.evaluations));
  for (long i = 0; i < o.evaluations; ++i) {
    pairs.emplace_back(&model.people[nextRandom(state) % model.people.size()],
                       &model.shifts[nextRandom(state) % model.shifts.size()]);
  }
  std::int64_t sink = 0;
  std::size_t denied = 0;
  watch = Stopwatch{};
  for (const auto& [person, shift] : pairs) {
    const labor::Verdict v = must(ctx.evaluate(person->id, shift->id), "evaluate");
    sink += v.premiumCents;
    denied += v.kind == labor::VerdictKind::kDenied ? 1 : 0;
  }
  const double evalCpu = watch.cpuElapsed();
  const double evalWall = watch.wallSeconds();
  const double n = static_cast<double>(pairs.size());
  std::printf(
      "evaluations:              %8.0f /s cpu (%.0f /s wall) over %zu different candidate/shift "
      "pairs (%zu denied)\n",
      n / evalCpu, n / evalWall, pairs.size(), denied);
  // The spread, from a second pass timing each call (wall: includes any preemption).
  std::vector<double> micros;
  micros.reserve(pairs.size());
  for (const auto& [person, shift] : pairs) {
    const auto t0 = Clock::now();
    sink += must(ctx.evaluate(person->id, shift->id), "evaluate").premiumCents;
    micros.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
  }
  std::sort(micros.begin(), micros.end());
  std::printf(
      "  per evaluation:         mean %.1f us cpu; wall median %.1f us, p90 %.1f us, p99 %.1f us\n",
      evalCpu * 1e6 / n, percentile(micros, 0.5), percentile(micros, 0.9),
      percentile(micros, 0.99));

  // 3. One call-out: an open shift (or the first shift) against every person.
  const site::Shift* open = &model.shifts.front();
  for (const site::Shift& s : model.shifts) {
    if (!s.assignee) {
      open = &s;
      break;
    }
  }
  const int rankings = 50;
  watch = Stopwatch{};
  for (int r = 0; r < rankings; ++r) {
    for (const site::Person& p : model.people) {
      sink += must(ctx.evaluate(p.id, open->id), "evaluate").premiumCents;
    }
  }
  std::printf(
      "one shift, every person:  %8.2f ms cpu, %.2f ms wall for %zu candidates (mean of %d)\n",
      watch.cpuElapsed() * 1e3 / rankings, watch.wallSeconds() * 1e3 / rankings,
      model.people.size(), rankings);

  // 4. The whole schedule.
  const int checks = 5;
  labor::ScheduleCheck last;
  watch = Stopwatch{};
  for (int i = 0; i < checks; ++i) last = must(labor::checkSchedule(model, rules), "check");
  const double checkCpu = watch.cpuElapsed() / checks;
  std::printf(
      "whole-schedule check:     %8.2f ms cpu, %.2f ms wall for %zu assigned shifts (mean of %d, "
      "context build included): %.1f us cpu per shift\n",
      checkCpu * 1e3, watch.wallSeconds() * 1e3 / checks, last.assignedShifts, checks,
      checkCpu * 1e6 / static_cast<double>(std::max<std::size_t>(1, last.assignedShifts)));
  std::printf(
      "  found %zu findings (%zu denied, %zu consent, %zu premium) for %zu people; "
      "premium $%lld.%02lld\n",
      last.findings, last.denied, last.needsConsent, last.withPremium, last.people.size(),
      static_cast<long long>(last.premiumCents / 100),
      static_cast<long long>(last.premiumCents % 100));
  return sink == -1 ? 1 : 0;  // keeps the evaluations from being optimised away
}

}  // namespace
}  // namespace atoms

int main(int argc, char** argv) { return atoms::run(atoms::parse(argc, argv)); }
