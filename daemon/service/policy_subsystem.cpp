#include "daemon/service/policy_subsystem.h"

#include <algorithm>
#include <cctype>

#include "daemon/log/log.h"
#include "daemon/policy/shipped_actions.h"
#include "daemon/service/config_schema.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "store/audit_entry.h"
#include "store/state_dir.h"

namespace atoms {

namespace {

constexpr std::chrono::hours kEligibilityCheckEvery{24};
// Seed 001 section 6 asks for the owner's tap, not for nagging: once in 30 days per function.
constexpr std::chrono::hours kEligibleNoticeEvery{24 * 30};

}  // namespace

PolicySubsystem::PolicySubsystem(Poco::Logger& logger, StoreSubsystem& store,
                                 EngineSubsystem& engine)
    : logger_(logger), store_(store), engine_(engine) {}

PolicySubsystem::~PolicySubsystem() = default;

Status PolicySubsystem::start(Poco::Util::Application& app) {
  auto table = policy::shippedActionTable();
  if (!table) return makeError("policy: " + table.message());
  gate_ = std::make_unique<policy::PolicyGate>(std::move(*table));
  auto started = onEngine(engine_.engine(), [this]() -> Result<policy::KillSwitchState> {
    SiteStore& store = store_.store();
    killSwitch_ = std::make_unique<policy::KillSwitch>(store.log(), store.db());
    auto current = killSwitch_->current();
    if (current) level_ = current->level;
    return current;
  });
  if (!started) return makeError("policy: the engine is not running");
  if (!*started) return makeError("policy: cannot read the kill switch: " + started->message());
  const policy::KillSwitchState& s = **started;
  if (s.level == policy::KillSwitchLevel::kL0) {
    logInfo(logger_, "kill switch at L0 (normal)");
  } else {
    logWarning(logger_, "kill switch is set",
               {{"level", policy::killSwitchLevelName(s.level)},
                {"since", s.setAt},
                {"by", s.setBy},
                {"reason", s.reason}});
  }
  for (const std::string& function : gate_->table().functions()) {
    // Checked at load: shadow, propose or autonomous.
    std::string value = configString(app.config(), "policy.graduation." + function);
    for (char& c : value) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    ceilings_[function] = policy::graduationFromName(value).value_or(policy::Graduation::kPropose);
  }
  const bool trusted =
      onEngine(engine_.engine(), [this] {
        SiteStore& store = store_.store();
        trust_ = std::make_unique<policy::TrustStore>(store.log(), store.db(), ceilings_);
        eligibilityTimer_ =
            std::make_unique<DeadlineTimer>(engine_.engine(), [this] { eligibilityDue(); });
        eligibilityTimer_->setAt(engine_.clock().now());
        return true;
      }).value_or(false);
  if (!trusted) return makeError("policy: the engine is not running");
  const auto interval =
      parseConfigInteger(app.config().getString("policy.integrity_check_interval_s"));
  if (!interval) return makeError("policy.integrity_check_interval_s: not an integer");
  auto watched = onEngine(engine_.engine(), [this] {
    SiteStore& store = store_.store();
    return std::pair{store.log().verifierKey(), store.identity().siteId};
  });
  if (!watched) return makeError("policy: the engine is not running");
  Engine& engine = engine_.engine();
  Poco::Logger& logger = logger_;
  integrity_ = std::make_unique<policy::IntegrityWatch>(
      policy::IntegrityWatchOptions{resolveStatePaths(store_.stateDir()), watched->first,
                                    watched->second, std::chrono::seconds(*interval)},
      policy::IntegrityCallbacks{
          [this, &engine](const VerifyReport& report) {
            engine.post([this, report] { integrityFailed(report); });
          },
          [&logger](const VerifyReport& report) {
            logDebug(logger, "audit log verified",
                     {{"entries", std::to_string(report.entries)},
                      {"checkpoints", std::to_string(report.checkpoints)},
                      {"receipts", std::to_string(report.receipts)}});
          },
          [&logger](const std::string& why) {
            logWarning(logger, "could not verify the audit log this time", {{"error", why}});
          }});
  const std::vector<std::string> connections = configuredConnections(app.config());
  auto breakers = onEngine(engine_.engine(), [this, &connections]() -> Status {
    auto made = SiteBreakers::create(
        engine_.engine(), store_.store(), logger_, connections,
        [this](AuditLog::Batch& batch, const policy::BreakerEvent& e) {
          return recordBreakerTripIn(batch, e.breaker, e.at);
        },
        [this](const policy::BreakerEvent& e) { breakerChanged(e); });
    if (!made) return made.error();
    breakers_ = std::move(*made);
    return Status::success();
  });
  if (!breakers) return makeError("policy: the engine is not running");
  if (!*breakers) return makeError("policy: cannot load the breakers: " + breakers->message());
  for (const std::string& id : onEngine(engine_.engine(), [this] {
                                 return breakers_->board().openBreakers();
                               }).value_or(std::set<std::string>{})) {
    logWarning(logger_, "breaker is not closed", {{"breaker", id}});
  }
  integrity_->start();  // last: a start that fails leaves no thread running
  return Status::success();
}

void PolicySubsystem::reportBreaker(BreakerReport report) {
  if (breakers_) breakers_->report(std::move(report));
}

bool PolicySubsystem::outreachFrozen() const {
  // Seed 001 section 8: Open freezes outreach per L1; half-open is the trial, where the gate
  // clamps each outreach decision to PROPOSE instead.
  return level_ >= policy::KillSwitchLevel::kL1 ||
         (breakers_ && breakers_->board().stateOf("BRK-OUT") == policy::BreakerState::kOpen);
}

void PolicySubsystem::breakerChanged(const policy::BreakerEvent& e) {
  if (e.to == policy::BreakerState::kOpen) {
    logWarning(logger_, "breaker opened", {{"breaker", e.breaker}, {"reason", e.reason}});
  } else {
    logInfo(logger_, "breaker changed",
            {{"breaker", e.breaker}, {"to", policy::breakerStateName(e.to)}, {"reason", e.reason}});
  }
  if (e.breaker != "BRK-OUT") return;
  for (auto& [id, listener] : listeners_) listener(level_);
}

void PolicySubsystem::integrityFailed(const VerifyReport& report) {
  if (!killSwitch_) return;  // stopping
  logError(logger_, "the audit log failed verification: raising the kill switch to L3",
           {{"problem", report.problem},
            {"first_bad_seq",
             report.firstBadSeq ? std::to_string(*report.firstBadSeq) : std::string("-")}});
  const std::string ts = formatTimestamp(engine_.clock().now());
  auto raised = killSwitch_->set(ts, policy::KillSwitchLevel::kL3,
                                 "audit chain integrity failure: " + report.problem,
                                 policy::KillSwitchSetter{"integrity", true});
  if (!raised) {
    logError(logger_, "could not raise the kill switch", {{"error", raised.message()}});
    return;
  }
  levelMayHaveChanged();
}

void PolicySubsystem::stop() {
  if (integrity_) integrity_->stop();  // no report is posted after this
  (void)onEngine(engine_.engine(), [this] {
    listeners_.clear();
    if (breakers_) breakers_->stop();
    breakers_.reset();
    eligibilityTimer_.reset();
    trust_.reset();
    killSwitch_.reset();  // a report posted before the watch stopped finds none
    return true;
  });
  integrity_.reset();
  gate_.reset();
}

policy::PolicyState PolicySubsystem::state() {
  policy::PolicyState s;
  s.level = level_;
  s.defaultGraduation = policy::Graduation::kPropose;
  auto budgets = trust_->graduations();
  if (!budgets) {
    logError(logger_, "cannot read the trust budgets: every function acts in SHADOW",
             {{"error", budgets.message()}});
  }
  for (const auto& [function, ceiling] : ceilings_) {
    if (!budgets) {
      s.graduation[function] = policy::Graduation::kShadow;
      continue;
    }
    auto b = budgets->find(function);
    const policy::Graduation earned = b != budgets->end() ? b->second : ceiling;
    s.graduation[function] = std::min(ceiling, earned);
  }
  if (breakers_) s.openBreakers = breakers_->board().openBreakers();
  return s;
}

std::optional<policy::Graduation> PolicySubsystem::ceilingOf(std::string_view function) const {
  auto it = ceilings_.find(std::string(function));
  if (it == ceilings_.end()) return std::nullopt;
  return it->second;
}

json::Value PolicySubsystem::FunctionTrust::toJson() const {
  return json::Object{{"function", function},
                      {"ceiling", policy::graduationName(ceiling)},
                      {"earned", policy::graduationName(earned)},
                      {"effective", policy::graduationName(effective)},
                      {"trust", policy::trustText(trustHalves)},
                      {"begun", begun},
                      {"held", held},
                      {"withinCeiling", withinCeiling},
                      {"eligibility", eligibility.toJson()}};
}

Result<std::vector<PolicySubsystem::FunctionTrust>> PolicySubsystem::trustBudgets() {
  const TimePoint now = engine_.clock().now();
  std::vector<FunctionTrust> out;
  for (const std::string& function : gate_->table().functions()) {
    auto stored = trust_->find(function);
    if (!stored) return stored.error();
    FunctionTrust t;
    t.function = function;
    t.ceiling = ceilings_.at(function);
    t.begun = stored->has_value();
    auto budget = t.begun ? Result<policy::TrustBudget>(**stored)
                          : policy::TrustBudget::start(function, now, t.ceiling);
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

Error PolicySubsystem::refuse(std::string_view function, std::string_view action,
                              std::string_view actor, const std::string& why) {
  const TimePoint now = engine_.clock().now();
  auto seq = store_.store().log().append(
      formatTimestamp(now), "graduation.refused", actor,
      json::Object{
          {"function", std::string(function)}, {"action", std::string(action)}, {"reason", why}});
  if (!seq) {
    logError(logger_, "cannot audit a refused graduation change", {{"error", seq.message()}});
  }
  logWarning(logger_, "graduation change refused",
             {{"function", std::string(function)}, {"actor", std::string(actor)}, {"reason", why}});
  return makeError(why);
}

Result<policy::TrustUpdate> PolicySubsystem::advance(std::string_view function,
                                                     std::string_view actor, bool automated) {
  const auto ceiling = ceilingOf(function);
  if (!ceiling) {
    return refuse(function, "graduation.advance", actor,
                  "\"" + std::string(function) + "\" is not a function of the action table");
  }
  if (automated) {
    return refuse(function, "graduation.advance", actor,
                  "only the owner can advance " + std::string(function) +
                      "; an automated process never does (seed 001 section 6)");
  }
  const TimePoint now = engine_.clock().now();
  auto eligibility = trust_->eligibility(function, now);
  if (!eligibility) return eligibility.error();
  if (eligibility->to && *eligibility->to > *ceiling) {
    return refuse(function, "graduation.advance", actor,
                  std::string(function) + " is at " +
                      std::string(policy::graduationName(eligibility->from)) +
                      ", the highest level policy.graduation." + std::string(function) +
                      " allows; raise that setting first");
  }
  auto update = trust_->update(function, now, actor, "",
                               [now](policy::TrustBudget& b) { return b.advance(now, true); });
  if (!update) return refuse(function, "graduation.advance", actor, update.message());
  return update;
}

Result<policy::TrustUpdate> PolicySubsystem::regress(std::string_view function,
                                                     policy::Graduation to, std::string_view reason,
                                                     std::string_view actor) {
  if (!ceilingOf(function)) {
    return refuse(function, "graduation.regress", actor,
                  "\"" + std::string(function) + "\" is not a function of the action table");
  }
  const TimePoint now = engine_.clock().now();
  auto update = trust_->update(function, now, actor, "", [&](policy::TrustBudget& b) {
    return b.ownerRegress(now, to, reason);
  });
  if (!update) return refuse(function, "graduation.regress", actor, update.message());
  return update;
}

Result<policy::TrustUpdate> PolicySubsystem::recordIncident(std::string_view function,
                                                            std::string_view id, int level,
                                                            std::string_view actor) {
  if (!ceilingOf(function)) {
    return refuse(function, "trust.sev", actor,
                  "\"" + std::string(function) + "\" is not a function of the action table");
  }
  const TimePoint now = engine_.clock().now();
  auto update = trust_->update(function, now, actor, id,
                               [&](policy::TrustBudget& b) { return b.recordSev(now, id, level); });
  if (!update) return refuse(function, "trust.sev", actor, update.message());
  if (level > 3) return update;  // SEV4 is not recorded: no incident for a probe to restart on
  const std::string reason = "incident " + std::string(id) + " (SEV" + std::to_string(level) +
                             ", " + std::string(function) + ") during the probe window";
  auto restarted = breakers_->board().restartProbes(now, actor, reason);
  if (!restarted) {
    logError(logger_, "cannot restart the probe windows after an incident",
             {{"incident", std::string(id)}, {"error", restarted.message()}});
  } else {
    for (const std::string& breaker : *restarted) {
      logWarning(logger_, "probe window restarted", {{"breaker", breaker}, {"reason", reason}});
    }
  }
  return update;
}

Result<policy::TrustUpdate> PolicySubsystem::closeIncident(std::string_view function,
                                                           std::string_view id,
                                                           std::string_view actor) {
  if (!ceilingOf(function)) {
    return refuse(function, "trust.sev_close", actor,
                  "\"" + std::string(function) + "\" is not a function of the action table");
  }
  const TimePoint now = engine_.clock().now();
  auto update = trust_->update(function, now, actor, id,
                               [&](policy::TrustBudget& b) { return b.closeSev(now, id); });
  if (!update) return refuse(function, "trust.sev_close", actor, update.message());
  return update;
}

void PolicySubsystem::recordDecision(AuditLog::Batch& batch, TimePoint at,
                                     const policy::ProposedAction& action) {
  if (!action.automated) return;
  auto row = gate_->table().find(action.kind);
  if (!row) return;  // the gate makes an unknown kind a packet; no function to count it for
  const policy::ActionEffect effect = (*row)->effect;
  if (effect == policy::ActionEffect::kInternal ||
      effect == policy::ActionEffect::kEscalationPath) {
    return;  // no graduation bounds it: not evidence of the function's autonomy
  }
  auto update = trust_->update(batch, (*row)->function, at, "engine", action.kind,
                               [at](policy::TrustBudget& b) { return b.recordDecision(at); });
  if (!update) {
    logError(logger_, "cannot record a decision in the trust budget",
             {{"function", (*row)->function}, {"kind", action.kind}, {"error", update.message()}});
  }
}

void PolicySubsystem::recordProposalOutcome(AuditLog::Batch& batch, TimePoint at,
                                            std::string_view kind, bool approved,
                                            std::optional<policy::OverrideReason> overrideReason,
                                            std::string_view ref) {
  auto row = gate_->table().find(kind);
  if (!row) return;
  const policy::TrustOutcome outcome = approved ? policy::TrustOutcome::kProposalApprovedUnedited
                                                : policy::TrustOutcome::kProposalDeclined;
  auto update = trust_->update(
      batch, (*row)->function, at, "engine", ref,
      [at, outcome](policy::TrustBudget& b) { return b.recordOutcome(at, outcome); });
  if (!update) {
    logError(
        logger_, "cannot record a proposal's outcome in the trust budget",
        {{"function", (*row)->function}, {"ref", std::string(ref)}, {"error", update.message()}});
  }
  if (approved || !overrideReason) return;
  auto overridden = trust_->update(batch, (*row)->function, at, "engine", ref,
                                   [at, reason = *overrideReason](policy::TrustBudget& b) {
                                     return b.recordOverride(at, reason);
                                   });
  if (!overridden) {
    logError(logger_, "cannot record an override in the trust budget",
             {{"function", (*row)->function},
              {"ref", std::string(ref)},
              {"error", overridden.message()}});
  }
}

void PolicySubsystem::recordShadowOutcome(AuditLog::Batch& batch, TimePoint at,
                                          std::string_view kind, bool agreed,
                                          std::string_view ref) {
  auto row = gate_->table().find(kind);
  if (!row) return;
  const policy::TrustOutcome outcome =
      agreed ? policy::TrustOutcome::kShadowAgreed : policy::TrustOutcome::kShadowDisagreed;
  auto update = trust_->update(
      batch, (*row)->function, at, "engine", ref,
      [at, outcome](policy::TrustBudget& b) { return b.recordOutcome(at, outcome); });
  if (!update) {
    logError(
        logger_, "cannot record a shadow decision's outcome in the trust budget",
        {{"function", (*row)->function}, {"ref", std::string(ref)}, {"error", update.message()}});
  }
}

void PolicySubsystem::recordVerification(AuditLog::Batch& batch, TimePoint at,
                                         std::string_view kind, policy::TrustOutcome outcome,
                                         std::string_view ref) {
  auto row = gate_->table().find(kind);
  if (!row) return;
  auto update = trust_->update(
      batch, (*row)->function, at, "engine", ref,
      [at, outcome](policy::TrustBudget& b) { return b.recordOutcome(at, outcome); });
  if (!update) {
    logError(logger_, "cannot record a verification in the trust budget",
             {{"function", (*row)->function},
              {"ref", std::string(ref)},
              {"outcome", std::string(policy::trustOutcomeName(outcome))},
              {"error", update.message()}});
  }
}

void PolicySubsystem::recordViolationAtAct(AuditLog::Batch& batch, TimePoint at,
                                           std::string_view kind, std::string_view ref) {
  reportBreaker({BreakerReport::Kind::kSignal, "BRK-SCH",
                 std::string(policy::kSignalLaborViolationAtAct), "callout"});
  auto row = gate_->table().find(kind);
  if (!row) return;
  auto update = trust_->update(batch, (*row)->function, at, "engine", ref,
                               [&](policy::TrustBudget& b) { return b.recordSev(at, ref, 2); });
  if (!update) {
    logError(
        logger_, "cannot record the SEV2 of a labor-rule violation at Act",
        {{"function", (*row)->function}, {"ref", std::string(ref)}, {"error", update.message()}});
  }
}

Status PolicySubsystem::recordBreakerTripIn(AuditLog::Batch& batch, std::string_view breaker,
                                            TimePoint at) {
  const std::string actor = "breaker:" + std::string(breaker);
  for (const std::string& function : gate_->table().functionsUsingBreaker(breaker)) {
    auto update = trust_->update(batch, function, at, actor, "", [&](policy::TrustBudget& b) {
      return b.breakerTripped(at, breaker);
    });
    if (!update) return update.error();
  }
  return Status::success();
}

void PolicySubsystem::recordBreakerTrip(std::string_view breaker, TimePoint at) {
  auto batch = store_.store().log().begin();
  Status done = batch ? recordBreakerTripIn(*batch, breaker, at) : Status(batch.error());
  if (done) {
    auto note = batch->commit();
    if (!note) done = note.error();
  }
  if (!done) {
    logError(logger_, "cannot record a breaker trip in the trust budgets",
             {{"breaker", std::string(breaker)}, {"error", done.message()}});
  }
}

Result<int> PolicySubsystem::checkEligibility() {
  const TimePoint now = engine_.clock().now();
  auto budgets = trust_->all();
  if (!budgets) return budgets.error();
  int audited = 0;
  for (const policy::TrustBudget& budget : *budgets) {
    const auto ceiling = ceilingOf(budget.function());
    const policy::Eligibility e = budget.eligibility(now);
    if (!ceiling || !e.eligible || !e.to || *e.to > *ceiling) continue;
    if (budget.eligibleNoticed() && now - *budget.eligibleNoticed() < kEligibleNoticeEvery) {
      continue;
    }
    auto batch = store_.store().log().begin();
    if (!batch) return batch.error();
    auto noted =
        trust_->update(*batch, budget.function(), now, "engine", "",
                       [now](policy::TrustBudget& b) { return b.noteEligibleNoticed(now); });
    if (!noted) return noted.error();
    json::Value body = e.toJson();
    body.asObject().emplace("ceiling", policy::graduationName(*ceiling));
    body.asObject().emplace("trust", policy::trustText(budget.trustHalves()));
    auto seq = batch->add(formatTimestamp(now), "graduation.eligible", "engine", std::move(body));
    if (!seq) return seq.error();
    if (auto note = batch->commit(); !note) return note.error();
    logInfo(logger_, "a function may advance: the owner can confirm it",
            {{"function", budget.function()}, {"to", policy::graduationName(*e.to)}});
    ++audited;
  }
  return audited;
}

void PolicySubsystem::eligibilityDue() {
  if (!trust_) return;  // stopping
  if (auto checked = checkEligibility(); !checked) {
    logError(logger_, "cannot check whether a function may advance",
             {{"error", checked.message()}});
  }
  eligibilityTimer_->setAt(engine_.clock().now() + kEligibilityCheckEvery);
}

void PolicySubsystem::levelMayHaveChanged() {
  auto current = killSwitch_->current();
  if (!current) {
    logError(logger_, "cannot read the kill switch", {{"error", current.message()}});
    return;
  }
  if (current->level == level_) return;
  const policy::KillSwitchLevel before = level_;
  level_ = current->level;
  logWarning(logger_, "kill switch changed",
             {{"from", policy::killSwitchLevelName(before)},
              {"to", policy::killSwitchLevelName(level_)},
              {"by", current->setBy},
              {"reason", current->reason}});
  for (auto& [id, listener] : listeners_) listener(level_);
}

int PolicySubsystem::addListener(LevelListener listener) {
  auto added = onEngine(engine_.engine(), [this, &listener] {
    const int id = nextListener_++;
    listener(level_);
    listeners_.emplace(id, std::move(listener));
    return id;
  });
  return added.value_or(0);
}

void PolicySubsystem::removeListener(int id) {
  (void)onEngine(engine_.engine(), [this, id] { return listeners_.erase(id); });
}

}  // namespace atoms
