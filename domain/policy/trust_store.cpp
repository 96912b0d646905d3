#include "domain/policy/trust_store.h"

#include <utility>

#include "base/canonical_json.h"
#include "store/audit_entry.h"
#include "store/row_reader.h"

namespace atoms::policy {

namespace {

Result<TrustBudget> parseRow(const std::string& function, const std::string& text) {
  auto value = json::parseCanonical(text);
  if (!value) return makeError("trust_budget row " + function + ": " + value.message());
  auto budget = TrustBudget::fromJson(*value);
  if (!budget) return makeError("trust_budget row " + function + ": " + budget.message());
  if (budget->function() != function) {
    return makeError("trust_budget row " + function + " holds the state of " + budget->function());
  }
  return budget;
}

json::Value trustBody(const std::string& function, const TrustChange& c, std::string_view ref) {
  json::Object body{{"function", function},
                    {"event", c.event},
                    {"from", trustText(c.beforeHalves)},
                    {"to", trustText(c.afterHalves)},
                    {"delta", signedTrustText(c.appliedHalves)},
                    {"requested", signedTrustText(c.requestedHalves)},
                    {"capped", c.capped}};
  if (!c.detail.empty()) body.emplace("detail", c.detail);
  if (!ref.empty()) body.emplace("ref", std::string(ref));
  return body;
}

json::Value graduationBody(const std::string& function, const GraduationChange& c, int trustHalves,
                           std::string_view ref) {
  json::Object body{{"function", function},
                    {"cause", graduationCauseName(c.cause)},
                    {"from", graduationName(c.from)},
                    {"to", graduationName(c.to)},
                    {"earnedFrom", graduationName(c.earnedFrom)},
                    {"earnedTo", graduationName(c.earnedTo)},
                    {"reason", c.reason},
                    {"trust", trustText(trustHalves)}};
  if (!c.evidence.empty()) {
    json::Array evidence;
    for (const GraduationCondition& k : c.evidence) evidence.push_back(k.toJson());
    body.emplace("evidence", std::move(evidence));
  }
  if (!ref.empty()) body.emplace("ref", std::string(ref));
  return body;
}

json::Value sevBody(const std::string& function, const Sev& s, std::string_view ref) {
  json::Object body{{"function", function},
                    {"id", s.id},
                    {"level", s.level},
                    {"state", s.closedAt ? "closed" : "open"}};
  if (!ref.empty()) body.emplace("ref", std::string(ref));
  return body;
}

}  // namespace

Result<std::optional<TrustBudget>> TrustStore::find(std::string_view function) const {
  auto stmt = db_->cached("SELECT state FROM trust_budget WHERE function = ?");
  if (!stmt) return stmt.error();
  stmt->bind(1, function);
  return readFirst(*stmt, [&](RowReader& r) { return parseRow(std::string(function), r.text()); });
}

Result<std::vector<TrustBudget>> TrustStore::all() const {
  auto stmt = db_->cached("SELECT function, state FROM trust_budget ORDER BY function");
  if (!stmt) return stmt.error();
  return readRows(*stmt, [](RowReader& r) {
    const std::string function = r.text();
    return parseRow(function, r.text());
  });
}

Result<std::map<std::string, Graduation>> TrustStore::graduations() const {
  // The gate asks on every decision: the effective column, written with `state` by update(),
  // spares parsing every budget.
  auto stmt = db_->cached("SELECT function, effective FROM trust_budget");
  if (!stmt) return stmt.error();
  std::map<std::string, Graduation> out;
  while (true) {
    auto row = stmt->step();
    if (!row) return row.error();
    if (!*row) break;
    std::string function = stmt->columnText(0);
    const std::string name = stmt->columnText(1);
    const std::optional<Graduation> level = graduationFromName(name);
    if (!level) {
      return makeError("trust_budget row " + function + ": unknown effective level '" + name + "'");
    }
    out.emplace(std::move(function), *level);
  }
  return out;
}

Graduation TrustStore::startLevel(std::string_view function) const {
  auto it = startLevels_.find(std::string(function));
  return it == startLevels_.end() ? Graduation::kShadow : it->second;
}

Result<TrustBudget> TrustStore::begin(std::string_view function, TimePoint at) const {
  return TrustBudget::start(function, at, startLevel(function));
}

Result<Eligibility> TrustStore::eligibility(std::string_view function, TimePoint at) const {
  auto stored = find(function);
  if (!stored) return stored.error();
  if (*stored) return (*stored)->eligibility(at);
  auto fresh = begin(function, at);
  if (!fresh) return fresh.error();
  return fresh->eligibility(at);
}

Result<TrustUpdate> TrustStore::update(AuditLog::Batch& batch, std::string_view function,
                                       TimePoint at, std::string_view actor, std::string_view ref,
                                       const Step& step) {
  auto stored = find(function);
  if (!stored) return stored.error();
  const bool started = !stored->has_value();
  if (started) {
    auto fresh = begin(function, at);
    if (!fresh) return fresh.error();
    stored->emplace(std::move(*fresh));
  }
  TrustBudget budget = **stored;
  const std::string before = json::canonical(budget.toJson());
  auto update = step(budget);
  if (!update) return update;
  const std::string after = json::canonical(budget.toJson());
  if (!started && after == before) return update;

  const std::string name(function);
  auto row = db_->cached(
      "INSERT OR REPLACE INTO trust_budget(function, graduation, effective, trust_halves,"
      " updated_at, state) VALUES(?, ?, ?, ?, ?, ?)");
  if (!row) return row.error();
  row->bind(1, name)
      .bind(2, graduationName(budget.earned()))
      .bind(3, graduationName(budget.effective()))
      .bind(4, std::int64_t{budget.trustHalves()})
      .bindTime(5, at)
      .bind(6, after);
  if (Status done = row->run(); !done) return done.error();

  const std::string ts = formatTimestamp(at);
  auto audit = [&](std::string_view kind, json::Value body) -> Status {
    auto seq = batch.add(ts, kind, actor, std::move(body));
    if (!seq) return seq.error();
    return Status::success();
  };
  if (started) {
    const Graduation level = startLevel(function);
    const bool configured = level != Graduation::kShadow;
    const std::string levelName(graduationName(level));
    const GraduationChange begun{
        configured ? GraduationCause::kConfigured : GraduationCause::kStarted,
        Graduation::kShadow,
        level,
        Graduation::kShadow,
        level,
        configured ? "begins at " + levelName +
                         " as the owner configured it at installation (policy.graduation." + name +
                         "), with the trust " + levelName + " needs; listening ends"
                   : "the box starts deciding in shadow; listening ends",
        at,
        {}};
    if (Status s =
            audit("graduation.changed", graduationBody(name, begun, entryTrustHalves(level), ref));
        !s) {
      return s.error();
    }
  }
  if (update->sev) {
    if (Status s = audit("trust.sev", sevBody(name, *update->sev, ref)); !s) return s.error();
  }
  if (update->trust) {
    if (Status s = audit("trust.changed", trustBody(name, *update->trust, ref)); !s) {
      return s.error();
    }
  }
  for (const GraduationChange& c : update->graduation) {
    if (Status s = audit("graduation.changed", graduationBody(name, c, budget.trustHalves(), ref));
        !s) {
      return s.error();
    }
  }
  return update;
}

Result<TrustUpdate> TrustStore::update(std::string_view function, TimePoint at,
                                       std::string_view actor, std::string_view ref,
                                       const Step& step) {
  auto batch = log_->begin();
  if (!batch) return batch.error();
  auto update = this->update(*batch, function, at, actor, ref, step);
  if (!update) return update;
  if (auto note = batch->commit(); !note) return note.error();
  return update;
}

}  // namespace atoms::policy
