#include "daemon/service/policy_subsystem.h"

#include "daemon/log/log.h"
#include "daemon/policy/shipped_actions.h"
#include "daemon/service/config_schema.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "store/audit_entry.h"
#include "store/state_dir.h"

namespace atoms {

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
  const std::string scheduling = app.config().getString("policy.graduation.staffing_scheduling");
  scheduling_ = scheduling == "autonomous" ? policy::Graduation::kAutonomous
                : scheduling == "shadow"   ? policy::Graduation::kShadow
                                           : policy::Graduation::kPropose;
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
  integrity_->start();
  const std::vector<std::string> connections = configuredConnections(app.config());
  auto breakers = onEngine(engine_.engine(), [this, &connections]() -> Status {
    auto made = SiteBreakers::create(
        engine_.engine(), store_.store(), logger_, connections,
        policy::BreakerBoard::TripHook{},  // the trust budget's regression: wired next
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
            {{"breaker", e.breaker},
             {"to", policy::breakerStateName(e.to)},
             {"reason", e.reason}});
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
  s.graduation["staffing_scheduling"] = scheduling_;
  if (breakers_) s.openBreakers = breakers_->board().openBreakers();
  return s;
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
