#include "daemon/service/policy_subsystem.h"

#include "daemon/log/log.h"
#include "daemon/policy/shipped_actions.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/store_subsystem.h"

namespace atoms {

PolicySubsystem::PolicySubsystem(Poco::Logger& logger, StoreSubsystem& store,
                                 EngineSubsystem& engine)
    : logger_(logger), store_(store), engine_(engine) {}

PolicySubsystem::~PolicySubsystem() = default;

Status PolicySubsystem::start(Poco::Util::Application& /*app*/) {
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
  return Status::success();
}

void PolicySubsystem::stop() {
  (void)onEngine(engine_.engine(), [this] {
    listeners_.clear();
    killSwitch_.reset();
    return true;
  });
  gate_.reset();
}

policy::PolicyState PolicySubsystem::state() {
  policy::PolicyState s;
  s.level = level_;
  s.defaultGraduation = policy::Graduation::kPropose;
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
