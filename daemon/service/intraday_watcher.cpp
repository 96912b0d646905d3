#include "daemon/service/intraday_watcher.h"

#include "daemon/log/log.h"
#include "domain/forecast/intraday_check.h"
#include "domain/labor/labor_engine.h"
#include "domain/labor/rule_table.h"
#include "domain/site/site_repository.h"

namespace atoms {

IntradayWatcher::IntradayWatcher(Engine& engine, SiteStore& store, const pos::PosHealth& health,
                                 site::TimeZone zone, forecast::SiteForecastSettings settings,
                                 std::string rulesDir, std::chrono::minutes period,
                                 Poco::Logger& logger)
    : engine_(engine),
      store_(store),
      health_(health),
      zone_(std::move(zone)),
      settings_(std::move(settings)),
      rulesDir_(std::move(rulesDir)),
      period_(period),
      logger_(logger) {}

IntradayWatcher::~IntradayWatcher() = default;

void IntradayWatcher::start() {
  if (period_.count() <= 0 || settings_.standards.empty()) return;
  timer_ = engine_.schedule(engine_.clock().now() + period_, [this] { fire(); });
}

void IntradayWatcher::stop() {
  if (timer_) engine_.cancel(*timer_);
  timer_.reset();
}

void IntradayWatcher::fire() {
  timer_.reset();
  if (auto filed = checkNow(); !filed) {
    logWarning(logger_, "intraday check failed; trying again at the next one",
               {{"error", filed.message()}});
  } else if (!filed->filed.empty()) {
    logInfo(logger_, "intraday proposals for the manager",
            {{"filed", std::to_string(filed->filed.size())}});
  }
  start();
}

Result<forecast::IntradayCheckRun> IntradayWatcher::checkNow() {
  const TimePoint now = engine_.clock().now();
  const pos::PosFreshness freshness = health_.freshness(now);
  if (!freshness.fresh) {  // nothing proposed from stale data; what has lapsed still lapses
    auto expired = forecast::expireProposals(store_, now);
    if (!expired) return expired.error();
    return forecast::IntradayCheckRun{{},
                                      "nothing is checked from stale sales: " + freshness.reason};
  }
  auto model = site::loadSite(store_.db());
  if (!model) return model.error();
  auto rules = labor::loadRuleBook(rulesDir_, model->site.jurisdictions);
  if (!rules) return rules.error();
  auto context = labor::LaborContext::build(*model, *rules);
  if (!context) return context.error();
  auto evaluator = labor::ChangeEvaluator::build(*context);
  if (!evaluator) return evaluator.error();

  forecast::IntradayCheck check;
  check.zone = &zone_;
  check.settings = &settings_;
  check.quoteRelease = [&](const forecast::LaborStandard& station, site::Instant at) {
    return forecast::quoteEarlyRelease(*evaluator, *model, zone_, station.station,
                                       station.minimumHeads, at);
  };
  check.stationName = [&](const std::string& id) {
    for (const site::Station& s : model->stations) {
      if (s.id == id) return s.name;
    }
    return id;
  };
  check.personName = [&](const std::string& id) {
    for (const site::Person& p : model->people) {
      if (p.id == id) return p.name.substr(0, p.name.find(' '));
    }
    return id;
  };
  auto filed = forecast::runIntradayCheck(store_, check, true, now);
  if (!filed) return filed.error();
  if (announce_) {
    for (const forecast::IntradayProposal& p : *filed) announce_(p);
  }
  return forecast::IntradayCheckRun{std::move(*filed), ""};
}

}  // namespace atoms
