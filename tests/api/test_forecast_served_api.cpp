// The forecast's marked days, intraday proposals and the check on demand in the JSON API
// (daemon/api/forecast_resource.h) in serve's wiring, over real HTTP, on the demo site standing
// at a fixed time (a SimulatedClock: the watcher's own timer never fires): three weeks of lunches
// give the forecast; a surge at the floor today files an "add" through POST
// /v1/forecast/proposals/check, which the manager approves or denies once; stale POS data files
// nothing and says why; a box with no check answers 409. Marks are replaced, removed, refused
// with the field named (nothing changed), and audited when they change something.
#include <sys/stat.h>

#include <boost/test/unit_test.hpp>
#include <chrono>

#include "base/writer_call.h"
#include "daemon/service/edge_services.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/pos_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "domain/forecast/special_day_store.h"
#include "domain/pos/sales_book.h"
#include "domain/site/time_zone.h"
#include "drivers/http/bearer_tokens.h"
#include "tests/api/served_api.h"
#include "tests/support/api_client.h"

namespace atoms::test {
namespace {

namespace chr = std::chrono;
using namespace std::chrono_literals;
using atoms::testing::ApiReply;
using atoms::testing::apiRequest;

// Wednesday 18 February 2026, 13:05 in San Francisco (21:05 UTC): the last complete quarter hour
// is 12:45-13:00.
constexpr chr::local_days kToday{chr::year(2026) / chr::February / 18};
const TimePoint kNow = chr::sys_days(chr::year(2026) / chr::February / 18) + 21h + 5min;

// The configuration files, written before the services start.
struct ForecastFiles {
  ForecastFiles() {
    // The floor's covers, 4 a head a quarter hour, open all day (any hour works).
    standards = dir.write("standards", "floor covers 4 15 1 6 00:00 24:00\n");
    posTokens = dir.write("pos-tokens",
                          "register-1 " + drivers::BearerTokens::hashHex("register-token") + "\n");
    BOOST_REQUIRE(::chmod(posTokens.c_str(), 0600) == 0);
  }
  atoms::testing::TempDir dir;
  std::string standards;
  std::string posTokens;
};

struct ForecastServed : ForecastFiles, RolesSite {
  ForecastServed()
      : RolesSite({{"pos.push.listen", "127.0.0.1:0"},
                   {"pos.push.tokens_file", posTokens},
                   {"pos.push.tls", "off"},
                   {"forecast.standards_file", standards},
                   {"intraday.window_minutes", "15"}},
                  kNow),
        zone(site::TimeZone::locate("America/Los_Angeles").value()) {}

  // Covers sold at local 12:50 of `day`, through the sales book on the engine thread.
  void lunch(const std::string& id, chr::local_days day, std::int64_t covers) {
    drivers::pos::PosOrder o;
    o.id = id;
    o.at = zone.toUtc(site::LocalTime(day) + 12h + 50min).value();
    o.updatedAt = o.at;
    o.netCents = covers * 2000;
    o.covers = covers;
    const drivers::pos::OrderBatch batch{"push", {o}, std::nullopt, "test sale"};
    auto recorded = callOnWriter(services->engine().engine(), [&] {
      return pos::recordOrders(services->store().store(), batch, zone, clock.now());
    });
    BOOST_TEST_REQUIRE(recorded.has_value());
    BOOST_TEST_REQUIRE(recorded->ok(), recorded->message());
  }
  // Three weeks of 4 covers at 12:50, then 24 today.
  void surge() {
    for (int k = 1; k <= 21; ++k) lunch("h" + std::to_string(k), kToday - chr::days(k), 4);
    lunch("today", kToday, 24);
  }
  ApiReply post(const std::string& path, const std::string& body,
                const std::string& token = kManagerToken) {
    return apiRequest(port(), "POST", path, token, body);
  }
  ApiReply check() { return post("/v1/forecast/proposals/check", "{}"); }
  // The one proposal the surge files, by id.
  std::int64_t filedAdd() {
    surge();
    ApiReply ran = check();
    BOOST_TEST_REQUIRE(ran.status == 200, ran.body);
    BOOST_TEST(ran.object().at("reason").isNull());
    const json::Array& filed = ran.object().at("filed").asArray();
    BOOST_TEST_REQUIRE(filed.size() == 1u, ran.body);
    return filed[0].asObject().at("id").asInt();
  }
  std::string decisionPath(std::int64_t id) {
    return "/v1/forecast/proposals/" + std::to_string(id) + "/decision";
  }
  forecast::SpecialDays marks() {
    auto loaded = callOnWriter(services->engine().engine(), [this] {
      return forecast::loadSpecialDays(services->store().store().db());
    });
    BOOST_REQUIRE(loaded);
    BOOST_REQUIRE_MESSAGE(loaded->ok(), loaded->message());
    return **loaded;
  }

