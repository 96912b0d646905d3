// The forecast in the JSON API (daemon/api/forecast_resource.h), called as the router calls it on
// the writer: stale or absent POS data gives no forecast and no staffing (and the forecast is not
// even computed); fresh data gives the forecast from the store with staffing; bad queries are
// named; a proposal is decided once through the API, and a second decision is refused.
#include <boost/test/unit_test.hpp>

#include "daemon/api/forecast_resource.h"
#include "domain/forecast/synthetic_demand.h"
#include "tests/forecast/sales_site.h"

namespace atoms::forecast {
namespace {

using namespace std::chrono;

constexpr local_days kStart{2026y / January / 5};

struct ApiSite : test::ForecastSite {
  ApiSite() : ForecastSite("America/Los_Angeles") {
    for (const DemandInterval& i :
         generateHistory(standardSiteProfiles().front(), kStart, 21, 3).history.intervals) {
      addInterval("dining", i);
    }
    flush();
    settings.standards.push_back(
        LaborStandard{"server", Measure::kCovers, {}, 16, 60, 1, 0, 11 * 60, 22 * 60});
    access.roles = [](const std::string&) -> Result<std::optional<policy::PanelRoles>> {
      return std::optional<policy::PanelRoles>(policy::PanelRoles{false, true});
    };
    access.freshness = [this]() -> std::optional<pos::PosFreshness> { return freshness; };
    access.forecast = [this](local_days from, int days) {
      ++forecasts;
      return forecastFromSales(store->db(), zone, from, days, settings);
    };
    access.decide = [this](std::int64_t id, bool approve, const std::string& person,
                           const std::string& reason) -> Result<ProposalAnswer> {
      auto decided = decideProposal(*store, id, approve, person, reason, now);
      if (!decided) return decided.error();
      return ProposalAnswer{std::move(*decided), "decided", std::nullopt, ""};
    };
  }
  json::Value get(const std::string& query, int status = 200) {
    api::ForecastResource resource(access);
    const api::ApiAnswer a = resource.handle({"GET", api::kForecastPath, query, "manager-1", ""});
    BOOST_TEST(a.status == status, a.body);
    auto body = json::parse(a.body);
    BOOST_TEST_REQUIRE(body.ok(), body.message());
    return *body;
  }

  SiteForecastSettings settings;
  std::optional<pos::PosFreshness> freshness = pos::PosFreshness{true, std::nullopt, ""};
  api::ForecastAccess access;
  int forecasts = 0;
};

BOOST_AUTO_TEST_SUITE(forecast_api)

BOOST_AUTO_TEST_CASE(stalePosDataGivesNoForecastAndNoStaffing) {
  ApiSite s;
  s.freshness = pos::PosFreshness{false, sys_days(2026y / January / 26) + 9h,
                                  "square: no good poll since 09:00"};
  const json::Value body = s.get("from=2026-01-26&days=7");
  const json::Object& o = body.asObject();
  BOOST_TEST(o.at("forecast").isNull());
  BOOST_TEST(o.at("staffing").isNull());
  BOOST_TEST(!o.at("pos").asObject().at("fresh").asBool());
  BOOST_TEST(o.at("reason").asString() ==
             "nothing is forecast from stale sales: square: no good poll since 09:00");
  BOOST_TEST(s.forecasts == 0);
  s.access.freshness = nullptr;  // no POS configured at all
  BOOST_TEST(s.get("from=2026-01-26").asObject().at("staffing").isNull());
  BOOST_TEST(s.forecasts == 0);
}

BOOST_AUTO_TEST_CASE(freshDataGivesTheForecastWithStaffingAndWhy) {
  ApiSite s;
  const json::Value body = s.get("from=2026-01-26&days=2");
  const json::Object& o = body.asObject();
  BOOST_TEST_REQUIRE(o.at("forecast").asArray().size() == 1u);
  const json::Object& center = o.at("forecast").asArray()[0].asObject();
  BOOST_TEST(center.at("revenueCenter").asString() == "dining");
  BOOST_TEST(center.at("days").asArray().size() == 2u);
  const json::Object& first =
      center.at("days").asArray()[0].asObject().at("intervals").asArray()[0].asObject();
  BOOST_TEST(first.at("why").asString().find("= an ordinary day") != std::string::npos);
  BOOST_TEST_REQUIRE(o.at("staffing").asArray().size() == 2u);  // one station, two days
  BOOST_TEST(o.at("staffing").asArray()[0].asObject().at("heads").asArray().size() == 96u);
}

BOOST_AUTO_TEST_CASE(badQueriesAreNamed) {
  ApiSite s;
  BOOST_TEST(s.get("days=3", 400).asObject().at("error").asString() == "from: missing");
  BOOST_TEST(s.get("from=2026-01-26&days=15", 400).asObject().at("error").asString() ==
             "days: a whole number from 1 to 14");
  BOOST_TEST(s.get("from=26/01/2026", 400).asObject().at("error").asString() ==
             "from: '26/01/2026' is not YYYY-MM-DD");
  BOOST_TEST(s.forecasts == 0);
}

BOOST_AUTO_TEST_CASE(aProposalIsDecidedOnceThroughTheApi) {
  ApiSite s;
  IntradaySignal signal{"server",
                        IntradayKind::kAdd,
                        Measure::kCovers,
                        local_seconds(kStart),
                        local_seconds(kStart) + 1h,
                        60,
                        30};
  auto filed = fileProposal(*s.store, kStart, signal, std::nullopt, "Add one?", s.now);
  BOOST_TEST_REQUIRE(filed.ok(), filed.message());
  BOOST_TEST_REQUIRE(filed->has_value());
  const std::string path = "/v1/forecast/proposals/" + std::to_string((*filed)->id) + "/decision";
  api::ForecastResource resource(s.access);
  BOOST_TEST((resource.methods(path) == std::vector<std::string>{"POST"}));
  const api::ApiAnswer ok =
      resource.handle({"POST", path, "", "manager-1", R"({"decision":"deny"})"});
  BOOST_TEST(ok.status == 200, ok.body);
  const api::ApiAnswer again =
      resource.handle({"POST", path, "", "manager-1", R"({"decision":"approve"})"});
  BOOST_TEST(again.status == 409, again.body);
  const api::ApiAnswer unknown = resource.handle(
      {"POST", "/v1/forecast/proposals/999/decision", "", "manager-1", R"({"decision":"deny"})"});
  BOOST_TEST(unknown.status == 404, unknown.body);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::forecast
