#include "domain/schedule/roster_solver.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <mutex>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "domain/schedule/roster_evaluator.h"
#include "domain/schedule/roster_ip.h"

namespace atoms::schedule {
namespace {

constexpr std::int64_t kNoObjective = std::numeric_limits<std::int64_t>::max();
// People x days x types up to which worker 0 hands the whole model to CBC once (instances 1 and 2
// of the benchmark; CBC finds nothing better on the larger ones within a minute).
constexpr std::int64_t kWholeModelCells = 500;

// The best rosters the workers have found, shared between them.
class SharedBest {
 public:
  explicit SharedBest(const SolveOptions& options) : options_(options) {}

  // Offers a feasible roster; kept when it beats the one held.
  void offerFeasible(const std::vector<std::vector<int>>& cells, std::int64_t objective) {
    std::lock_guard lock(mutex_);
    if (objective >= feasibleObjective_) return;
    feasibleObjective_ = objective;
    feasible_ = cells;
    if (options_.onImproved) options_.onImproved(objective);
  }
  // Offers an infeasible roster, kept only while no feasible one is known.
  void offerInfeasible(const std::vector<std::vector<int>>& cells, std::int64_t hard,
                       std::int64_t objective) {
    std::lock_guard lock(mutex_);
    if (feasibleObjective_ != kNoObjective) return;
    if (hard > infeasibleHard_ || (hard == infeasibleHard_ && objective >= infeasibleObjective_)) {
      return;
    }
    infeasibleHard_ = hard;
    infeasibleObjective_ = objective;
    infeasible_ = cells;
  }
  // The best feasible roster when it beats `objective`.
  bool takeIfBetter(std::int64_t objective, std::vector<std::vector<int>>& cells) {
    std::lock_guard lock(mutex_);
    if (feasibleObjective_ >= objective) return false;
    cells = feasible_;
    return true;
  }
  // Held while CBC's solver driver runs (roster_ip.h).
  std::mutex& cbcDriver() { return cbcDriver_; }

  void addIterations(std::uint64_t n) {
    std::lock_guard lock(mutex_);
    iterations_ += n;
  }
  SolveResult result(const RosterInstance& in) {
    std::lock_guard lock(mutex_);
    SolveResult r;
    r.iterations = iterations_;
    if (feasibleObjective_ != kNoObjective) {
      r.roster.cells = feasible_;
      r.feasible = true;
      r.objective = feasibleObjective_;
    } else if (!infeasible_.empty()) {
      r.roster.cells = infeasible_;
      r.objective = infeasibleObjective_;
      r.hardExcess = infeasibleHard_;
    } else {
      r.roster = Roster::allOff(in);
    }
    return r;
  }

 private:
  const SolveOptions& options_;
  std::mutex mutex_;
  std::vector<std::vector<int>> feasible_;
  std::int64_t feasibleObjective_ = kNoObjective;
  std::vector<std::vector<int>> infeasible_;
  std::int64_t infeasibleHard_ = kNoObjective;
  std::int64_t infeasibleObjective_ = kNoObjective;
  std::uint64_t iterations_ = 0;
  std::mutex cbcDriver_;
};

// One worker's annealing search with incremental costs: requests per (person, day, value), cover
// per (day, type) count, and each person's hard excess recomputed for the lines a move touches.
class AnnealingWorker {
 public:
  AnnealingWorker(const RosterInstance& in, const SolveOptions& options, SharedBest& shared,
                  int index)
      : in_(in),
        options_(options),
        shared_(shared),
        rng_(options.seed + static_cast<std::uint64_t>(index)),
        index_(index) {
    const int people = in.personCount();
    const int types = in.typeCount();
    values_ = types + 1;
    requestCost_.assign(people, std::vector<int>(static_cast<std::size_t>(in.days) * values_, 0));
    for (const ShiftRequest& r : in.onRequests) {
      for (int v = 0; v < values_; ++v) {
        if (v - 1 != r.type) requestCost_[r.person][r.day * values_ + v] += r.weight;
      }
    }
    for (const ShiftRequest& r : in.offRequests) {
      requestCost_[r.person][r.day * values_ + r.type + 1] += r.weight;
    }
    allowed_.resize(people);
    for (int p = 0; p < people; ++p) {
      for (int t = 0; t < types; ++t) {
        if (in.people[p].maxPerType[t] > 0) allowed_[p].push_back(t);
      }
    }
    cycleLength_ = std::max<std::uint64_t>(200000, std::uint64_t{400} * people * in.days);
    saturdays_ = in.weekendSaturdays();
    load(Roster::allOff(in).cells);
  }