  site::TimeZone zone;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(forecast_served_api)

BOOST_AUTO_TEST_CASE(aSurgeFilesAnAddThroughTheCheckAndTheManagerApprovesItOnce) {
  ForecastServed site;
  const std::int64_t id = site.filedAdd();
  BOOST_TEST(site.entries("intraday.proposal").size() == 1u);

  ApiReply listed =
      apiRequest(site.port(), "GET", "/v1/forecast/proposals?day=2026-02-18", kManagerToken);
  BOOST_TEST_REQUIRE(listed.status == 200, listed.body);
  const json::Array& today = listed.object().at("proposals").asArray();
  BOOST_TEST_REQUIRE(today.size() == 1u);
  const json::Object& p = today[0].asObject();
  BOOST_TEST(p.at("kind").asString() == "add");
  BOOST_TEST(p.at("station").asString() == "floor");
  BOOST_TEST(p.at("state").asString() == "pending");
  BOOST_TEST(p.at("measure").asString() == "covers");
  BOOST_TEST(p.at("actual").asInt() == 24);
  BOOST_TEST(p.at("windowStart").asString() == "12:45");
  BOOST_TEST(p.at("windowEnd").asString() == "13:00");
  BOOST_TEST(p.at("percentOff").asInt() > 25);
  ApiReply yesterday =
      apiRequest(site.port(), "GET", "/v1/forecast/proposals?day=2026-02-17", kManagerToken);
  BOOST_TEST(yesterday.object().at("proposals").asArray().empty());

  // Today counts it among the approvals waiting.
  ApiReply page = apiRequest(site.port(), "GET", "/v1/today", kManagerToken);
  BOOST_TEST(page.object().at("approvals").asObject().at("proposals").asInt() == 1);

  // A second check files nothing: one is pending at the floor already.
  ApiReply again = site.check();
  BOOST_TEST(again.object().at("filed").asArray().empty(), again.body);

  // Not someone who manages: 403, on the list, the decision and the check alike.
  BOOST_TEST(
      apiRequest(site.port(), "GET", "/v1/forecast/proposals?day=2026-02-18", kStaffToken).status ==
      403);
  BOOST_TEST(site.post(site.decisionPath(id), R"({"decision":"approve"})", kStaffToken).status ==
             403);
  BOOST_TEST(site.post("/v1/forecast/proposals/check", "{}", kStaffToken).status == 403);

  ApiReply approved = site.post(site.decisionPath(id), R"({"decision":"approve","reason":"busy"})");
  BOOST_TEST_REQUIRE(approved.status == 200, approved.body);
  const json::Object& decided = approved.object().at("proposal").asObject();
  BOOST_TEST(decided.at("state").asString() == "approved");
  BOOST_TEST(decided.at("decidedBy").asString() == "p-gm");
  BOOST_TEST(site.entries("intraday.decided").size() == 1u);
  ApiReply twice = site.post(site.decisionPath(id), R"({"decision":"deny"})");
  BOOST_TEST(twice.status == 409, twice.body);
  ApiReply unknown = site.post(site.decisionPath(id + 100), R"({"decision":"deny"})");
  BOOST_TEST(unknown.status == 404, unknown.body);
  ApiReply bad = site.post(site.decisionPath(id), R"({"decision":"maybe"})");
  BOOST_TEST(bad.status == 400, bad.body);
  BOOST_TEST(site.entries("intraday.decided").size() == 1u);
  BOOST_TEST(apiRequest(site.port(), "GET", "/v1/today", kManagerToken)
                 .object()
                 .at("approvals")
                 .asObject()
                 .at("proposals")
                 .asInt() == 0);
}

BOOST_AUTO_TEST_CASE(aDeniedAddIsNotFiledAgainThatDay) {
  ForecastServed site;
  const std::int64_t id = site.filedAdd();
  ApiReply denied = site.post(site.decisionPath(id), R"({"decision":"deny"})");
  BOOST_TEST_REQUIRE(denied.status == 200, denied.body);
  BOOST_TEST(denied.object().at("proposal").asObject().at("state").asString() == "denied");
  ApiReply again = site.check();
  BOOST_TEST_REQUIRE(again.status == 200, again.body);
  BOOST_TEST(again.object().at("filed").asArray().empty());
  BOOST_TEST(site.entries("intraday.proposal").size() == 1u);
}

BOOST_AUTO_TEST_CASE(stalePosDataFilesNothingAndSaysWhy) {
  ForecastServed site;
  site.surge();
  site.services->pos().health().record(
      {"push:register-1", drivers::pos::SourceStatus::Kind::kFailing, "the register went quiet"},
      site.clock.now());
  ApiReply ran = site.check();
  BOOST_TEST_REQUIRE(ran.status == 200, ran.body);
  BOOST_TEST(ran.object().at("filed").asArray().empty());
  const std::string reason = ran.object().at("reason").asString();
  BOOST_TEST(reason.find("nothing is checked from stale sales") == 0u, reason);
  BOOST_TEST(reason.find("the register went quiet") != std::string::npos, reason);
  BOOST_TEST(site.entries("intraday.proposal").empty());
  ApiReply body = site.post("/v1/forecast/proposals/check", R"({"now":"later"})");
  BOOST_TEST(body.status == 400, body.body);
  BOOST_TEST(body.error() == "unknown field 'now'");
}

BOOST_AUTO_TEST_CASE(aBoxWithoutTheCheckAnswers409) {
  RolesSite site;
  ApiReply ran =
      apiRequest(site.port(), "POST", "/v1/forecast/proposals/check", kManagerToken, "{}");
  BOOST_TEST(ran.status == 409, ran.body);
  BOOST_TEST(ran.error().find("forecast.standards_file") != std::string::npos, ran.body);
}

BOOST_AUTO_TEST_CASE(specialDaysAreMarkedReplacedUnmarkedAndBadInputChangesNothing) {
  ForecastServed site;
  const std::string path = "/v1/forecast/special-days";
  ApiReply marked =
      site.post(path, R"({"day":"2026-02-20","multiplier":"1.5","note":"street fair"})");
  BOOST_TEST_REQUIRE(marked.status == 200, marked.body);
  BOOST_TEST(marked.object().at("marked").asBool());
  ApiReply replaced = site.post(path, R"({"day":"2026-02-20","closed":true,"note":"burst pipe"})");
  BOOST_TEST_REQUIRE(replaced.status == 200, replaced.body);
  forecast::SpecialDays marks = site.marks();
  BOOST_TEST_REQUIRE(marks.all().size() == 1u);
  BOOST_TEST(marks.all()[0].closed);
  BOOST_TEST(marks.all()[0].note == "burst pipe");
  BOOST_TEST(site.entries("forecast.special_day").size() == 2u);

  const std::vector<std::pair<std::string, std::string>> bad{
      {R"({"day":"20/02/2026","closed":true})", "day: '20/02/2026' is not YYYY-MM-DD"},
      {R"({"closed":true})", "day: missing"},
      {R"({"day":"2026-02-21","multiplier":2})", "multiplier: a decimal string, e.g. \"1.5\""},
      {R"({"day":"2026-02-21","like":"Caturday"})", "like: not a weekday name (Monday ... Sunday)"},
      {R"({"day":"2026-02-21","closed":"yes"})", "closed: not true or false"},
      {R"({"day":"2026-02-21","colour":"red"})", "unknown field 'colour'"},
  };
  for (const auto& [body, error] : bad) {
    ApiReply refused = site.post(path, body);
    BOOST_TEST(refused.status == 400, body);
    BOOST_TEST(refused.error() == error, refused.body);
  }
  ApiReply tooMuch = site.post(path, R"({"day":"2026-02-21","multiplier":"50"})");
  BOOST_TEST(tooMuch.status == 400, tooMuch.body);
  BOOST_TEST(tooMuch.error().find("2026-02-21") != std::string::npos, tooMuch.body);
  BOOST_TEST(site.marks().all().size() == 1u);
  BOOST_TEST(site.entries("forecast.special_day").size() == 2u);
  BOOST_TEST(site.post(path, R"({"day":"2026-02-21","closed":true})", kStaffToken).status == 403);

  ApiReply unmarked = site.post(path, R"({"day":"2026-02-20","unmark":true})");
  BOOST_TEST_REQUIRE(unmarked.status == 200, unmarked.body);
  BOOST_TEST(unmarked.object().at("unmarked").asBool());
  ApiReply none = site.post(path, R"({"day":"2026-02-20","unmark":true})");
  BOOST_TEST(!none.object().at("unmarked").asBool(), none.body);
  BOOST_TEST(site.marks().all().empty());
  BOOST_TEST(site.entries("forecast.special_day").size() == 3u);  // nothing to remove: no entry
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::test
