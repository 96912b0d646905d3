// Labor against sales in the JSON API (daemon/api/sales_labor_resource.h) in serve's wiring, over
// real HTTP, on the demo site and the real labor tables: a published shift and earlier weeks'
// sales give the day's scheduled labor and its projection with exact cents, the week view, the
// figure on Today, who may read it, and a bad query refused.
#include <boost/test/unit_test.hpp>
#include <chrono>

#include "base/writer_call.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "domain/pos/sales_book.h"
#include "domain/site/time_zone.h"
#include "domain/week/week_draft.h"
#include "tests/api/served_api.h"
#include "tests/support/api_client.h"

namespace atoms::test {
namespace {

namespace chr = std::chrono;
using atoms::testing::ApiReply;
using atoms::testing::apiRequest;

struct SalesLaborSite : RolesSite {
  SalesLaborSite() : zone(site::TimeZone::locate("America/Los_Angeles").value()) {
    const auto local = zone.toLocal(site::toInstant(clock.now()));
    // Three weeks ahead (past any notice period); Monday of the demo site's Sunday week.
    week = week::weekOf(site::SiteInfo{}, local) + chr::days(21);
    day = week + chr::days(1);
  }
  std::string localText(chr::local_days d, int hour) const {
    return site::formatLocal(site::LocalTime(d) + chr::hours(hour)).substr(0, 16);
  }
  void publishShift(const std::string& person, int from, int to) {
    const std::string path = "/v1/schedule/weeks/" + week::formatWeek(week);
    ApiReply opened = apiRequest(port(), "GET", path, kManagerToken);
    BOOST_TEST_REQUIRE(opened.status == 200, opened.body);
    ApiReply added =
        apiRequest(port(), "POST", path + "/edits", kManagerToken,
                   "{\"version\":1,\"edit\":{\"kind\":\"add\",\"station\":\"line\",\"start\":\"" +
                       localText(day, from) + "\",\"end\":\"" + localText(day, to) +
                       "\",\"assignee\":\"" + person + "\"}}");
    BOOST_TEST_REQUIRE(added.status == 200, added.body);
    ApiReply published =
        apiRequest(port(), "POST", path + "/publish", kManagerToken, "{\"version\":2}");
    BOOST_TEST_REQUIRE(published.status == 200, published.body);
  }
  // One sale at local `hour`:`minute` of `d`, through the sales book on the engine thread.
  void sell(const std::string& id, chr::local_days d, int hour, int minute, std::int64_t cents) {
    drivers::pos::PosOrder o;
    o.id = id;
    o.at = zone.toUtc(site::LocalTime(d) + chr::hours(hour) + chr::minutes(minute)).value();
    o.updatedAt = o.at;
    o.netCents = cents;
    o.covers = 2;
    const drivers::pos::OrderBatch batch{"push", {o}, std::nullopt, "test sale"};
    auto recorded = callOnWriter(services->engine().engine(), [&] {
      return pos::recordOrders(services->store().store(), batch, zone, clock.now());
    });
    BOOST_TEST_REQUIRE(recorded.has_value());
    BOOST_TEST_REQUIRE(recorded->ok(), recorded->message());
  }
  ApiReply get(const std::string& query, const std::string& token = kManagerToken) {
    return apiRequest(port(), "GET", "/v1/sales/labor" + query, token);
  }

