#include "domain/schedule/roster_ip.h"

#include <CbcHeuristicFPump.hpp>
#include <CbcHeuristicLocal.hpp>
#include <CbcModel.hpp>
#include <CbcSolver.hpp>
#include <CglClique.hpp>
#include <CglGomory.hpp>
#include <CglMixedIntegerRounding2.hpp>
#include <CglProbing.hpp>
#include <CoinPackedMatrix.hpp>
#include <CoinPackedVector.hpp>
#include <OsiClpSolverInterface.hpp>
#include <algorithm>
#include <cmath>
#include <mutex>
#include <string>
#include <utility>

#include "domain/schedule/roster_evaluator.h"

namespace atoms::schedule {
namespace {

// A linear expression over the model's columns plus a constant (the fixed cells' part).
struct LinearTerms {
  std::vector<int> columns;
  std::vector<double> coefficients;
  double constant = 0;

  void add(int column, double coefficient) {
    columns.push_back(column);
    coefficients.push_back(coefficient);
  }
};

class IpBuilder {
 public:
  IpBuilder(const RosterInstance& in, const Roster& start,
            const std::vector<std::vector<char>>& free)
      : in_(in), start_(start), free_(free) {
    const int types = in.typeCount();
    column_.assign(in.personCount(),
                   std::vector<int>(static_cast<std::size_t>(in.days) * types, -1));
    active_.assign(in.personCount(), 0);
    for (int p = 0; p < in.personCount(); ++p) {
      for (int d = 0; d < in.days; ++d) {
        if (!free[p][d]) continue;
        active_[p] = 1;
        if (in.people[p].dayOff[d]) continue;
        for (int t = 0; t < types; ++t) {
          if (in.people[p].maxPerType[t] == 0) continue;
          column_[p][d * types + t] = addColumn(0, 1, true, cellCost(p, d, t));
          cells_.push_back({p, d, t});
        }
      }
    }
  }

  void build() {
    for (int p = 0; p < in_.personCount(); ++p) {
      if (active_[p]) personRows(p);
    }
    coverRows();
  }

  OsiClpSolverInterface load() {
    OsiClpSolverInterface solver;
    CoinPackedMatrix matrix(false, 0, 0);
    matrix.setDimensions(0, static_cast<int>(colLower_.size()));
    for (std::size_t r = 0; r < rows_.size(); ++r) {
      matrix.appendRow(CoinPackedVector(static_cast<int>(rows_[r].columns.size()),
                                        rows_[r].columns.data(), rows_[r].coefficients.data()));
    }
    solver.loadProblem(matrix, colLower_.data(), colUpper_.data(), objective_.data(),
                       rowLower_.data(), rowUpper_.data());
    for (std::size_t c = 0; c < integer_.size(); ++c) {
      if (integer_[c]) solver.setInteger(static_cast<int>(c));
    }
    solver.setObjSense(1);
    return solver;
  }

  // The start roster as column values, when it fits the model's bounds; empty otherwise.
  std::vector<double> startValues() const {
    std::vector<double> values(colLower_.size(), 0.0);
    for (const auto& [p, d, t] : cells_) {
      values[column_[p][d * in_.typeCount() + t]] = start_.cells[p][d] == t ? 1.0 : 0.0;
    }
    for (const auto& [column, p, saturday] : weekendColumns_) {
      values[column] =
          (start_.cells[p][saturday] != kOff || start_.cells[p][saturday + 1] != kOff) ? 1.0 : 0.0;
    }
    for (const auto& [under, over, d, t] : coverColumns_) {
      int n = 0;
      for (int p = 0; p < in_.personCount(); ++p) n += start_.cells[p][d] == t;
      const int req = in_.cover[d][t].requirement;
      values[under] = std::max(0, req - n);
      values[over] = std::max(0, n - req);
    }
    return values;
  }

  // The roster that the columns' values describe.
  Roster rosterOf(const double* values) const {
    Roster r = start_;
    for (int p = 0; p < in_.personCount(); ++p) {
      for (int d = 0; d < in_.days; ++d) {
        if (free_[p][d]) r.cells[p][d] = kOff;
      }
    }
    for (const auto& [p, d, t] : cells_) {
      if (values[column_[p][d * in_.typeCount() + t]] > 0.5) r.cells[p][d] = t;
    }
    return r;
  }

  int columns() const { return static_cast<int>(colLower_.size()); }
  int rows() const { return static_cast<int>(rows_.size()); }

 private:
  int addColumn(double lower, double upper, bool integer, double cost) {
    colLower_.push_back(lower);
    colUpper_.push_back(upper);
    integer_.push_back(integer ? 1 : 0);
    objective_.push_back(cost);
    return static_cast<int>(colLower_.size()) - 1;
  }
  void addRow(const LinearTerms& e, double lower, double upper) {
    if (e.columns.empty()) return;  // fixed cells only: the start roster's own business
    rows_.push_back(e);
    rowLower_.push_back(lower - e.constant);
    rowUpper_.push_back(upper - e.constant);
  }

