// bench_week_build: "build the week" and "fill open shifts" (domain/week/week_builder.h) on a
// generated site of 30 people and 7 stations (tests/support/synthetic_site.h, San Francisco rules
// from etc/labor), timed as a whole: the roster engine, the labor check of every shift, the
// repair of what it opens and the explanations. Prints each figure beside the 2 s a manager
// should wait at most (issue 18); a figure, not a timed test.
//
//   bench_week_build [--people 30] [--stations 7] [--seed 1] [--runs 3]
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "domain/labor/rule_table.h"
#include "domain/week/week_builder.h"
#include "domain/week/week_check.h"
#include "tests/bench/bench_support.h"
#include "tests/support/build_paths.h"
#include "tests/support/synthetic_site.h"

namespace {

using namespace atoms;
namespace chr = std::chrono;

constexpr double kLimitSeconds = 2.0;

struct Run {
  double seconds = 0;
  week::WeekPlan plan;
};

Run timedBuild(const week::BuildInput& in) {
  const auto start = bench::Clock::now();
  Run r;
  r.plan = bench::must(week::buildWeek(in), "build");
  r.seconds = bench::secondsSince(start);
  return r;
}

void report(const char* what, const std::vector<Run>& runs, std::size_t shifts) {
  double best = runs.front().seconds, worst = best;
  for (const Run& r : runs) {
    best = std::min(best, r.seconds);
    worst = std::max(worst, r.seconds);
  }
  const week::PlanScore& s = runs.front().plan.score;
  std::printf(
      "%-34s %4zu shifts  %6.3f s best  %6.3f s worst  (limit %.0f s: %s)  open %lld, "
      "premiums $%lld, changes %lld\n",
      what, shifts, best, worst, kLimitSeconds, worst < kLimitSeconds ? "within" : "OVER",
      static_cast<long long>(s.shortfallShifts), static_cast<long long>(s.premiumCents / 100),
      static_cast<long long>(s.changes));
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t people = 30, stations = 7, seed = 1, runs = 3;
  bench::parseOptions(
      argc, argv,
      {{"--people", &people}, {"--stations", &stations}, {"--seed", &seed}, {"--runs", &runs}});
  if (runs < 1) bench::die("--runs must be at least 1");
  testing::SyntheticSiteSpec spec;
  spec.people = static_cast<int>(people);
  spec.stations = static_cast<int>(stations);
  spec.seed = seed;
  spec.weeks = 2;
  site::SiteModel live = testing::syntheticSite(spec);
  live.site.workweekStart = 0;
  const week::Week target{chr::year{2026} / 3 / 8};  // the second week, a Sunday
  const auto rules = bench::must(
      labor::loadRuleBook(testing::sourceDir() + "/etc/labor", live.site.jurisdictions), "rules");
  const auto zone = bench::must(site::TimeZone::locate(live.site.timeZone), "zone");

  // The week's shifts as the draft, and their shapes as the requirements.
  week::WeekDraft draft;
  draft.week = target;
  draft.nextShift = 1;
  std::vector<week::Requirement> requirements;
  for (const site::Shift& s : live.shifts) {
    if (!week::inWeek(live.site, target, s)) continue;
    draft.shifts.push_back(s);
    const auto day = chr::floor<chr::days>(s.start.local);
    const int start = static_cast<int>(
        chr::duration_cast<chr::minutes>(s.start.local - site::LocalTime(day)).count());
    const int minutes =
        static_cast<int>(chr::duration_cast<chr::minutes>(s.end.local - s.start.local).count());
    const int weekday = static_cast<int>((day - target).count());
    if (weekday < 0 || weekday > 6 || minutes < 1 || minutes > 1440) continue;
    requirements.push_back({s.stationId, weekday, start, minutes, 1, s.requiredCertification});
  }

  week::BuildInput in;
  in.live = &live;
  in.rules = &rules;
  in.zone = &zone;
  in.now = site::Instant(chr::sys_days{chr::year{2026} / 3 / 1});

  std::printf("site week: %llu people, %llu stations, week of %s, %zu shifts in the draft\n",
              static_cast<unsigned long long>(people), static_cast<unsigned long long>(stations),
              week::formatWeek(target).c_str(), draft.shifts.size());

  // From scratch: an empty draft and the requirements.
  week::WeekDraft empty;
  empty.week = target;
  std::vector<Run> scratch, rebuild, fill;
  for (std::uint64_t i = 0; i < runs; ++i) {
    in.mode = week::BuildMode::kBuild;
    in.draft = &empty;
    in.requirements = requirements;
    scratch.push_back(timedBuild(in));
    in.draft = &draft;
    in.requirements.clear();
    rebuild.push_back(timedBuild(in));
    in.mode = week::BuildMode::kFillOpen;
    fill.push_back(timedBuild(in));
  }
  report("build from requirements (empty)", scratch, requirements.size());
  report("build over the published draft", rebuild, draft.shifts.size());
  report("fill the draft's open shifts", fill, draft.shifts.size());
  for (const Run& r : scratch) {
    auto check = bench::must(week::checkWeek(live, rules, {}, target, r.plan.shifts), "check");
    std::size_t denied = 0;
    for (const week::WeekFinding& f : check.findings) {
      const bool byPlan = std::any_of(
          r.plan.choices.begin(), r.plan.choices.end(),
          [&](const week::PlanChoice& c) { return c.shiftId == f.shiftId && c.personId; });
      denied += f.denied() && byPlan ? 1 : 0;
    }
    if (denied != 0) bench::die("the plan holds a shift the labor engine denies");
  }
  return 0;
}
