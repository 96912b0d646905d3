// TrustStore: every function's TrustBudget (trust_budget.h) kept in the store (table
// trust_budget, migration 12, one row per function), with an audit entry for every change in the
// same transaction as the row (operator page docs/policy-gate.md, "Trust budget"):
// - "trust.changed": {"function", "event", "detail"?, "from", "to", "delta", "requested",
//   "capped", "ref"?}; trust values as decimal strings ("57.5", "+1", "-0.5");
// - "graduation.changed": {"function", "cause", "from", "to", "earnedFrom", "earnedTo",
//   "reason", "trust", "evidence"? (an advance: every condition with its value), "ref"?};
// - "trust.sev": a SEV recorded against the function or closed: {"function", "id", "level",
//   "state": "open" | "closed", "ref"?}.
// A function without a row begins at its first update(): at its configured start level (SHADOW,
// trust 0 when none is given), audited as a graduation.changed with cause "started" (SHADOW) or
// "configured" (the owner's configured level, docs/decisions/0010). A step that changes only
// evidence (a decision counted, a shadow disagreement) rewrites the row without an audit entry; one
// that changes nothing writes nothing.
//
// Threading: the owner thread of the Database and AuditLog (the engine thread). Holds references;
// both must outlive it. Several instances over one store agree (the state is only in the store).
// Errors: values, one line; a failed step or write leaves the row and the log unchanged.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"
#include "domain/policy/trust_budget.h"
#include "store/audit_log.h"
#include "store/database.h"

namespace atoms::policy {

class TrustStore {
 public:
  // One change of a budget: a call of TrustBudget's, e.g.
  //   [&](TrustBudget& b) { return b.recordOutcome(at, TrustOutcome::kShadowAgreed); }
  // An error leaves the budget as it was and is returned by update().
  using Step = std::function<Result<TrustUpdate>(TrustBudget&)>;

  // `startLevels`: the level each function's budget begins at (the owner's configuration); a
  // function not in it begins in SHADOW.
  TrustStore(AuditLog& log, Database& db, std::map<std::string, Graduation> startLevels = {})
      : log_(&log), db_(&db), startLevels_(std::move(startLevels)) {}

  // The function's stored budget; nullopt when it never began. Errors: the store's, a row that
  // does not parse (named).
  Result<std::optional<TrustBudget>> find(std::string_view function) const;
  // Every stored budget, by function name.
  Result<std::vector<TrustBudget>> all() const;
  // The effective graduation of every stored function, for PolicyState::graduation: read from the
  // row's effective column (written with the state), without parsing the budgets. Errors: the
  // store's, an unknown level name (the row named).
  Result<std::map<std::string, Graduation>> graduations() const;
  // The next step of the function and its evidence at `at` (a function never begun: as if it
  // began at `at`). Writes nothing.
  Result<Eligibility> eligibility(std::string_view function, TimePoint at) const;
  // The level `function`'s budget begins at.
  Graduation startLevel(std::string_view function) const;

  // Runs `step` on the function's budget (begun at `at` when it has no row), stores the result
  // and audits every change inside the caller's batch. `actor` is the audit actor ("engine",
  // "panel:ana", "breaker:BRK-SCH"); `ref` names the evidence (a receipt seq, an approval id) or is
  // empty. Errors: an unknown function, the step's, the store's; nothing is written then.
  Result<TrustUpdate> update(AuditLog::Batch& batch, std::string_view function, TimePoint at,
                             std::string_view actor, std::string_view ref, const Step& step);
  // The same in a batch of its own, committed before it returns.
  Result<TrustUpdate> update(std::string_view function, TimePoint at, std::string_view actor,
                             std::string_view ref, const Step& step);

 private:
  // A budget begun at `at` at the function's start level.
  Result<TrustBudget> begin(std::string_view function, TimePoint at) const;

  AuditLog* log_;
  Database* db_;
  std::map<std::string, Graduation> startLevels_;
};

}  // namespace atoms::policy