  site::TimeZone zone;
  week::Week week;
  chr::local_days day;
};

const json::Object& member(const json::Object& o, const std::string& key) {
  return o.at(key).asObject();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sales_labor_api)

BOOST_AUTO_TEST_CASE(aPublishedShiftAndEarlierWeeksGiveTheDayAndItsProjection) {
  SalesLaborSite site;
  site.publishShift("p-jamal", 9, 17);  // 8 h at $26.00
  // No sales yet: no forecast can be made, the weekday average (of nothing) answers.
  ApiReply before = site.get("?day=" + site::formatLocalDay(site.day));
  BOOST_TEST_REQUIRE(before.status == 200, before.body);
  BOOST_TEST(before.object().at("projectionSource").asString() == "weekday_average_4w");
  BOOST_TEST(member(member(before.object(), "day"), "projected").at("salesCents").asInt() == 0);

  site.sell("w1", site.day - chr::days(7), 12, 5, 30000);
  site.sell("w2", site.day - chr::days(14), 12, 10, 20000);
  // Two weeks of history: the forecast of the day (decision 0038).
  ApiReply reply = site.get("?day=" + site::formatLocalDay(site.day));
  BOOST_TEST_REQUIRE(reply.status == 200, reply.body);
  BOOST_TEST(reply.object().at("projectionSource").asString() == "forecast");
  BOOST_TEST(reply.object().at("timeZone").asString() == "America/Los_Angeles");
  BOOST_TEST(member(reply.object(), "pos").at("on").asBool() == false);
  const json::Object& d = member(reply.object(), "day");
  BOOST_TEST(d.at("day").asString() == site::formatLocalDay(site.day));
  BOOST_TEST(member(d, "scheduled").at("heads").asInt() == 1);
  BOOST_TEST(member(d, "scheduled").at("minutes").asInt() == 480);
  BOOST_TEST(member(d, "scheduled").at("costCents").asInt() == 20800);
  const json::Object& soFar = member(d, "soFar");
  BOOST_TEST(soFar.at("salesCents").asInt() == 0);
  BOOST_TEST(soFar.at("laborPercent").isNull());  // no sales yet: none, not infinity
  const json::Object& projected = member(d, "projected");
  BOOST_TEST(projected.at("laborCents").asInt() == 20800);
  std::int64_t expected = 0;
  const json::Object* found = nullptr;
  for (const json::Value& i : d.at("intervals").asArray()) {
    expected += i.asObject().at("expectedCents").asInt();
    if (i.asObject().at("local").asString() == "12:00") found = &i.asObject();
  }
  // The day is still to come: the projection is what the forecast expects of it, around noon.
  BOOST_TEST(expected > 0);
  BOOST_TEST(projected.at("salesCents").asInt() == expected);
  BOOST_TEST_REQUIRE(found != nullptr);
  const json::Object& noon = *found;
  BOOST_TEST(noon.at("expectedCents").asInt() > 0);
  BOOST_TEST(member(noon, "scheduled").at("costCents").asInt() == 650);
}

BOOST_AUTO_TEST_CASE(theWeekViewAddsUpTheSiteWorkweek) {
  SalesLaborSite site;
  site.publishShift("p-jamal", 9, 17);
  // Any day of the week asks for the week that holds it (the demo site's starts on Sunday).
  ApiReply reply = site.get("?week=" + site::formatLocalDay(site.day + chr::days(2)));
  BOOST_TEST_REQUIRE(reply.status == 200, reply.body);
  const json::Object& w = member(reply.object(), "week");
  BOOST_TEST(w.at("week").asString() == week::formatWeek(site.week));
  const json::Array& days = w.at("days").asArray();
  BOOST_TEST_REQUIRE(days.size() == 7u);
  BOOST_TEST(member(days[1].asObject(), "scheduled").at("costCents").asInt() == 20800);
  BOOST_TEST(days[1].asObject().count("intervals") == 0u);
  BOOST_TEST(member(w, "projected").at("laborCents").asInt() == 20800);
  BOOST_TEST(member(w, "projected").at("laborPercent").isNull());
}

BOOST_AUTO_TEST_CASE(todayShowsTheFigureAndAnyoneOfTheSiteReads) {
  SalesLaborSite site;
  ApiReply today = apiRequest(site.port(), "GET", "/v1/today", kStaffToken);
  BOOST_TEST_REQUIRE(today.status == 200, today.body);
  const json::Object& sales = member(today.object(), "sales");
  BOOST_TEST(sales.at("projectionSource").asString() == "weekday_average_4w");
  BOOST_TEST(member(sales, "soFar").count("laborPercent") == 1u);
  BOOST_TEST(member(sales, "pos").at("on").asBool() == false);
  ApiReply lead = site.get("", kStaffToken);
  BOOST_TEST_REQUIRE(lead.status == 200, lead.body);
  BOOST_TEST(member(lead.object(), "day").at("intervals").asArray().size() >= 92u);
}

BOOST_AUTO_TEST_CASE(aBadQueryIsRefusedAndNamesWhatIsExpected) {
  SalesLaborSite site;
  for (const std::string query : {"?day=2026-02-30", "?day=tomorrow", "?month=2026-12", "?day="}) {
    ApiReply reply = site.get(query);
    BOOST_TEST(reply.status == 400, query);
    BOOST_TEST(reply.error().find("day=YYYY-MM-DD") != std::string::npos, reply.body);
  }
  ApiReply noToken = apiRequest(site.port(), "GET", "/v1/sales/labor", std::nullopt);
  BOOST_TEST(noToken.status == 401);
  ApiReply post = apiRequest(site.port(), "POST", "/v1/sales/labor", kManagerToken, "{}");
  BOOST_TEST(post.status == 405);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::test
