// The manager's week in the JSON API (daemon/api/schedule_resource.h; decision 0032) in serve's
// wiring, on the demo site and the real labor tables: reading the week, edits with their
// findings, a stale edit (409 naming who changed the week), a denied copy (422), who may change
// it, bad bodies, and publication with its receipt, audit entry and texts through the SMS layer.
#include <boost/test/unit_test.hpp>
#include <chrono>

#include "domain/site/time_zone.h"
#include "domain/week/week_draft.h"
#include "tests/api/served_api.h"
#include "tests/support/api_client.h"

namespace atoms::test {
namespace {

namespace chr = std::chrono;
using atoms::testing::ApiReply;
using atoms::testing::apiRequest;

struct ScheduleSite : RolesSite {
  ScheduleSite() {
    auto zone = site::TimeZone::locate("America/Los_Angeles");
    BOOST_REQUIRE(zone.ok());
    const auto local = zone->toLocal(site::toInstant(clock.now()));
    // The demo site's workweek starts on Sunday; three weeks ahead, past any notice period.
    week = week::weekOf(site::SiteInfo{}, local) + chr::days(21);
    path = "/v1/schedule/weeks/" + week::formatWeek(week);
  }
  std::string at(int day, int hour) const {
    return site::formatLocal(site::LocalTime(week + chr::days(day)) + chr::hours(hour))
        .substr(0, 16);
  }
  std::string addBody(std::int64_t version, int day, const std::string& person) const {
    return "{\"version\":" + std::to_string(version) +
           ",\"edit\":{\"kind\":\"add\",\"station\":\"line\",\"start\":\"" + at(day, 9) +
           "\",\"end\":\"" + at(day, 17) + "\",\"assignee\":\"" + person + "\"}}";
  }
  ApiReply post(const std::string& token, const std::string& tail, const std::string& body) {
    return apiRequest(port(), "POST", path + tail, token, body);
  }

