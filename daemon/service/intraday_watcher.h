// IntradayWatcher: the intraday check (domain/forecast/intraday_check.h) on the engine's clock in
// `serve` and the demo: every intraday.check_minutes, today's sales against the forecast, a
// proposal filed for the manager when a station runs well above or below (never a change made),
// nothing at all while the POS is not fresh (PosHealth::freshness) but the lapse of proposals past
// their expiry. The cut's premium comes from
// the labor change engine over the stored site and its jurisdictions' rules (labor.rules_dir).
//
// Threading: every method on the engine thread (start() and stop() posted there by the owner);
// the engine, store and health must outlive it. A failed check is logged and tried again at the
// next one.
#pragma once

#include <Poco/Logger.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "daemon/engine/engine.h"
#include "domain/forecast/intraday_check.h"
#include "domain/forecast/intraday_proposals.h"
#include "domain/forecast/site_forecast.h"
#include "domain/pos/pos_health.h"
#include "domain/site/time_zone.h"
#include "store/site_store.h"

namespace atoms {

class IntradayWatcher {
 public:
  IntradayWatcher(Engine& engine, SiteStore& store, const pos::PosHealth& health,
                  site::TimeZone zone, forecast::SiteForecastSettings settings,
                  std::string rulesDir, std::chrono::minutes period, Poco::Logger& logger);
  ~IntradayWatcher();
  IntradayWatcher(const IntradayWatcher&) = delete;
  IntradayWatcher& operator=(const IntradayWatcher&) = delete;

  // Who hears of each proposal filed (forecast::ProposalDesk::announce in `serve`: the general
  // manager's text); none by default. Call before start().
  using Announce = std::function<void(const forecast::IntradayProposal&)>;
  void setAnnounce(Announce announce) { announce_ = std::move(announce); }

  void start();  // the first check one period from now
  void stop();
  // One check now (the timer's, or a manager's through the API): the proposals it filed, or why
  // nothing was checked (the POS data is not fresh).
  Result<forecast::IntradayCheckRun> checkNow();

 private:
  void fire();

  Engine& engine_;
  SiteStore& store_;
  const pos::PosHealth& health_;
  site::TimeZone zone_;
  forecast::SiteForecastSettings settings_;
  std::string rulesDir_;
  std::chrono::minutes period_;
  Poco::Logger& logger_;
  std::optional<Engine::TimerId> timer_;
  Announce announce_;
};

}  // namespace atoms
