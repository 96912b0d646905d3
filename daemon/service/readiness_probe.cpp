#include "daemon/service/readiness_probe.h"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "daemon/service/engine_subsystem.h"
#include "daemon/service/policy_subsystem.h"
#include "daemon/service/store_subsystem.h"

namespace atoms {

namespace {

// What the engine turn found, handed back to the waiting listener thread.
struct Turn {
  std::mutex mutex;
  std::condition_variable done;
  bool ran = false;
  std::string store;
  std::string connections;
};

std::string readStore(SiteStore& store) {
  // Page 1 of the database: the key still opens it and the file is still there.
  auto read = store.db().prepare("SELECT count(*) FROM sqlite_master");
  if (!read) return "cannot read the database: " + read.message();
  auto row = read->step();
  if (!row) return "cannot read the database: " + row.message();
  return "ok";
}

std::string openConnections(PolicySubsystem& policy) {
  std::string open;
  for (const policy::BreakerView& b : policy.breakers().list()) {
    if (!b.id.starts_with("BRK-CONN-") || b.state != policy::BreakerState::kOpen) continue;
    if (!open.empty()) open += "; ";
    open += b.id + " is open (" + b.reason + ")";
  }
  return open.empty() ? "ok" : open;
}

}  // namespace

ReadinessProbe::ReadinessProbe(StoreSubsystem& store, EngineSubsystem& engine,
                               PolicySubsystem& policy, std::chrono::milliseconds deadline)
    : store_(store), engine_(engine), policy_(policy), deadline_(deadline) {}

drivers::Readiness ReadinessProbe::check() {
  if (!serving_) return {false, {{"service", "starting or stopping"}}};
  auto turn = std::make_shared<Turn>();
  const bool posted = engine_.engine().post([this, turn] {
    std::string store = "not checked: the service is stopping";
    std::string connections = store;
    if (serving_) {
      store = readStore(store_.store());
      connections = openConnections(policy_);
    }
    std::lock_guard<std::mutex> lock(turn->mutex);
    turn->ran = true;
    turn->store = std::move(store);
    turn->connections = std::move(connections);
    turn->done.notify_all();
  });
  drivers::Readiness r{false, {{"service", "ok"}}};
  std::unique_lock<std::mutex> lock(turn->mutex);
  if (!posted || !turn->done.wait_for(lock, deadline_, [&] { return turn->ran; })) {
    r.checks.emplace_back(
        "engine",
        posted ? "no turn within " + std::to_string(deadline_.count()) + " ms" : "stopped");
    return r;
  }
  r.checks.emplace_back("engine", "ok");
  r.checks.emplace_back("store", turn->store);
  r.checks.emplace_back("connections", turn->connections);
  r.ready = turn->store == "ok" && turn->connections == "ok";
  return r;
}

}  // namespace atoms
