#include "daemon/service/site_breakers.h"

#include <utility>

#include "daemon/log/log.h"
#include "daemon/service/config_schema.h"

namespace atoms {

struct SiteBreakers::Shared {
  SiteBreakers* self = nullptr;  // engine thread only; null after stop()
};

std::string connectionBreakerId(std::string_view system) {
  return "BRK-CONN-" + std::string(system);
}

std::vector<std::string> configuredConnections(const Poco::Util::AbstractConfiguration& config) {
  std::vector<std::string> out;
  const std::string sms = configString(config, "sms.driver");
  if (sms != "off") out.push_back(sms);
  if (sms == "twilio" && configString(config, "sms.failover") == "modem") {
    out.push_back("modem");
  }
  if (!configString(config, "terminal.listen").empty()) out.push_back("terminals");
  if (!configString(config, "sync.broker").empty()) out.push_back("broker");
  if (!configString(config, "pos.square.location_ids").empty() ||
      !configString(config, "pos.push.listen").empty() ||
      !configString(config, "pos.csv.directory").empty()) {
    out.push_back("pos");
  }
  return out;
}

SiteBreakers::SiteBreakers(Engine& engine, SiteStore& store, Poco::Logger& logger)
    : engine_(engine), store_(store), logger_(logger), shared_(std::make_shared<Shared>()) {}

SiteBreakers::~SiteBreakers() { shared_->self = nullptr; }

Result<std::unique_ptr<SiteBreakers>> SiteBreakers::create(
    Engine& engine, SiteStore& store, Poco::Logger& logger,
    const std::vector<std::string>& connections, policy::BreakerBoard::TripHook onTrip,
    policy::BreakerBoard::ChangeListener onChange) {
  std::unique_ptr<SiteBreakers> site(new SiteBreakers(engine, store, logger));
  site->people_ = site->managedPeople();
  std::vector<policy::BreakerConfig> configs{policy::outreachBreakerConfig(site->people_),
                                             policy::scheduleBreakerConfig()};
  for (const std::string& system : connections) {
    policy::BreakerConfig c = policy::connectionBreakerConfig(system);
    if (system != "broker") c.staleAfter.reset();
    configs.push_back(std::move(c));
  }
  auto board =
      policy::BreakerBoard::open(store.log(), store.db(), std::move(configs), engine.clock().now());
  if (!board) return board.error();
  site->board_ = std::move(*board);
  site->board_->setOnTrip(std::move(onTrip));
  site->board_->setOnChange(std::move(onChange));
  site->shared_->self = site.get();
  site->schedule();
  return site;
}

void SiteBreakers::stop() {
  shared_->self = nullptr;
  if (timer_ != 0) engine_.cancel(timer_);
  timer_ = 0;
}

void SiteBreakers::report(BreakerReport r) {
  (void)engine_.post([shared = shared_, r = std::move(r)] {
    if (shared->self != nullptr) shared->self->apply(r);
  });
}

void SiteBreakers::apply(const BreakerReport& r) {
  using Kind = BreakerReport::Kind;
  if (!board_->has(r.breaker)) {
    logDebug(logger_, "a report for a breaker this site does not have",
             {{"breaker", r.breaker}, {"detail", r.detail}});
    return;
  }
  const TimePoint now = engine_.clock().now();
  policy::BreakerBoard& b = *board_;
  Result<policy::BreakerBoard::Events> done = policy::BreakerBoard::Events{};
  switch (r.kind) {
    case Kind::kSuccess:
      done = b.recordSuccess(r.breaker, now, r.actor);
      break;
    case Kind::kConnected:
      connected_.insert(r.breaker);
      done = b.recordSuccess(r.breaker, now, r.actor);
      break;
    case Kind::kDisconnected:
      connected_.erase(r.breaker);
      done = b.recordFailure(r.breaker, now, r.actor, r.detail);
      break;
    case Kind::kFailure:
      done = b.recordFailure(r.breaker, now, r.actor, r.detail);
      break;
    case Kind::kAuthFailure:
      done = b.recordSignal(r.breaker, now, r.actor, policy::kSignalAuthFailure);
      break;
    case Kind::kSignal:
      done = b.recordSignal(r.breaker, now, r.actor, r.detail);
      break;
    case Kind::kTrip:
      done = b.trip(r.breaker, now, r.actor, r.detail);
      break;
  }
  if (!done) {
    logError(logger_, "cannot record a breaker signal",
             {{"breaker", r.breaker}, {"error", done.message()}});
  }
}

int SiteBreakers::managedPeople() {
  auto stmt = store_.db().cached("SELECT count(*) FROM site_person");
  if (!stmt) return people_;
  auto row = stmt->step();
  if (!row || !*row) return people_;
  return static_cast<int>(stmt->columnInt64(0));
}

void SiteBreakers::schedule() {
  timer_ = engine_.schedule(engine_.clock().now() + kTickInterval, [this] {
    timer_ = 0;
    tick();
    schedule();
  });
}

void SiteBreakers::tick() {
  const TimePoint now = engine_.clock().now();
  if (const int people = managedPeople(); people != people_) {
    if (Status s = board_->reconfigure(policy::outreachBreakerConfig(people)); !s) {
      logError(logger_, "cannot change BRK-OUT's volume limit", {{"error", s.message()}});
    } else {
      people_ = people;
    }
  }
  for (const std::string& id : connected_) {
    if (auto beat = board_->recordHeartbeat(id, now, "engine"); !beat) {
      logError(logger_, "cannot record a heartbeat", {{"breaker", id}, {"error", beat.message()}});
    }
  }
  if (auto moved = board_->tick(now); !moved) {
    logError(logger_, "cannot tick the breakers", {{"error", moved.message()}});
  }
}

Result<policy::BreakerEvent> SiteBreakers::acknowledge(std::string_view id,
                                                       const policy::BreakerAcker& who) {
  return board_->acknowledge(id, engine_.clock().now(), who);
}

std::vector<policy::BreakerView> SiteBreakers::list() {
  return board_->list(engine_.clock().now());
}

}  // namespace atoms