  void run() {
    bool stop = false;
    while (!stop) {
      stop = annealCycle();
      publish();
      ++cycle_;
      restartFromBest();
      if (stop || !options_.exactSteps || bestObjective_ == kNoObjective) continue;
      if (index_ == 0 && !wholeModelTried_ && wholeModelFits()) {
        wholeModelTried_ = true;
        stop = exactWholeModel();
        publish();
        restartFromBest();
        if (stop) continue;
      }
      if (!options_.exactNeighbourhoods) continue;
      stop = exactRound();
      publish();
      restartFromBest();
    }
    shared_.addIterations(done_ - reported_);
  }

 private:
  bool stopNow() {
    if (options_.maxIterations != 0 && done_ >= options_.maxIterations) return true;
    return options_.shouldStop && options_.shouldStop();
  }

  void restartFromBest() {
    shared_.addIterations(done_ - reported_);
    reported_ = done_;
    std::vector<std::vector<int>> start;
    if (shared_.takeIfBetter(bestObjective_, start)) {
      load(start);
      if (hardTotal_ == 0 && soft_ < bestObjective_) {
        bestObjective_ = soft_;
        best_ = cells_;
      }
    } else if (bestObjective_ != kNoObjective) {
      load(best_);
    }
  }

  // One annealing cycle: hot and long the first time (to find a feasible roster), then cooler and
  // shorter from the best roster. With secondsLeft the temperature follows the clock (the first
  // cycle takes 30% of the time, later ones 10% of what is left), otherwise the moves tried. True
  // when the run must stop.
  bool annealCycle() {
    const bool first = cycle_ == 0 || bestObjective_ == kNoObjective;
    // Only the very first cycle starts hot: a later one without a feasible roster yet goes on from
    // the roster closest to one.
    const double t0 = cycle_ == 0 ? 20.0 : 2.0;
    const double t1 = 0.05;
    const std::uint64_t length = first ? cycleLength_ : cycleLength_ / 4;
    const bool timed = static_cast<bool>(options_.secondsLeft);
    const double startLeft = timed ? options_.secondsLeft() : 0.0;
    // Worker 0 keeps the time for the whole model when it will try it.
    const double firstShare = index_ == 0 && wholeModelFits() ? 0.1 : 0.3;
    const double span = startLeft * (first ? firstShare : 0.1);
    const double cool = std::pow(t1 / t0, 1.0 / static_cast<double>(length));
    double temperature = t0;
    for (std::uint64_t i = 0;; ++i, ++done_) {
      if ((done_ & 255) == 0) {
        if (stopNow()) return true;
        adaptWeight();
        if (timed) {
          const double progress = (startLeft - options_.secondsLeft()) / span;
          if (progress >= 1) return false;
          temperature = t0 * std::pow(t1 / t0, progress);
        }
      }
      if (!timed && i >= length) return false;
      step(temperature);
      if (!timed) temperature *= cool;
    }
  }

  // Small instances: the whole model is a sub-model too. CBC as the `cbc` program runs it, from the
  // best roster, for most of the time left (the other workers go on meanwhile).
  bool wholeModelFits() const {
    return options_.secondsLeft &&
           std::int64_t{in_.personCount()} * in_.days * in_.typeCount() <= kWholeModelCells;
  }
  bool exactWholeModel() {
    const double left = options_.secondsLeft();
    if (left < 1) return false;
    IpOptions ip;
    ip.seconds = left * (options_.threads > 1 ? 0.97 : 0.7);
    ip.standardCbc = true;
    ip.driverMutex = &shared_.cbcDriver();
    const std::vector<std::vector<char>> all(in_.personCount(), std::vector<char>(in_.days, 1));
    const IpOutcome outcome = solveRosterIp(in_, Roster{cells_}, all, ip);
    ++done_;
    if (outcome.found && outcome.objective <= soft_ &&
        evaluateRoster(in_, outcome.roster).feasible) {
      load(outcome.roster.cells);
      noteBest();
    }
    return stopNow();
  }