  // The objective's part that depends on x[p][d][t]: an off-request met costs, an on-request met
  // saves (its weight is counted when it is not met).
  double cellCost(int p, int d, int t) const {
    double cost = 0;
    for (const ShiftRequest& r : in_.offRequests) {
      if (r.person == p && r.day == d && r.type == t) cost += r.weight;
    }
    for (const ShiftRequest& r : in_.onRequests) {
      if (r.person == p && r.day == d && r.type == t) cost -= r.weight;
    }
    return cost;
  }

  bool cellWorks(int p, int d) const { return !free_[p][d] ? start_.cells[p][d] != kOff : false; }

  // x[p][d][t] into e, or its fixed value into e's constant.
  void addCell(LinearTerms& e, int p, int d, int t, double coefficient) const {
    if (free_[p][d]) {
      const int c = column_[p][d * in_.typeCount() + t];
      if (c >= 0) e.add(c, coefficient);
    } else if (start_.cells[p][d] == t) {
      e.constant += coefficient;
    }
  }
  // The day's working indicator, sum over types.
  void addWorks(LinearTerms& e, int p, int d, double coefficient) const {
    for (int t = 0; t < in_.typeCount(); ++t) addCell(e, p, d, t, coefficient);
  }

  void personRows(int p) {
    const Person& person = in_.people[p];
    const int days = in_.days;
    const int types = in_.typeCount();
    for (int d = 0; d < days; ++d) {
      LinearTerms oneShift;
      addWorks(oneShift, p, d, 1);
      addRow(oneShift, -COIN_DBL_MAX, 1);
    }
    for (int d = 0; d + 1 < days; ++d) {
      for (int t = 0; t < types; ++t) {
        for (int u = 0; u < types; ++u) {
          if (!in_.types[t].cannotFollow[u]) continue;
          LinearTerms succession;
          addCell(succession, p, d, t, 1);
          addCell(succession, p, d + 1, u, 1);
          addRow(succession, -COIN_DBL_MAX, 1);
        }
      }
    }
    for (int t = 0; t < types; ++t) {
      LinearTerms perType;
      for (int d = 0; d < days; ++d) addCell(perType, p, d, t, 1);
      addRow(perType, -COIN_DBL_MAX, person.maxPerType[t]);
    }
    LinearTerms minutes;
    for (int d = 0; d < days; ++d) {
      for (int t = 0; t < types; ++t) addCell(minutes, p, d, t, in_.types[t].minutes);
    }
    addRow(minutes, static_cast<double>(person.minMinutes), static_cast<double>(person.maxMinutes));
    // Maximum consecutive shifts: every window of max + 1 days inside the horizon has a day off.
    for (int d = 0; d + person.maxConsecutive < days; ++d) {
      LinearTerms window;
      for (int j = d; j <= d + person.maxConsecutive; ++j) addWorks(window, p, j, 1);
      addRow(window, -COIN_DBL_MAX, person.maxConsecutive);
    }
    // Minimum consecutive shifts: no run of s < min working days with a day off on both sides
    // inside the horizon: w[d] + (s - sum w[d+1..d+s]) + w[d+s+1] >= 1.
    for (int s = 1; s < person.minConsecutive; ++s) {
      for (int d = 0; d + s + 1 < days; ++d) {
        LinearTerms run;
        addWorks(run, p, d, 1);
        for (int j = d + 1; j <= d + s; ++j) addWorks(run, p, j, -1);
        addWorks(run, p, d + s + 1, 1);
        addRow(run, 1 - s, COIN_DBL_MAX);
      }
    }
    // Minimum consecutive days off, alike: (1 - w[d]) + sum w[d+1..d+s] + (1 - w[d+s+1]) >= 1.
    for (int s = 1; s < person.minDaysOff; ++s) {
      for (int d = 0; d + s + 1 < days; ++d) {
        LinearTerms run;
        addWorks(run, p, d, -1);
        for (int j = d + 1; j <= d + s; ++j) addWorks(run, p, j, 1);
        addWorks(run, p, d + s + 1, -1);
        addRow(run, -1, COIN_DBL_MAX);
      }
    }
    // Weekends: k >= w[Saturday], k >= w[Sunday], sum k <= max.
    LinearTerms weekends;
    for (int saturday : in_.weekendSaturdays()) {
      if (!free_[p][saturday] && !free_[p][saturday + 1]) {
        weekends.constant += (cellWorks(p, saturday) || cellWorks(p, saturday + 1)) ? 1 : 0;
        continue;
      }
      const int k = addColumn(0, 1, true, 0);
      weekendColumns_.push_back({k, p, saturday});
      weekends.add(k, 1);
      for (int day : {saturday, saturday + 1}) {
        LinearTerms link;
        addWorks(link, p, day, 1);
        link.add(k, -1);
        addRow(link, -COIN_DBL_MAX, 0);
      }
    }
    addRow(weekends, -COIN_DBL_MAX, person.maxWeekends);
  }

