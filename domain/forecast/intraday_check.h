// One intraday check (issue 19 item 6): today's forecast from the sales before today, today's
// sales so far, the signals (intraday_watch.h) and a proposal filed for each one the rules let
// through (intraday_proposals.h), with the early release of a cut quoted by the labor change
// engine. Nothing at all from stale POS data: with `fresh` false it returns at once.
//
// A site whose history cannot give a forecast yet (under a week of sales) gets no proposal.
// Threading: the store's writer (the engine thread). Errors: store and change-engine errors.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "base/unix_time.h"
#include "domain/forecast/early_release.h"
#include "domain/forecast/intraday_proposals.h"
#include "domain/forecast/site_forecast.h"
#include "store/site_store.h"

namespace atoms::forecast {

struct IntradayCheck {
  const site::TimeZone* zone = nullptr;
  const SiteForecastSettings* settings = nullptr;
  // Who could go early at the station now (early_release.h over the site's schedule); nullopt:
  // nobody.
  std::function<Result<std::optional<EarlyRelease>>(const LaborStandard& station,
                                                    site::Instant now)>
      quoteRelease;
  // How the manager reads a station id and a person id (the id itself when unknown).
  std::function<std::string(const std::string& stationId)> stationName;
  std::function<std::string(const std::string& personId)> personName;
};

// One check run at a caller's request (IntradayWatcher::checkNow, POST
// /v1/forecast/proposals/check): what it filed, or why nothing was checked at all (stale POS
// data: PosFreshness's reason); `skipped` is empty when the check ran.
struct IntradayCheckRun {
  std::vector<IntradayProposal> filed;
  std::string skipped;
};

// The proposals filed by this check (none when nothing ran well off the forecast, when one is
// already pending or was denied today, or when `fresh` is false).
Result<std::vector<IntradayProposal>> runIntradayCheck(SiteStore& store, const IntradayCheck& check,
                                                       bool fresh, TimePoint now);

}  // namespace atoms::forecast