  // Large-neighbourhood steps from the best roster: a few people over the whole horizon, or
  // everyone over a few days, or a few people over a few weeks, freed and solved exactly by CBC;
  // kept when no worse. The neighbourhood grows while CBC proves its sub-models optimal and
  // shrinks when it runs out of time. True when the run must stop.
  bool exactRound() {
    int sinceBetter = 0;
    for (int stepIndex = 0; stepIndex < 12 && sinceBetter < 4; ++stepIndex) {
      if (stopNow()) return true;
      ++done_;
      double seconds = options_.exactStepSeconds;
      if (options_.secondsLeft) {
        seconds = std::min(seconds, options_.secondsLeft());
        if (seconds < 0.05) return true;
      }
      const std::vector<std::vector<char>> free = neighbourhood();
      IpOptions ip;
      ip.seconds = seconds;
      const IpOutcome outcome = solveRosterIp(in_, Roster{cells_}, free, ip);
      freeBudget_ = outcome.optimal ? std::min(freeBudget_ * 1.15, 20000.0)
                                    : std::max(freeBudget_ * 0.7, 20.0);
      if (!outcome.found || outcome.objective > soft_) {
        ++sinceBetter;
        continue;
      }
      if (!evaluateRoster(in_, outcome.roster).feasible) {
        ++sinceBetter;
        continue;
      }
      sinceBetter = outcome.objective < soft_ ? 0 : sinceBetter + 1;
      load(outcome.roster.cells);
      noteBest();
      if (unpublished_) publish();
    }
    return false;
  }

  std::vector<std::vector<char>> neighbourhood() {
    const int people = in_.personCount();
    const int days = in_.days;
    std::vector<std::vector<char>> free(people, std::vector<char>(days, 0));
    const double budget = freeBudget_ / std::max(1, in_.typeCount());
    const int kind = randomInt(3);
    if (kind == 0 || days <= 14) {
      // A few people, the whole horizon.
      const int k = std::clamp(static_cast<int>(budget / days), 2, people);
      for (int p : samplePeople(k)) std::fill(free[p].begin(), free[p].end(), 1);
    } else if (kind == 1) {
      // Everyone, a window of days.
      const int length = std::clamp(static_cast<int>(budget / people), 2, days);
      const int first = randomInt(days - length + 1);
      for (int p = 0; p < people; ++p) {
        std::fill(free[p].begin() + first, free[p].begin() + first + length, 1);
      }
    } else {
      // A few people over a few weeks.
      const int length = std::min(days, 14 + 7 * randomInt(3));
      const int k = std::clamp(static_cast<int>(budget / length), 2, people);
      const int first = randomInt(days - length + 1);
      for (int p : samplePeople(k)) {
        std::fill(free[p].begin() + first, free[p].begin() + first + length, 1);
      }
    }
    return free;
  }

  std::vector<int> samplePeople(int k) {
    std::vector<int> all(in_.personCount());
    for (int p = 0; p < in_.personCount(); ++p) all[p] = p;
    for (int i = 0; i < k; ++i) std::swap(all[i], all[i + randomInt(in_.personCount() - i)]);
    all.resize(k);
    return all;
  }

  std::int64_t coverCost(int day, int type, int count) const {
    const Cover& c = in_.cover[day][type];
    if (count < c.requirement) return std::int64_t{c.underWeight} * (c.requirement - count);
    return std::int64_t{c.overWeight} * (count - c.requirement);
  }
  // The change in cover cost when one more (+1) or one fewer (-1) works `value` on `day`.
  std::int64_t coverDelta(int day, int value, int by) const {
    if (value == kOff) return 0;
    const int n = count_[day][value];
    return coverCost(day, value, n + by) - coverCost(day, value, n);
  }
  int request(int person, int day, int value) const {
    return requestCost_[person][day * values_ + value + 1];
  }

  void load(const std::vector<std::vector<int>>& cells) {
    cells_ = cells;
    count_.assign(in_.days, std::vector<int>(in_.typeCount(), 0));
    hard_.assign(in_.personCount(), 0);
    soft_ = 0;
    hardTotal_ = 0;
    for (int p = 0; p < in_.personCount(); ++p) {
      for (int d = 0; d < in_.days; ++d) {
        const int v = cells_[p][d];
        soft_ += request(p, d, v);
        if (v != kOff) ++count_[d][v];
      }
      hard_[p] = lineHardExcess(in_, p, cells_[p].data());
      hardTotal_ += hard_[p];
    }
    for (int d = 0; d < in_.days; ++d) {
      for (int t = 0; t < in_.typeCount(); ++t) soft_ += coverCost(d, t, count_[d][t]);
    }
  }

  void adaptWeight() {
    if (hardTotal_ > 0) {
      weight_ = std::min(weight_ * 1.02, 1e7);
    } else {
      weight_ = std::max(weight_ * 0.99, 200.0);
    }
  }

