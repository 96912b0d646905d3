// ForecastResource: the demand forecast, staffing from it and the intraday proposals in the JSON
// API (docs/api.md "Forecast"), for the owners and managers of record (403 for anyone else):
//   GET  /v1/forecast?from=YYYY-MM-DD&days=N      the forecast per revenue center and 15 minutes
//                                                 (with why: forecast_explanation.h) and the
//                                                 heads each station needs; days 1..14
//   POST /v1/forecast/special-days                {"day","closed","like","multiplier","note"}
//                                                 marks a day; {"day","unmark":true} removes it
//   GET  /v1/forecast/proposals?day=YYYY-MM-DD    the day's intraday proposals
//   POST /v1/forecast/proposals/{id}/decision     {"decision":"approve"|"deny","reason":"..."}
//   POST /v1/forecast/proposals/check             runs the intraday check once now: {"filed":
//                                                 [proposals], "reason": null or why nothing was
//                                                 checked}; 409 when the box runs no check
// Nothing forecast-driven from stale data (issue 19 item 7): when the POS is off or not fresh,
// GET /v1/forecast answers 200 with "pos" saying why and "forecast" and "staffing" null. A
// history too short for a forecast is 200 with "forecast" null and the reason. 400 for a bad
// query or body (naming the field), 404 for an unknown proposal, 409 for one already decided.
//
// Threading: as ApiResource; every call runs on the writer.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "daemon/api/api_resource.h"
#include "domain/forecast/intraday_check.h"
#include "domain/forecast/intraday_proposals.h"
#include "domain/forecast/proposal_desk.h"
#include "domain/forecast/site_forecast.h"
#include "domain/pos/pos_health.h"

namespace atoms::api {

inline constexpr char kForecastPath[] = "/v1/forecast";

struct ForecastAccess {
  RolesLookup roles;
  // The POS freshness now; nullopt when no POS is configured.
  std::function<std::optional<pos::PosFreshness>()> freshness;
  std::function<Result<forecast::SiteForecast>(std::chrono::local_days from, int days)> forecast;
  std::function<Status(const forecast::SpecialDay& day, const std::string& person)> mark;
  std::function<Result<bool>(std::chrono::local_days day, const std::string& person)> unmark;
  std::function<Result<std::vector<forecast::IntradayProposal>>(std::chrono::local_days day)>
      proposals;
  // The manager's answer and what approving does (forecast::ProposalDesk::decide).
  std::function<Result<forecast::ProposalAnswer>(
      std::int64_t id, bool approve, const std::string& person, const std::string& reason)>
      decide;
  // The intraday check once now (IntradayWatcher::checkNow); nullopt when the box runs none.
  std::function<Result<std::optional<forecast::IntradayCheckRun>>()> check;
};

class ForecastResource final : public ApiResource {
 public:
  explicit ForecastResource(ForecastAccess access) : access_(std::move(access)) {}
  std::vector<std::string> methods(std::string_view path) const override;
  bool takesQuery(std::string_view path) const override;
  ApiAnswer handle(const ApiRequest& request) override;

 private:
  ApiAnswer forecast(const ApiRequest& request);
  ApiAnswer markDay(const ApiRequest& request);
  ApiAnswer proposals(const ApiRequest& request);
  ApiAnswer decide(const ApiRequest& request, std::int64_t id);
  ApiAnswer check(const ApiRequest& request);
  ForecastAccess access_;
};

}  // namespace atoms::api