  void coverRows() {
    for (int d = 0; d < in_.days; ++d) {
      for (int t = 0; t < in_.typeCount(); ++t) {
        LinearTerms cover;
        for (int p = 0; p < in_.personCount(); ++p) addCell(cover, p, d, t, 1);
        if (cover.columns.empty()) continue;
        const Cover& c = in_.cover[d][t];
        const int under = addColumn(0, COIN_DBL_MAX, false, c.underWeight);
        const int over = addColumn(0, COIN_DBL_MAX, false, c.overWeight);
        coverColumns_.push_back({under, over, d, t});
        cover.add(under, 1);
        cover.add(over, -1);
        addRow(cover, c.requirement, c.requirement);
      }
    }
  }

  struct CellColumn {
    int person, day, type;
  };
  struct WeekendColumn {
    int column, person, saturday;
  };
  struct CoverColumns {
    int under, over, day, type;
  };

  const RosterInstance& in_;
  const Roster& start_;
  const std::vector<std::vector<char>>& free_;
  std::vector<std::vector<int>> column_;  // [person][day * types + type], -1 when not a column
  std::vector<char> active_;
  std::vector<CellColumn> cells_;
  std::vector<WeekendColumn> weekendColumns_;
  std::vector<CoverColumns> coverColumns_;
  std::vector<double> colLower_, colUpper_, objective_;
  std::vector<char> integer_;
  std::vector<LinearTerms> rows_;
  std::vector<double> rowLower_, rowUpper_;
};

void quiet(CbcModel& model) {
  model.setLogLevel(0);
  model.messageHandler()->setLogLevel(0);
  model.solver()->messageHandler()->setLogLevel(0);
}

}  // namespace

IpOutcome solveRosterIp(const RosterInstance& instance, const Roster& start,
                        const std::vector<std::vector<char>>& free, const IpOptions& options) {
  IpBuilder builder(instance, start, free);
  builder.build();
  IpOutcome outcome;
  outcome.columns = builder.columns();
  outcome.rows = builder.rows();
  OsiClpSolverInterface solver = builder.load();
  solver.messageHandler()->setLogLevel(0);
  CbcModel model(solver);
  quiet(model);
  const std::vector<double> startValues = builder.startValues();
  const bool startFeasible = evaluateRoster(instance, start).feasible;

  if (options.standardCbc) {
    // CBC's solver driver keeps some state in statics: one at a time, when the caller shares.
    std::unique_lock<std::mutex> driverLock;
    if (options.driverMutex != nullptr) driverLock = std::unique_lock(*options.driverMutex);
    CbcSolverUsefulData data;
    CbcMain0(model, data);
    quiet(model);
    if (startFeasible) {
      std::vector<std::pair<std::string, double>> mipStart;
      for (int c = 0; c < builder.columns(); ++c) {
        mipStart.emplace_back(model.solver()->getColName(c), startValues[c]);
      }
      model.setMIPStart(mipStart);
    }
    const std::string seconds = std::to_string(options.seconds);
    const std::string threads = std::to_string(std::max(1, options.threads));
    const char* argv[] = {"cbc",  "-log",          "0",        "-timeMode",     "elapsed",
                          "-sec", seconds.c_str(), "-threads", threads.c_str(), "-solve",
                          "-quit"};
    CbcMain1(
        static_cast<int>(sizeof argv / sizeof argv[0]), argv, model,
        [](CbcModel*, int) { return 0; }, data);
  } else {
    model.setUseElapsedTime(true);
    model.setMaximumSeconds(options.seconds);
    CglProbing probing;
    probing.setUsingObjective(true);
    probing.setMaxPass(1);
    probing.setMaxProbe(10);
    probing.setMaxLook(10);
    CglGomory gomory;
    gomory.setLimit(100);
    CglClique clique;
    clique.setStarCliqueReport(false);
    clique.setRowCliqueReport(false);
    CglMixedIntegerRounding2 rounding;
    model.addCutGenerator(&probing, -1, "Probing");
    model.addCutGenerator(&gomory, -1, "Gomory");
    model.addCutGenerator(&clique, -1, "Clique");
    model.addCutGenerator(&rounding, -1, "MixedIntegerRounding2");
    CbcHeuristicFPump pump(model);
    model.addHeuristic(&pump);
    model.initialSolve();
    if (startFeasible) {
      double value = 0;
      const double* cost = model.solver()->getObjCoefficients();
      for (int c = 0; c < builder.columns(); ++c) value += cost[c] * startValues[c];
      model.setBestSolution(startValues.data(), builder.columns(), value, true);
    }
    model.branchAndBound();
  }
  const double* best = model.bestSolution();
  if (best == nullptr) return outcome;
  outcome.found = true;
  outcome.optimal = model.isProvenOptimal();
  outcome.roster = builder.rosterOf(best);
  outcome.objective = evaluateRoster(instance, outcome.roster).objective;
  return outcome;
}

}  // namespace atoms::schedule