  int randomInt(int n) { return static_cast<int>(rng_() % static_cast<std::uint64_t>(n)); }
  bool mayWork(int person, int day, int value) const {
    if (value == kOff) return true;
    return !in_.people[person].dayOff[day] && in_.people[person].maxPerType[value] > 0;
  }
  int randomValue(int person) {
    const auto& allowed = allowed_[person];
    const int pick = randomInt(static_cast<int>(allowed.size()) + 1);
    return pick == 0 ? kOff : allowed[pick - 1];
  }

  bool accept(double delta, double temperature) {
    if (delta <= 0) return true;
    const double u = static_cast<double>(rng_() >> 11) * 0x1.0p-53;
    return u < std::exp(-delta / temperature);
  }

  void step(double temperature) {
    const int kind = randomInt(13);
    if (kind == 12) {
      changeWeekend(temperature);
    } else if (kind >= 10) {
      changeCover(temperature);
    } else if (kind < 4) {
      changeBlock(temperature, 1);
    } else if (kind < 6) {
      changeBlock(temperature, 2 + randomInt(std::min(6, in_.days)));
    } else if (kind < 8) {
      swapBlock(temperature, 1);
    } else {
      swapBlock(temperature, 2 + randomInt(std::min(6, in_.days)));
    }
  }

  // Sets days [day, day + length) of one person to one value (off or a shift).
  // A random person; while the roster breaks rules, half the time one of those who break them.
  int pickPerson() {
    const int people = in_.personCount();
    const int start = randomInt(people);
    if (hardTotal_ > 0 && (rng_() & 1) != 0) {
      for (int i = 0; i < people; ++i) {
        const int p = (start + i) % people;
        if (hard_[p] > 0) return p;
      }
    }
    return start;
  }

  void changeBlock(double temperature, int length) {
    const int p = pickPerson();
    changeCells(temperature, p, randomInt(in_.days), length, randomValue(p));
  }

  // Aimed at weekends: one person's Saturday and Sunday off, or exchanged with someone else's.
  void changeWeekend(double temperature) {
    if (saturdays_.empty()) return;
    const int saturday = saturdays_[randomInt(static_cast<int>(saturdays_.size()))];
    if ((rng_() & 1) != 0) {
      changeCells(temperature, pickPerson(), saturday, 2, kOff);
    } else {
      swapCells(temperature, pickPerson(), randomInt(in_.personCount()), saturday, 2);
    }
  }

  // Aimed at cover: someone more on a (day, type) that is short, or one fewer on one that is over.
  void changeCover(double temperature) {
    const int d = randomInt(in_.days);
    const int t = randomInt(in_.typeCount());
    const Cover& c = in_.cover[d][t];
    const int n = count_[d][t];
    const int p = randomInt(in_.personCount());
    if (n < c.requirement && cells_[p][d] != t) {
      changeCells(temperature, p, d, 1, t);
    } else if (n > c.requirement && cells_[p][d] == t) {
      changeCells(temperature, p, d, 1, kOff);
    }
  }

  void changeCells(double temperature, int p, int first, int length, int v) {
    const int end = std::min(in_.days, first + length);
    std::vector<int>& line = cells_[p];
    bool changes = false;
    for (int d = first; d < end; ++d) {
      if (!mayWork(p, d, v)) return;
      changes = changes || line[d] != v;
    }
    if (!changes) return;
    // Cover is counted as the move goes, day by day, and put back if the move is refused.
    std::int64_t soft = 0;
    before_.assign(line.begin() + first, line.begin() + end);
    for (int d = first; d < end; ++d) {
      const int old = line[d];
      if (old == v) continue;
      soft += request(p, d, v) - request(p, d, old) + coverDelta(d, old, -1);
      if (old != kOff) --count_[d][old];
      soft += coverDelta(d, v, +1);
      if (v != kOff) ++count_[d][v];
      line[d] = v;
    }
    const std::int64_t hard = lineHardExcess(in_, p, line.data());
    const double delta = static_cast<double>(soft) + weight_ * static_cast<double>(hard - hard_[p]);
    if (accept(delta, temperature)) {
      soft_ += soft;
      hardTotal_ += hard - hard_[p];
      hard_[p] = hard;
      noteBest();
      return;
    }
    for (int d = first; d < end; ++d) {
      const int old = before_[d - first];
      if (old == v) continue;
      if (v != kOff) --count_[d][v];
      if (old != kOff) ++count_[d][old];
      line[d] = old;
    }
  }

  // Exchanges days [day, day + length) between two people: cover stays as it was.
  void swapBlock(double temperature, int length) {
    swapCells(temperature, pickPerson(), randomInt(in_.personCount()), randomInt(in_.days), length);
  }