  week::Week week;
  std::string path;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(schedule_api)

BOOST_AUTO_TEST_CASE(aManagerBuildsAndPublishesAWeekAndAStaleEditIsRefused) {
  ScheduleSite site;
  ApiReply opened = apiRequest(site.port(), "GET", site.path, kManagerToken);
  BOOST_TEST_REQUIRE(opened.status == 200, opened.body);
  BOOST_TEST(opened.object().at("version").asInt() == 1);
  BOOST_TEST(opened.object().at("shifts").asArray().empty());
  BOOST_TEST(opened.object().at("labor").asObject().at("days").asArray().size() == 7u);

  ApiReply added = site.post(kManagerToken, "/edits", site.addBody(1, 1, "p-jamal"));
  BOOST_TEST_REQUIRE(added.status == 200, added.body);
  BOOST_TEST(added.object().at("outcome").asString() == "done");
  const json::Object& draft = added.object().at("draft").asObject();
  BOOST_TEST(draft.at("version").asInt() == 2);
  BOOST_TEST(draft.at("labor").asObject().at("minutes").asInt() == 8 * 60);
  BOOST_TEST(draft.at("labor").asObject().at("wageCents").asInt() > 0);

  // A second manager's edit made on version 1 is refused, naming who changed the week.
  ApiReply stale = site.post(kOwnerToken, "/edits", site.addBody(1, 2, "p-tuan"));
  BOOST_TEST_REQUIRE(stale.status == 409, stale.body);
  BOOST_TEST(stale.object().at("outcome").asString() == "stale");
  BOOST_TEST(stale.object().at("newer").asObject().at("by").asString() == "p-gm");
  BOOST_TEST(stale.error().find("p-gm") != std::string::npos);
  BOOST_TEST(stale.object().at("draft").asObject().at("version").asInt() == 2);

  ApiReply history = apiRequest(site.port(), "GET", site.path + "/history", kStaffToken);
  BOOST_TEST_REQUIRE(history.status == 200, history.body);
  BOOST_TEST(history.object().at("edits").asArray().size() == 2u);  // open, add

  ApiReply published = site.post(kManagerToken, "/publish", "{\"version\":2}");
  BOOST_TEST_REQUIRE(published.status == 200, published.body);
  BOOST_TEST(published.object().at("outcome").asString() == "done");
  BOOST_TEST(!published.object().at("receiptSeq").isNull());
  const json::Array& texts = published.object().at("texts").asArray();
  BOOST_TEST_REQUIRE(texts.size() == 1u);
  BOOST_TEST(texts[0].asObject().at("person").asString() == "p-jamal");
  const std::string outcome = texts[0].asObject().at("outcome").asString();
  // Quiet hours hold it at night: queued or held, never dropped.
  BOOST_TEST((outcome == "queued" || outcome == "held"), outcome);
  BOOST_TEST(site.entries("schedule.published").size() == 1u);
  BOOST_TEST(site.entries("receipt").size() >= 2u);  // the publication's and the text's
}

BOOST_AUTO_TEST_CASE(aCopyTheRulesDenyIsRefusedWithItsFindingsAndChangesNothing) {
  ScheduleSite site;
  // The demo week has people whose certifications have lapsed since: not overridable.
  ApiReply copied = site.post(kManagerToken, "/copy", "{\"version\":1,\"from\":\"2026-03-08\"}");
  BOOST_TEST_REQUIRE(copied.status == 422, copied.body);
  BOOST_TEST(copied.object().at("outcome").asString() == "denied");
  BOOST_TEST(!copied.object().at("newDenials").asArray().empty());
  BOOST_TEST(copied.object().at("draft").asObject().at("shifts").asArray().empty());
  ApiReply again =
      site.post(kManagerToken, "/copy",
                "{\"version\":1,\"from\":\"2026-03-08\",\"overrideReason\":\"we checked\"}");
  BOOST_TEST_REQUIRE(again.status == 422, again.body);
}

BOOST_AUTO_TEST_CASE(onlyOwnersAndManagersChangeTheWeekAndBadBodiesAreNamed) {
  ScheduleSite site;
  ApiReply lead = site.post(kStaffToken, "/edits", site.addBody(1, 1, "p-jamal"));
  BOOST_TEST(lead.status == 403);
  ApiReply noVersion = site.post(kManagerToken, "/edits", "{\"edit\":{\"kind\":\"delete\"}}");
  BOOST_TEST(noVersion.status == 400);
  BOOST_TEST(noVersion.error().find("version") != std::string::npos);
  ApiReply badKind =
      site.post(kManagerToken, "/edits", "{\"version\":1,\"edit\":{\"kind\":\"paint\"}}");
  BOOST_TEST(badKind.status == 400);
  BOOST_TEST(badKind.error().find("edit.kind") != std::string::npos);
  ApiReply badTime = site.post(
      kManagerToken, "/edits",
      "{\"version\":1,\"edit\":{\"kind\":\"add\",\"station\":\"line\",\"start\":\"tomorrow\","
      "\"end\":\"2026-01-01T10:00\"}}");
  BOOST_TEST(badTime.status == 400);
  BOOST_TEST(badTime.error().find("edit.start") != std::string::npos);
  ApiReply unknown = site.post(kManagerToken, "/edits",
                               "{\"version\":1,\"edit\":{\"kind\":\"delete\",\"shift\":\"s-9\"}}");
  BOOST_TEST(unknown.status == 404);
  ApiReply wrongDay =
      apiRequest(site.port(), "GET", "/v1/schedule/weeks/2026-03-09", kManagerToken);
  BOOST_TEST(wrongDay.status == 400);
  ApiReply notAWeek =
      apiRequest(site.port(), "GET", "/v1/schedule/weeks/2026-13-01", kManagerToken);
  BOOST_TEST(notAWeek.status == 404);
}

BOOST_AUTO_TEST_CASE(aTemplateIsSavedAndApplied) {
  ScheduleSite site;
  ApiReply added = site.post(kManagerToken, "/edits", site.addBody(1, 1, "p-jamal"));
  BOOST_TEST_REQUIRE(added.status == 200, added.body);
  ApiReply saved =
      apiRequest(site.port(), "POST", "/v1/schedule/templates", kManagerToken,
                 "{\"week\":\"" + week::formatWeek(site.week) + "\",\"name\":\"monday line\"}");
  BOOST_TEST_REQUIRE(saved.status == 200, saved.body);
  ApiReply listed = apiRequest(site.port(), "GET", "/v1/schedule/templates", kStaffToken);
  BOOST_TEST_REQUIRE(listed.status == 200, listed.body);
  BOOST_TEST(listed.object().at("templates").asArray().size() == 1u);
  const std::string next = "/v1/schedule/weeks/" + week::formatWeek(site.week + chr::days(7));
  ApiReply applied = apiRequest(site.port(), "POST", next + "/apply-template", kManagerToken,
                                "{\"version\":1,\"name\":\"monday line\"}");
  BOOST_TEST_REQUIRE(applied.status == 200, applied.body);
  BOOST_TEST(applied.object().at("draft").asObject().at("shifts").asArray().size() == 1u);
}

BOOST_AUTO_TEST_CASE(fillAndBuildMakeAVersionWithTheScoreAndWhyAndAreVersionChecked) {
  ScheduleSite site;
  ApiReply opened = apiRequest(site.port(), "GET", site.path, kManagerToken);
  BOOST_TEST_REQUIRE(opened.status == 200, opened.body);
  const std::string open =
      "{\"version\":1,\"edit\":{\"kind\":\"add\",\"station\":\"line\","
      "\"start\":\"" +
      site.at(1, 9) + "\",\"end\":\"" + site.at(1, 17) + "\"}}";
  ApiReply added = site.post(kManagerToken, "/edits", open);
  BOOST_TEST_REQUIRE(added.status == 200, added.body);

  ApiReply filled = site.post(kManagerToken, "/fill", "{\"version\":2,\"timeLimitSeconds\":1}");
  BOOST_TEST_REQUIRE(filled.status == 200, filled.body);
  BOOST_TEST(filled.object().at("outcome").asString() == "done");
  const json::Object& plan = filled.object().at("plan").asObject();
  BOOST_TEST(plan.at("mode").asString() == "fill");
  BOOST_TEST(plan.at("score").asObject().at("shortfallShifts").asInt() == 0);
  BOOST_TEST(plan.at("draftScore").asObject().at("shortfallShifts").asInt() == 1);
  BOOST_TEST_REQUIRE(plan.at("choices").asArray().size() == 1u);
  const json::Object& choice = plan.at("choices").asArray()[0].asObject();
  BOOST_TEST(choice.at("person").isString());
  BOOST_TEST(choice.at("why").asString().find("no premium") == 0u, choice.at("why").asString());
  const json::Object& draft = filled.object().at("draft").asObject();
  BOOST_TEST(draft.at("version").asInt() == 3);
  BOOST_TEST(draft.at("shifts").asArray()[0].asObject().at("assignee").isString());

  ApiReply built = site.post(kManagerToken, "/build",
                             "{\"version\":3,\"requirements\":[{\"station\":\"line\",\"day\":2,"
                             "\"start\":\"09:00\",\"end\":\"17:00\",\"heads\":1}]}");
  BOOST_TEST_REQUIRE(built.status == 200, built.body);
  BOOST_TEST(built.object().at("plan").asObject().at("added").asInt() == 1);
  BOOST_TEST(built.object().at("draft").asObject().at("version").asInt() == 4);
  BOOST_TEST(built.object().at("draft").asObject().at("shifts").asArray().size() == 2u);

  ApiReply stale = site.post(kOwnerToken, "/fill", "{\"version\":3}");
  BOOST_TEST_REQUIRE(stale.status == 409, stale.body);
  BOOST_TEST(stale.object().at("outcome").asString() == "stale");

  ApiReply misplaced = site.post(kManagerToken, "/fill", "{\"version\":4,\"requirements\":[]}");
  BOOST_TEST(misplaced.status == 400);
  ApiReply badTime = site.post(kManagerToken, "/build",
                               "{\"version\":4,\"requirements\":[{\"station\":\"line\",\"day\":1,"
                               "\"start\":\"9am\",\"end\":\"17:00\"}]}");
  BOOST_TEST_REQUIRE(badTime.status == 400, badTime.body);
  BOOST_TEST(badTime.error() == "requirements[0].start: not a time HH:MM");
  ApiReply staff = site.post(kStaffToken, "/fill", "{\"version\":4}");
  BOOST_TEST(staff.status == 403);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::test
