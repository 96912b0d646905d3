#include "domain/policy/policy_service.h"

#include <algorithm>

#include "base/timestamp.h"
#include "domain/policy/breaker.h"

namespace atoms::policy {

Result<std::unique_ptr<PolicyService>> PolicyService::open(Deps deps) {
  std::unique_ptr<PolicyService> service(new PolicyService(std::move(deps)));
  auto current = service->killSwitch_.current();
  if (!current) return makeError("cannot read the kill switch: " + current.message());
  service->level_ = current->level;
  if (current->level == KillSwitchLevel::kL0) {
    service->log(PolicyLogLevel::kInfo, "kill switch at L0 (normal)");
  } else {
    service->log(PolicyLogLevel::kWarning, "kill switch is set",
                 {{"level", killSwitchLevelName(current->level)},
                  {"since", current->setAt},
                  {"by", current->setBy},
                  {"reason", current->reason}});
  }
  return service;
}

PolicyService::PolicyService(Deps deps)
    : log_(deps.log),
      table_(deps.table),
      clock_(deps.clock),
      ceilings_(std::move(deps.ceilings)),
      logger_(std::move(deps.logger)),
      breakerSignal_(std::move(deps.breakerSignal)),
      killSwitch_(deps.log, deps.db),
      trust_(deps.log, deps.db, ceilings_) {}

PolicyService::~PolicyService() = default;

void PolicyService::log(PolicyLogLevel level, const std::string& msg,
                        const PolicyLogFields& fields) const {
  if (logger_) logger_(level, msg, fields);
}

// ---- The kill switch and the gate's state ----

PolicyState PolicyService::state() {
  PolicyState s;
  s.level = level_;
  s.defaultGraduation = Graduation::kPropose;
  auto budgets = trust_.graduations();
  if (!budgets) {
    log(PolicyLogLevel::kError, "cannot read the trust budgets: every function acts in SHADOW",
        {{"error", budgets.message()}});
  }
  for (const auto& [function, ceiling] : ceilings_) {
    if (!budgets) {
      s.graduation[function] = Graduation::kShadow;
      continue;
    }
    auto b = budgets->find(function);
    const Graduation earned = b != budgets->end() ? b->second : ceiling;
    s.graduation[function] = std::min(ceiling, earned);
  }
  if (breakers_) s.openBreakers = breakers_->openBreakers();
  return s;
}

bool PolicyService::outreachFrozen() const {
  // Seed 001 section 8: Open freezes outreach per L1; half-open is the trial, where the gate
  // clamps each outreach decision to PROPOSE instead.
  return level_ >= KillSwitchLevel::kL1 ||
         (breakers_ && breakers_->stateOf("BRK-OUT") == BreakerState::kOpen);
}

void PolicyService::levelMayHaveChanged() {
  auto current = killSwitch_.current();
  if (!current) {
    log(PolicyLogLevel::kError, "cannot read the kill switch", {{"error", current.message()}});
    return;
  }
  if (current->level == level_) return;
  const KillSwitchLevel before = level_;
  level_ = current->level;
  log(PolicyLogLevel::kWarning, "kill switch changed",
      {{"from", killSwitchLevelName(before)},
       {"to", killSwitchLevelName(level_)},
       {"by", current->setBy},
       {"reason", current->reason}});
  tellListeners();
}

void PolicyService::tellListeners() {
  for (auto& [id, listener] : listeners_) listener(level_);
}

int PolicyService::addListener(LevelListener listener) {
  const int id = nextListener_++;
  listener(level_);
  listeners_.emplace(id, std::move(listener));
  return id;
}

void PolicyService::removeListener(int id) { listeners_.erase(id); }

void PolicyService::integrityFailed(const VerifyReport& report) {
  log(PolicyLogLevel::kError, "the audit log failed verification: raising the kill switch to L3",
      {{"problem", report.problem},
       {"first_bad_seq",
        report.firstBadSeq ? std::to_string(*report.firstBadSeq) : std::string("-")}});
  const std::string ts = formatTimestamp(clock_.now());
  auto raised =
      killSwitch_.set(ts, KillSwitchLevel::kL3, "audit chain integrity failure: " + report.problem,
                      KillSwitchSetter{"integrity", true});
  if (!raised) {
    log(PolicyLogLevel::kError, "could not raise the kill switch", {{"error", raised.message()}});
    return;
  }
  levelMayHaveChanged();
}

// ---- Breakers ----

void PolicyService::breakerChanged(const BreakerEvent& e) {
  if (e.to == BreakerState::kOpen) {
    log(PolicyLogLevel::kWarning, "breaker opened", {{"breaker", e.breaker}, {"reason", e.reason}});
  } else {
    log(PolicyLogLevel::kInfo, "breaker changed",
        {{"breaker", e.breaker},
         {"to", std::string(breakerStateName(e.to))},
         {"reason", e.reason}});
  }
  if (e.breaker != "BRK-OUT") return;
  tellListeners();
}

// ---- Trust budget ----

std::optional<Graduation> PolicyService::ceilingOf(std::string_view function) const {
  auto it = ceilings_.find(std::string(function));
  if (it == ceilings_.end()) return std::nullopt;
  return it->second;
}

Result<std::vector<FunctionTrust>> PolicyService::trustBudgets() {
  const TimePoint now = clock_.now();
  std::vector<FunctionTrust> out;
  for (const std::string& function : table_.functions()) {
    auto stored = trust_.find(function);
    if (!stored) return stored.error();
    FunctionTrust t;
    t.function = function;
    t.ceiling = ceilings_.at(function);
    t.begun = stored->has_value();
    auto budget =
        t.begun ? Result<TrustBudget>(**stored) : TrustBudget::start(function, now, t.ceiling);
    if (!budget) return budget.error();
    t.earned = budget->earned();
    t.effective = std::min(t.ceiling, budget->effective());
    t.trustHalves = budget->trustHalves();
    t.held = budget->hold().has_value();
    t.eligibility = budget->eligibility(now);
    t.withinCeiling = t.eligibility.to && *t.eligibility.to <= t.ceiling;
    out.push_back(std::move(t));
  }
  return out;
}

Error PolicyService::refuse(std::string_view function, std::string_view action,
                            std::string_view actor, const std::string& why) {
  auto seq = log_.append(
      formatTimestamp(clock_.now()), "graduation.refused", actor,
      json::Object{
          {"function", std::string(function)}, {"action", std::string(action)}, {"reason", why}});
  if (!seq) {
    log(PolicyLogLevel::kError, "cannot audit a refused graduation change",
        {{"error", seq.message()}});
  }
  log(PolicyLogLevel::kWarning, "graduation change refused",
      {{"function", std::string(function)}, {"actor", std::string(actor)}, {"reason", why}});
  return makeError(why);
}

namespace {

std::string notAFunction(std::string_view function) {
  return "\"" + std::string(function) + "\" is not a function of the action table";
}

}  // namespace

Result<TrustUpdate> PolicyService::advance(std::string_view function, std::string_view actor,
                                           bool automated) {
  const auto ceiling = ceilingOf(function);
  if (!ceiling) return refuse(function, "graduation.advance", actor, notAFunction(function));
  if (automated) {
    return refuse(function, "graduation.advance", actor,
                  "only the owner can advance " + std::string(function) +
                      "; an automated process never does (seed 001 section 6)");
  }
  const TimePoint now = clock_.now();
  auto eligibility = trust_.eligibility(function, now);
  if (!eligibility) return eligibility.error();
  if (eligibility->to && *eligibility->to > *ceiling) {
    return refuse(function, "graduation.advance", actor,
                  std::string(function) + " is at " +
                      std::string(graduationName(eligibility->from)) +
                      ", the highest level policy.graduation." + std::string(function) +
                      " allows; raise that setting first");
  }
  auto update = trust_.update(function, now, actor, "",
                              [now](TrustBudget& b) { return b.advance(now, true); });
  if (!update) return refuse(function, "graduation.advance", actor, update.message());
  return update;
}

Result<TrustUpdate> PolicyService::regress(std::string_view function, Graduation to,
                                           std::string_view reason, std::string_view actor) {
  if (!ceilingOf(function)) {
    return refuse(function, "graduation.regress", actor, notAFunction(function));
  }
  const TimePoint now = clock_.now();
  auto update = trust_.update(function, now, actor, "",
                              [&](TrustBudget& b) { return b.ownerRegress(now, to, reason); });
  if (!update) return refuse(function, "graduation.regress", actor, update.message());
  return update;
}

Result<TrustUpdate> PolicyService::recordIncident(std::string_view function, std::string_view id,
                                                  int level, std::string_view actor) {
  if (!ceilingOf(function)) return refuse(function, "trust.sev", actor, notAFunction(function));
  const TimePoint now = clock_.now();
  auto update = trust_.update(function, now, actor, id,
                              [&](TrustBudget& b) { return b.recordSev(now, id, level); });
  if (!update) return refuse(function, "trust.sev", actor, update.message());
  // SEV4 is not recorded: no incident for a probe to restart on.
  if (level > 3 || !breakers_) return update;
  const std::string reason = "incident " + std::string(id) + " (SEV" + std::to_string(level) +
                             ", " + std::string(function) + ") during the probe window";
  auto restarted = breakers_->restartProbes(now, actor, reason);
  if (!restarted) {
    log(PolicyLogLevel::kError, "cannot restart the probe windows after an incident",
        {{"incident", std::string(id)}, {"error", restarted.message()}});
  } else {
    for (const std::string& breaker : *restarted) {
      log(PolicyLogLevel::kWarning, "probe window restarted",
          {{"breaker", breaker}, {"reason", reason}});
    }
  }
  return update;
}

Result<TrustUpdate> PolicyService::closeIncident(std::string_view function, std::string_view id,
                                                 std::string_view actor) {
  if (!ceilingOf(function)) {
    return refuse(function, "trust.sev_close", actor, notAFunction(function));
  }
  const TimePoint now = clock_.now();
  auto update =
      trust_.update(function, now, actor, id, [&](TrustBudget& b) { return b.closeSev(now, id); });
  if (!update) return refuse(function, "trust.sev_close", actor, update.message());
  return update;
}

void PolicyService::recordFor(AuditLog::Batch& batch, std::string_view kind, TimePoint at,
                              std::string_view ref, const TrustStore::Step& step,
                              const std::string& what, PolicyLogFields fields) {
  auto row = table_.find(kind);
  if (!row) return;  // the gate makes an unknown kind a packet; no function to count it for
  auto update = trust_.update(batch, (*row)->function, at, "engine", ref, step);
  if (update) return;
  fields.insert(fields.begin(), {"function", (*row)->function});
  fields.emplace_back("error", update.message());
  log(PolicyLogLevel::kError, what, fields);
}

void PolicyService::recordDecision(AuditLog::Batch& batch, TimePoint at,
                                   const ProposedAction& action) {
  if (!action.automated) return;
  auto row = table_.find(action.kind);
  if (!row) return;
  const ActionEffect effect = (*row)->effect;
  if (effect == ActionEffect::kInternal || effect == ActionEffect::kEscalationPath) {
    return;  // no graduation bounds it: not evidence of the function's autonomy
  }
  recordFor(batch, action.kind, at, action.kind,
            [at](TrustBudget& b) { return b.recordDecision(at); },
            "cannot record a decision in the trust budget", {{"kind", action.kind}});
}

void PolicyService::recordProposalOutcome(AuditLog::Batch& batch, TimePoint at,
                                          std::string_view kind, bool approved,
                                          std::optional<OverrideReason> overrideReason,
                                          std::string_view ref) {
  const TrustOutcome outcome =
      approved ? TrustOutcome::kProposalApprovedUnedited : TrustOutcome::kProposalDeclined;
  recordFor(batch, kind, at, ref,
            [at, outcome](TrustBudget& b) { return b.recordOutcome(at, outcome); },
            "cannot record a proposal's outcome in the trust budget", {{"ref", std::string(ref)}});
  if (approved || !overrideReason) return;
  recordFor(batch, kind, at, ref,
            [at, reason = *overrideReason](TrustBudget& b) { return b.recordOverride(at, reason); },
            "cannot record an override in the trust budget", {{"ref", std::string(ref)}});
}

void PolicyService::recordShadowOutcome(AuditLog::Batch& batch, TimePoint at, std::string_view kind,
                                        bool agreed, std::string_view ref) {
  const TrustOutcome outcome =
      agreed ? TrustOutcome::kShadowAgreed : TrustOutcome::kShadowDisagreed;
  recordFor(
      batch, kind, at, ref, [at, outcome](TrustBudget& b) { return b.recordOutcome(at, outcome); },
      "cannot record a shadow decision's outcome in the trust budget", {{"ref", std::string(ref)}});
}

void PolicyService::recordVerification(AuditLog::Batch& batch, TimePoint at, std::string_view kind,
                                       TrustOutcome outcome, std::string_view ref) {
  recordFor(batch, kind, at, ref,
            [at, outcome](TrustBudget& b) { return b.recordOutcome(at, outcome); },
            "cannot record a verification in the trust budget",
            {{"ref", std::string(ref)}, {"outcome", std::string(trustOutcomeName(outcome))}});
}

void PolicyService::recordViolationAtAct(AuditLog::Batch& batch, TimePoint at,
                                         std::string_view kind, std::string_view ref) {
  if (breakerSignal_) breakerSignal_("BRK-SCH", std::string(kSignalLaborViolationAtAct), "callout");
  recordFor(batch, kind, at, ref, [&](TrustBudget& b) { return b.recordSev(at, ref, 2); },
            "cannot record the SEV2 of a labor-rule violation at Act", {{"ref", std::string(ref)}});
}

Status PolicyService::recordBreakerTripIn(AuditLog::Batch& batch, std::string_view breaker,
                                          TimePoint at) {
  const std::string actor = "breaker:" + std::string(breaker);
  for (const std::string& function : table_.functionsUsingBreaker(breaker)) {
    auto update = trust_.update(batch, function, at, actor, "",
                                [&](TrustBudget& b) { return b.breakerTripped(at, breaker); });
    if (!update) return update.error();
  }
  return Status::success();
}

void PolicyService::recordBreakerTrip(std::string_view breaker, TimePoint at) {
  auto batch = log_.begin();
  Status done = batch ? recordBreakerTripIn(*batch, breaker, at) : Status(batch.error());
  if (done) {
    auto note = batch->commit();
    if (!note) done = note.error();
  }
  if (!done) {
    log(PolicyLogLevel::kError, "cannot record a breaker trip in the trust budgets",
        {{"breaker", std::string(breaker)}, {"error", done.message()}});
  }
}

Result<int> PolicyService::checkEligibility() {
  const TimePoint now = clock_.now();
  auto budgets = trust_.all();
  if (!budgets) return budgets.error();
  int audited = 0;
  for (const TrustBudget& budget : *budgets) {
    const auto ceiling = ceilingOf(budget.function());
    const Eligibility e = budget.eligibility(now);
    if (!ceiling || !e.eligible || !e.to || *e.to > *ceiling) continue;
    if (budget.eligibleNoticed() && now - *budget.eligibleNoticed() < kEligibleNoticeEvery) {
      continue;
    }
    auto batch = log_.begin();
    if (!batch) return batch.error();
    auto noted = trust_.update(*batch, budget.function(), now, "engine", "",
                               [now](TrustBudget& b) { return b.noteEligibleNoticed(now); });
    if (!noted) return noted.error();
    json::Value body = e.toJson();
    body.asObject().emplace("ceiling", graduationName(*ceiling));
    body.asObject().emplace("trust", trustText(budget.trustHalves()));
    auto seq = batch->add(formatTimestamp(now), "graduation.eligible", "engine", std::move(body));
    if (!seq) return seq.error();
    if (auto note = batch->commit(); !note) return note.error();
    log(PolicyLogLevel::kInfo, "a function may advance: the owner can confirm it",
        {{"function", budget.function()}, {"to", std::string(graduationName(*e.to))}});
    ++audited;
  }
  return audited;
}

TimePoint PolicyService::eligibilityDue() {
  if (auto checked = checkEligibility(); !checked) {
    log(PolicyLogLevel::kError, "cannot check whether a function may advance",
        {{"error", checked.message()}});
  }
  return clock_.now() + kEligibilityCheckEvery;
}

}  // namespace atoms::policy
