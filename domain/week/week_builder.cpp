#include "domain/week/week_builder.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "domain/schedule/roster_solver.h"
#include "domain/week/plan_explanation.h"
#include "domain/week/site_roster.h"
#include "domain/week/week_check.h"

namespace atoms::week {

namespace chr = std::chrono;

namespace {

// Moves per person and day the engine tries when the caller gives no budget: enough for a site
// week to settle (docs/benchmarks.md, the site week), far below the 2 s a manager waits.
constexpr std::uint64_t kMovesPerPersonDay = 3000;
constexpr std::uint64_t kLeastMoves = 200000;
// Candidates tried, best first, for a shift still open after the engine's roster.
constexpr std::size_t kRepairTries = 3;

constexpr auto kByStart = [](const site::Shift& a, const site::Shift& b) {
  return a.start.utc != b.start.utc ? a.start.utc < b.start.utc : a.id < b.id;
};

struct Planning {
  const BuildInput& in;
  std::vector<site::Shift> draft;  // the draft's shifts, with the requirements' new ones open
  std::vector<bool> free;
  std::int64_t nextShift = 1;
  std::int64_t added = 0;
};

bool sameShape(const site::Shift& s, const std::string& station, site::LocalTime start,
               site::LocalTime end, const std::optional<std::string>& cert) {
  return s.stationId == station && s.start.local == start && s.end.local == end &&
         s.requiredCertification == cert;
}

// Step 1: the requirements' heads the draft has no shift for, as new open shifts.
Status addRequired(Planning& p) {
  const BuildInput& in = p.in;
  if (Status s = checkRequirements(in.requirements); !s) return s;
  const site::SiteIndex index(*in.live);
  std::vector<bool> matched(p.draft.size(), false);
  for (std::size_t r = 0; r < in.requirements.size(); ++r) {
    const Requirement& q = in.requirements[r];
    const std::string where = "requirements[" + std::to_string(r) + "]";
    if (index.station(q.stationId) == nullptr) {
      return makeError(where + ": unknown station '" + q.stationId + "'", ErrorKind::kNotFound);
    }
    if (q.certificationId && index.certification(*q.certificationId) == nullptr) {
      return makeError(where + ": unknown certification '" + *q.certificationId + "'",
                       ErrorKind::kNotFound);
    }
    const site::LocalTime start =
        site::LocalTime(in.draft->week + chr::days(q.day)) + chr::minutes(q.startMinute);
    const site::LocalTime end = start + chr::minutes(q.minutes);
    auto startUtc = in.zone->toUtc(start);
    if (!startUtc) return makeError(where + ": " + startUtc.message(), ErrorKind::kInvalid);
    auto endUtc = in.zone->toUtc(end);
    if (!endUtc) return makeError(where + ": " + endUtc.message(), ErrorKind::kInvalid);
    if (*startUtc <= in.now) continue;  // the past stays as it was worked
    int heads = q.heads;
    for (std::size_t i = 0; i < matched.size() && heads > 0; ++i) {
      if (matched[i] || !sameShape(p.draft[i], q.stationId, start, end, q.certificationId)) {
        continue;
      }
      matched[i] = true;
      --heads;
    }
    for (; heads > 0; --heads) {
      site::Shift s;
      s.id = formatWeek(in.draft->week) + "-" + std::to_string(p.nextShift++);
      s.stationId = q.stationId;
      s.start = {*startUtc, start};
      s.end = {*endUtc, end};
      s.requiredCertification = q.certificationId;
      if (!inWeek(in.live->site, in.draft->week, s)) {
        return makeError(where + ": not in the week of " + formatWeek(in.draft->week),
                         ErrorKind::kInvalid);
      }
      p.draft.push_back(std::move(s));
      ++p.added;
    }
  }
  std::stable_sort(p.draft.begin(), p.draft.end(), kByStart);
  return Status::success();
}

// Assignments the plan made (a free shift whose person is not the draft's).
bool madeByPlan(const Planning& p, const std::vector<site::Shift>& shifts, std::size_t i) {
  return p.free[i] && shifts[i].assignee && shifts[i].assignee != p.draft[i].assignee;
}

std::size_t positionOf(const std::vector<site::Shift>& shifts, const std::string& id) {
  for (std::size_t i = 0; i < shifts.size(); ++i) {
    if (shifts[i].id == id) return i;
  }
  return shifts.size();
}

bool blocks(const WeekFinding& f) { return f.denied() || f.consentNeeded(); }

// The findings of `check` that deny or need consent and were not in the draft's check.
std::vector<WeekFinding> newBlocks(const WeekCheck& draft, const WeekCheck& check) {
  std::vector<WeekFinding> out;
  for (const WeekFinding& f : check.findings) {
    if (!blocks(f)) continue;
    const bool known = std::any_of(draft.findings.begin(), draft.findings.end(),
                                   [&f](const WeekFinding& d) { return blocks(d) && d.sameAs(f); });
    if (!known) out.push_back(f);
  }
  return out;
}

// Step 3: opens every shift the plan made that the labor engine denies or that needs consent;
// a new finding on a shift the plan kept (a short rest after a shift the plan added) opens the
// plan's shifts of that person. Until none is left; returns the week's check.
Result<WeekCheck> keepLegal(const Planning& p, const WeekCheck& draftCheck,
                            std::vector<site::Shift>& shifts) {
  const BuildInput& in = p.in;
  for (;;) {
    auto check = checkWeek(*in.live, *in.rules, in.options, in.draft->week, shifts);
    if (!check) return check.error();
    bool opened = false;
    for (const WeekFinding& f : newBlocks(draftCheck, *check)) {
      const std::size_t i = positionOf(shifts, f.shiftId);
      if (i < shifts.size() && madeByPlan(p, shifts, i)) {
        shifts[i].assignee.reset();
        opened = true;
        continue;
      }
      for (std::size_t j = 0; j < shifts.size(); ++j) {
        if (shifts[j].assignee == f.personId && madeByPlan(p, shifts, j)) {
          shifts[j].assignee.reset();
          opened = true;
        }
      }
    }
    if (!opened) return check;
  }
}

// Step 3, second half: each free shift still open offered to the best people the engine allows.
Result<WeekCheck> repairOpen(const Planning& p, const WeekCheck& draftCheck,
                             std::vector<site::Shift>& shifts, WeekCheck check) {
  const BuildInput& in = p.in;
  const Week week = in.draft->week;
  for (std::size_t i = 0; i < shifts.size(); ++i) {
    if (!p.free[i] || shifts[i].assignee) continue;
    const site::SiteModel model = withWeek(*in.live, week, shifts);
    auto ctx = labor::LaborContext::build(model, *in.rules, in.options);
    if (!ctx) return ctx.error();
    std::map<std::string, std::int64_t> minutes;
    std::set<std::pair<std::string, int>> busy;
    for (const site::Shift& s : shifts) {
      if (!s.assignee) continue;
      minutes[*s.assignee] += shiftMinutes(s);
      busy.insert({*s.assignee, workdayIndex(in.live->site, week, s)});
    }
    struct Option {
      std::int64_t extra;
      std::int64_t minutes;
      std::string id;
      bool operator<(const Option& o) const {
        return std::tie(extra, minutes, id) < std::tie(o.extra, o.minutes, o.id);
      }
    };
    std::vector<Option> options;
    const int day = workdayIndex(in.live->site, week, shifts[i]);
    for (const site::Person& person : in.live->people) {
      if (!worksStation(person, shifts[i].stationId) || !availableFor(person, shifts[i]) ||
          busy.count({person.id, day}) != 0) {
        continue;
      }
      auto v = ctx->evaluate(person.id, shifts[i].id, labor::Scope::kAllShifts);
      if (!v) return makeError("shift '" + shifts[i].id + "': " + v.message());
      if (v->kind == labor::VerdictKind::kDenied || v->kind == labor::VerdictKind::kNeedsConsent) {
        continue;
      }
      options.push_back({v->extraCents, minutes[person.id], person.id});
    }
    std::sort(options.begin(), options.end());
    if (options.size() > kRepairTries) options.resize(kRepairTries);
    for (const Option& o : options) {
      shifts[i].assignee = o.id;
      auto tried = checkWeek(*in.live, *in.rules, in.options, week, shifts);
      if (!tried) return tried.error();
      if (newBlocks(draftCheck, *tried).empty()) {
        check = std::move(*tried);
        break;
      }
      shifts[i].assignee.reset();
    }
  }
  return check;
}

PlanScore scoreOf(const Planning& p, const std::vector<site::Shift>& shifts,
                  const WeekCheck& check) {
  const site::SiteModel& live = *p.in.live;
  const site::SiteIndex index(live);
  PlanScore s;
  s.premiumCents = check.labor.extraCents;  // as the solver and the explanations weigh them
  s.wageCents = check.labor.wageCents;
  std::map<std::string, std::int64_t> minutes;
  std::map<std::string, std::int64_t> undesirables;
  for (std::size_t i = 0; i < shifts.size(); ++i) {
    const site::Shift& sh = shifts[i];
    const bool started = sh.start.utc <= p.in.now;
    if (!sh.assignee) {
      if (!started) {
        ++s.shortfallShifts;
        s.shortfallMinutes += shiftMinutes(sh);
      }
      continue;
    }
    minutes[*sh.assignee] += shiftMinutes(sh);
    undesirables[*sh.assignee] += undesirable(sh) ? 1 : 0;
    if (sh.assignee != p.draft[i].assignee) ++s.changes;
    const site::Person* person = index.person(*sh.assignee);
    if (!started && person != nullptr &&
        (person->roles.empty() || person->roles.front() != sh.stationId)) {
      ++s.preferenceMisses;
    }
  }
  auto spread = [](const std::map<std::string, std::int64_t>& m) -> std::int64_t {
    if (m.empty()) return 0;
    auto [lo, hi] = std::minmax_element(
        m.begin(), m.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    return hi->second - lo->second;
  };
  s.hoursSpreadMinutes = spread(minutes);
  s.undesirableSpread = spread(undesirables);
  return s;
}

std::string summaryOf(const Planning& p, const WeekPlan& plan) {
  if (plan.keptDraft) {
    return plan.mode == BuildMode::kFillOpen
               ? "nothing better found: every open shift that can be filled is"
               : "the draft is already the best plan found: nothing changes";
  }
  std::int64_t freeCount = 0;
  for (bool f : p.free) freeCount += f ? 1 : 0;
  const std::string open = std::to_string(plan.score.shortfallShifts) + " left open";
  if (plan.mode == BuildMode::kFillOpen) {
    return "filled " + std::to_string(freeCount - plan.score.shortfallShifts) + " of " +
           std::to_string(freeCount) + " open shifts; " + open;
  }
  return "built the week: " + std::to_string(plan.added) + " shifts added, " +
         std::to_string(plan.score.changes) + " changes to the draft; " + open;
}

}  // namespace

Result<WeekPlan> buildWeek(const BuildInput& in) {
  Planning p{in, in.draft->shifts, {}, in.draft->nextShift, 0};
  if (in.mode == BuildMode::kBuild) {
    if (Status s = addRequired(p); !s) return s.error();
  }
  p.free.assign(p.draft.size(), false);
  for (std::size_t i = 0; i < p.draft.size(); ++i) {
    const bool started = p.draft[i].start.utc <= in.now;
    p.free[i] = !started && (in.mode == BuildMode::kBuild || !p.draft[i].assignee);
  }

  WeekPlan plan;
  plan.mode = in.mode;
  plan.added = p.added;
  plan.shifts = p.draft;
  // Step 2: the engine's roster for the free shifts.
  if (std::find(p.free.begin(), p.free.end(), true) != p.free.end()) {
    SiteRosterInput rin{in.live, in.rules, in.options, in.draft->week, &p.draft, p.free};
    auto roster = siteRoster(rin);
    if (!roster) return roster.error();
    schedule::SolveOptions options;
    options.threads = std::max(1, in.limits.threads);
    options.seed = in.limits.seed;
    options.maxIterations =
        in.limits.maxIterations != 0
            ? in.limits.maxIterations
            : std::max(kLeastMoves, kMovesPerPersonDay *
                                        static_cast<std::uint64_t>(roster->instance.personCount()) *
                                        7);
    options.shouldStop = in.limits.shouldStop;
    options.exactSteps = false;
    const schedule::SolveResult solved = schedule::solveRoster(roster->instance, options);
    plan.feasible = solved.feasible;
    applyRoster(*roster, solved.roster, p.free, plan.shifts);
  }
  // Step 3: only what the labor engine allows.
  auto draftCheck = checkWeek(*in.live, *in.rules, in.options, in.draft->week, p.draft);
  if (!draftCheck) return draftCheck.error();
  auto check = keepLegal(p, *draftCheck, plan.shifts);
  if (!check) return check.error();
  auto repaired = repairOpen(p, *draftCheck, plan.shifts, std::move(*check));
  if (!repaired) return repaired.error();

  // Step 4: the plan against the draft as it was.
  plan.score = scoreOf(p, plan.shifts, *repaired);
  plan.draftScore = scoreOf(p, p.draft, *draftCheck);
  if (plan.score.total() >= plan.draftScore.total()) {
    plan.keptDraft = true;
    plan.shifts = p.draft;
    plan.score = plan.draftScore;
  }
  plan.nextShift = p.nextShift;

  // Step 5: why, for every free shift.
  const site::SiteModel planned = withWeek(*in.live, in.draft->week, plan.shifts);
  auto ctx = labor::LaborContext::build(planned, *in.rules, in.options);
  if (!ctx) return ctx.error();
  std::vector<std::size_t> which;
  for (std::size_t i = 0; i < p.free.size(); ++i) {
    if (p.free[i]) which.push_back(i);
  }
  auto choices = explainChoices({&*ctx, in.draft->week, &plan.shifts, &p.draft}, which);
  if (!choices) return choices.error();
  plan.choices = std::move(*choices);
  plan.summary = summaryOf(p, plan);
  return plan;
}

}  // namespace atoms::week