  void swapCells(double temperature, int a, int b, int first, int length) {
    if (a == b) return;
    const int end = std::min(in_.days, first + length);
    std::int64_t soft = 0;
    bool changes = false;
    for (int d = first; d < end; ++d) {
      const int va = cells_[a][d];
      const int vb = cells_[b][d];
      if (va == vb) continue;
      if (!mayWork(a, d, vb) || !mayWork(b, d, va)) return;
      changes = true;
      soft += request(a, d, vb) - request(a, d, va) + request(b, d, va) - request(b, d, vb);
    }
    if (!changes) return;
    std::swap_ranges(cells_[a].begin() + first, cells_[a].begin() + end, cells_[b].begin() + first);
    const std::int64_t hardA = lineHardExcess(in_, a, cells_[a].data());
    const std::int64_t hardB = lineHardExcess(in_, b, cells_[b].data());
    const std::int64_t hardDelta = hardA - hard_[a] + hardB - hard_[b];
    const double delta = static_cast<double>(soft) + weight_ * static_cast<double>(hardDelta);
    if (accept(delta, temperature)) {
      soft_ += soft;
      hardTotal_ += hardDelta;
      hard_[a] = hardA;
      hard_[b] = hardB;
      noteBest();
      return;
    }
    std::swap_ranges(cells_[a].begin() + first, cells_[a].begin() + end, cells_[b].begin() + first);
  }

  void noteBest() {
    if (hardTotal_ == 0) {
      if (soft_ < bestObjective_) {
        bestObjective_ = soft_;
        best_ = cells_;
        unpublished_ = true;
      }
    } else if (bestObjective_ == kNoObjective &&
               (hardTotal_ < leastHard_ || (hardTotal_ == leastHard_ && soft_ < leastHardSoft_))) {
      leastHard_ = hardTotal_;
      leastHardSoft_ = soft_;
      leastHardCells_ = cells_;
    }
  }

  void publish() {
    if (unpublished_) {
      shared_.offerFeasible(best_, bestObjective_);
      unpublished_ = false;
    } else if (bestObjective_ == kNoObjective && !leastHardCells_.empty()) {
      shared_.offerInfeasible(leastHardCells_, leastHard_, leastHardSoft_);
    }
  }

  const RosterInstance& in_;
  const SolveOptions& options_;
  SharedBest& shared_;
  std::mt19937_64 rng_;
  int index_ = 0;  // worker 0 also tries the whole model exactly, on small instances
  bool wholeModelTried_ = false;
  int values_ = 0;
  std::vector<std::vector<int>> requestCost_;  // [person][day * values + value + 1]
  std::vector<std::vector<int>> allowed_;      // [person]: types with a maximum above 0
  std::uint64_t cycleLength_ = 0;
  std::vector<int> saturdays_;  // the weekends inside the horizon
  int cycle_ = 0;
  std::uint64_t done_ = 0;      // moves tried, exact steps counted as one
  std::uint64_t reported_ = 0;  // of done_, added to the shared count
  double freeBudget_ = 300;     // cells times types an exact step frees

  std::vector<std::vector<int>> cells_;
  std::vector<std::vector<int>> count_;  // [day][type]: how many work it
  std::vector<std::int64_t> hard_;       // [person]: lineHardExcess
  std::int64_t soft_ = 0;
  std::int64_t hardTotal_ = 0;
  double weight_ = 1000.0;
  std::vector<int> before_;  // the cells a changeBlock move replaced

  std::vector<std::vector<int>> best_;
  std::int64_t bestObjective_ = kNoObjective;
  bool unpublished_ = false;
  std::vector<std::vector<int>> leastHardCells_;
  std::int64_t leastHard_ = kNoObjective;
  std::int64_t leastHardSoft_ = kNoObjective;
};

}  // namespace

SolveResult solveRoster(const RosterInstance& instance, const SolveOptions& options) {
  SharedBest shared(options);
  const int threads = std::max(1, options.threads);
  std::vector<std::thread> workers;
  std::exception_ptr failure;
  std::mutex failureMutex;
  auto work = [&](int index) {
    try {
      AnnealingWorker(instance, options, shared, index).run();
    } catch (...) {
      std::lock_guard lock(failureMutex);
      if (!failure) failure = std::current_exception();
    }
  };
  for (int i = 1; i < threads; ++i) workers.emplace_back(work, i);
  work(0);
  for (std::thread& t : workers) t.join();
  if (failure) std::rethrow_exception(failure);
  return shared.result(instance);
}

}  // namespace atoms::schedule
