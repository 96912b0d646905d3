// PolicySubsystem: the policy gate in `atoms-edge serve` (DESIGN.md section 5, issue 7;
// docs/policy-gate.md). It owns the gate (over the action table built into the binary,
// daemon/policy/shipped_actions.h) and the site's KillSwitch, and tells the rest of the daemon
// when the kill-switch level changes:
// - at start it reads the stored level (a box restarted at L1 comes back frozen) and logs it;
// - levelMayHaveChanged(), called after anything that may have set the level committed (a cloud
//   command today; the panel and automatic raises later), reads it again and, when it moved,
//   audits nothing more (the change was audited where it was made) but logs it and calls every
//   listener with the new level.
// - the IntegrityWatch (daemon/policy/integrity_watch.h) re-verifies the whole audit log once at
//   start and every policy.integrity_check_interval_s; a broken chain raises the kill switch to
//   L3 (automated, actor "integrity", the problem as the reason) and is logged as an error
//   (seed 001 section 7: L3 is automatic on an integrity failure; lowering it is for a person).
// - the site's breakers (SiteBreakers: BRK-OUT, BRK-SCH, BRK-CONN-<system>), kept in the store,
//   fed through reportBreaker(); state().openBreakers is theirs, a trip regresses the trust budget
//   in the trip's transaction, and BRK-OUT open freezes outreach as L1 does.
// Listeners (the SMS layer freezes outreach from L1 and releases held messages back at L0) are
// added and removed on the main thread while the engine runs; they are called on the engine
// thread, at addition with the current level and after each change.
//
// Threading: start/stop and add/removeListener on the main thread; gate() from any thread (it is
// immutable); killSwitch(), state() and levelMayHaveChanged() on the engine thread (which owns the
// store). Must be started after the store and the engine, before the SMS and sync subsystems.
#pragma once

#include <Poco/Logger.h>

#include <functional>
#include <map>
#include <memory>

#include "daemon/policy/integrity_watch.h"
#include "daemon/policy/kill_switch.h"
#include "daemon/policy/policy_gate.h"
#include "daemon/service/service_subsystem.h"
#include "daemon/service/site_breakers.h"

namespace atoms {

class StoreSubsystem;
class EngineSubsystem;

class PolicySubsystem final : public ServiceSubsystem {
 public:
  using LevelListener = std::function<void(policy::KillSwitchLevel)>;

  PolicySubsystem(Poco::Logger& logger, StoreSubsystem& store, EngineSubsystem& engine);
  ~PolicySubsystem() override;
  const char* name() const override { return "policy"; }

  // Preconditions: started().
  const policy::PolicyGate& gate() const { return *gate_; }
  policy::KillSwitch& killSwitch() { return *killSwitch_; }
  // What the gate reads besides the action: the level, graduations, open breakers. Until the
  // trust budget and breaker board are wired, every function is at PROPOSE (the box proposes,
  // a human confirms) and no breaker is open.
  policy::PolicyState state();
  void levelMayHaveChanged();

  // Returns an id for removeListener. The listener is called (engine thread) with the current
  // level before this returns.
  int addListener(LevelListener listener);
  void removeListener(int id);
  // Preconditions: started(). Tests use it to ask for a check and count them.
  policy::IntegrityWatch& integrityWatch() { return *integrity_; }

  // ---- Breakers (daemon/service/site_breakers.h; docs/policy-breakers.md) ----
  // Any thread, between start and stop: a live signal for one of the site's breakers.
  void reportBreaker(BreakerReport report);
  // Engine thread: outreach is frozen (seed 001 sections 7 and 8): the kill switch is at L1 or
  // higher, or BRK-OUT is open (half-open is its trial: released, each outreach decision clamped
  // to PROPOSE by the gate). The listeners are called again (with the unchanged level) whenever
  // BRK-OUT moves, so the SMS layer holds and releases outreach on the kill switch's path.
  bool outreachFrozen() const;
  // Engine thread, preconditions: started(). Acknowledge and list for the panel and the API.
  SiteBreakers& breakers() { return *breakers_; }

 protected:
  Status start(Poco::Util::Application& app) override;
  void stop() override;

 private:
  // Engine thread: raises the kill switch to L3 for a broken audit chain.
  void integrityFailed(const VerifyReport& report);
  // Engine thread: a committed breaker transition (logged; BRK-OUT calls the listeners).
  void breakerChanged(const policy::BreakerEvent& event);

  Poco::Logger& logger_;
  StoreSubsystem& store_;
  EngineSubsystem& engine_;
  std::unique_ptr<policy::PolicyGate> gate_;
  std::unique_ptr<policy::KillSwitch> killSwitch_;
  std::unique_ptr<policy::IntegrityWatch> integrity_;
  // Engine thread only.
  policy::KillSwitchLevel level_ = policy::KillSwitchLevel::kL0;
  // policy.graduation.staffing_scheduling: the owner's choice, read at start.
  policy::Graduation scheduling_ = policy::Graduation::kPropose;
  std::unique_ptr<SiteBreakers> breakers_;  // engine thread, except reportBreaker()
  std::map<int, LevelListener> listeners_;
  int nextListener_ = 1;
};

}  // namespace atoms
