// The box's JSON API resources served by the panel under /api/v1/ (daemon/panel/panel_api.h),
// through serve's wiring: the same router and resources as the API port, for whoever is signed
// in, with CSRF on every state change and each resource's own checks of who may do what.
#include <Poco/Net/HTTPSClientSession.h>

#include <boost/test/unit_test.hpp>
#include <string>

#include "base/canonical_json.h"
#include "base/writer_call.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "domain/callout/callout_store.h"
#include "store/site_store.h"
#include "tests/panel/panel_box.h"

namespace atoms::test {
namespace {

std::string field(const json::Value& v, const std::string& name) {
  return v.asObject().at(name).asString();
}

// Carl's shift tonight, reported by Leo: a call-out with one offer to Maya and its receipt.
std::int64_t openCarlsCallout(PanelBox& box) {
  auto opened = callOnWriter(box.services->engine().engine(), [&]() -> Result<std::int64_t> {
    SiteStore& store = box.services->store().store();
    const TimePoint now = box.clock.now();
    if (Status s = store.db().exec(
            "INSERT INTO site_shift(id, position, station_id, start_utc, start_local, end_utc,"
            " end_local, assignee_id) VALUES('s-carl', 0, 'line', " +
            std::to_string(std::chrono::duration_cast<std::chrono::seconds>(
                               now.time_since_epoch() + std::chrono::minutes(30))
                               .count()) +
            ", 0, " +
            std::to_string(std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch() +
                                                                            std::chrono::hours(6))
                               .count()) +
            ", 0, 'p-carl')");
        !s) {
      return s.error();
    }
    callout::CalloutStore rows(store.db());
    callout::CalloutRow c;
    c.shiftId = "s-carl";
    c.stationId = "line";
    c.absentId = "p-carl";
    c.reporterId = "p-leo";
    c.openedAt = now;
    c.shiftStart = now + std::chrono::minutes(30);
    c.shiftEnd = now + std::chrono::hours(6);
    c.waves = 1;
    auto id = rows.insertCallout(c);
    if (!id) return id.error();
    callout::OfferRow o;
    o.calloutId = *id;
    o.personId = "p-maya";
    o.phone = "+14155550102";
    o.code = "K7";
    o.wave = 1;
    o.rank = 1;
    o.offeredAt = now;
    if (auto offer = rows.insertOffer(o); !offer) return offer.error();
    auto seq = store.log().append(
        "2026-01-01T00:00:00.000Z", "receipt", "engine",
        json::Object{
            {"action", "callout.offer"},
            {"outcome", "offered"},
            {"rationale", "First offers"},
            {"notOffered", json::Array{json::Object{{"person", "p-olga"}, {"reason", "denied"}}}}});
    if (!seq) return seq.error();
    if (Status s = rows.fileReceipt(*id, *seq); !s) return s.error();
    return *id;
  });
  BOOST_TEST_REQUIRE(opened.has_value());
  BOOST_TEST_REQUIRE(opened->ok(), opened->message());
  return **opened;
}

BOOST_AUTO_TEST_SUITE(panel_resources)

BOOST_AUTO_TEST_CASE(todayShowsTheFloorTheOpenCallOutWithItsOffersAndTheSwitches) {
  PanelBox box;
  const std::int64_t id = openCarlsCallout(box);
  const PanelSignIn leo = box.signIn("p-leo");
  const json::Value today = box.okJson(box.call("GET", "/api/v1/today", leo));
  const json::Object& t = today.asObject();
  BOOST_TEST(field(t.at("site"), "name") == "Bistro Served");
  const json::Array& floor = t.at("floor").asArray();
  BOOST_TEST_REQUIRE(floor.size() == 1u);
  BOOST_TEST(field(floor[0], "state") == "upcoming");
  BOOST_TEST(field(floor[0].asObject().at("person"), "name") == "Carl Diaz");
  const json::Array& callouts = t.at("callouts").asArray();
  BOOST_TEST_REQUIRE(callouts.size() == 1u);
  BOOST_TEST(callouts[0].asObject().at("id").asInt() == id);
  const json::Array& offers = callouts[0].asObject().at("offers").asArray();
  BOOST_TEST_REQUIRE(offers.size() == 1u);
  BOOST_TEST(field(offers[0].asObject().at("person"), "name") == "Maya Ortiz");
  BOOST_TEST(field(offers[0], "state") == "open");
  BOOST_TEST(field(t.at("killSwitch"), "level") == "L0");
  BOOST_TEST(t.at("approvals").asObject().at("pending").asInt() == 0);
  BOOST_TEST(t.at("sync").asObject().at("backlog").asInt() > 0);
  BOOST_TEST(!t.at("sync").asObject().at("configured").asBool());  // no sync.broker here

  // An hour later with no clock-in Carl's shift shows missing.
  box.clock.advance(std::chrono::hours(1));
  const json::Value later = box.okJson(box.call("GET", "/api/v1/today", box.signIn("p-leo")));
  BOOST_TEST(field(later.asObject().at("floor").asArray()[0], "state") == "missing");
}

BOOST_AUTO_TEST_CASE(todayKeepsACoveredCallOutWithItsCoverUntilTheShiftEnds) {
  PanelBox box;
  const std::int64_t id = openCarlsCallout(box);
  auto covered = callOnWriter(box.services->engine().engine(), [&]() -> Status {
    callout::CalloutStore rows(box.services->store().store().db());
    auto c = rows.callout(id);
    if (!c) return c.error();
    (*c)->state = callout::CalloutState::kCovered;
    (*c)->coveredBy = "p-maya";
    (*c)->closedAt = box.clock.now();
    (*c)->nextWaveAt.reset();
    (*c)->escalateAt.reset();
    return rows.updateCallout(**c);
  });
  BOOST_TEST_REQUIRE(covered.has_value());
  BOOST_TEST_REQUIRE(covered->ok(), covered->message());
  const json::Value today = box.okJson(box.call("GET", "/api/v1/today", box.signIn("p-leo")));
  const json::Array& callouts = today.asObject().at("callouts").asArray();
  BOOST_TEST_REQUIRE(callouts.size() == 1u);
  BOOST_TEST(field(callouts[0], "state") == "covered");
  BOOST_TEST(field(callouts[0].asObject().at("coveredBy"), "name") == "Maya Ortiz");

  // Once the shift has ended it leaves Today (the Call-outs page keeps it).
  box.clock.advance(std::chrono::hours(7));
  const json::Value later = box.okJson(box.call("GET", "/api/v1/today", box.signIn("p-leo")));
  BOOST_TEST(later.asObject().at("callouts").asArray().empty());
}

BOOST_AUTO_TEST_CASE(aCallOutsReceiptsAreForItsManagersNotForALead) {
  PanelBox box;
  const std::int64_t id = openCarlsCallout(box);
  const std::string path = "/api/v1/callouts/" + std::to_string(id);
  const json::Value list = box.okJson(box.call("GET", "/api/v1/callouts", box.signIn("p-leo")));
  BOOST_TEST(list.asObject().at("open").asArray().size() == 1u);
  const json::Value forLead = box.okJson(box.call("GET", path, box.signIn("p-leo")));
  BOOST_TEST(forLead.asObject().at("receipts").isNull());
  const json::Value forMaya = box.okJson(box.call("GET", path, box.signIn("p-maya")));
  const json::Array& receipts = forMaya.asObject().at("receipts").asArray();
  BOOST_TEST_REQUIRE(receipts.size() == 1u);
  BOOST_TEST(field(receipts[0], "outcome") == "offered");
  const json::Array& notOffered = receipts[0].asObject().at("notOffered").asArray();
  BOOST_TEST_REQUIRE(notOffered.size() == 1u);
  BOOST_TEST(field(notOffered[0].asObject().at("person"), "name") == "Olga Berg");
  BOOST_TEST(field(notOffered[0], "reason") == "denied");
  BOOST_TEST(box.call("GET", "/api/v1/callouts/999", box.signIn("p-maya")).status == 404);
}

BOOST_AUTO_TEST_CASE(aSignedInOwnerReadsAndRaisesTheKillSwitchWithTheCsrfToken) {
  PanelBox box;
  const PanelSignIn olga = box.signIn("p-olga");
  const json::Value now = box.okJson(box.call("GET", "/api/v1/killswitch", olga));
  BOOST_TEST(field(now, "level") == "L0");

  const std::string raise =
      json::canonical(json::Object{{"level", "L1"}, {"reason", "texts paused while we sort it"}});
  // Without the token (a forged cross-site request) nothing changes.
  const PanelReply forged = box.call("POST", "/api/v1/killswitch", olga, raise, false);
  BOOST_TEST(forged.status == 403, forged.body);
  BOOST_TEST(field(box.okJson(box.call("GET", "/api/v1/killswitch", olga)), "level") == "L0");

  const json::Value changed = box.okJson(box.call("POST", "/api/v1/killswitch", olga, raise));
  BOOST_TEST(field(changed, "outcome") == "changed");
  BOOST_TEST(field(box.okJson(box.call("GET", "/api/v1/killswitch", olga)), "level") == "L1");
  const std::string set = box.entriesOf("killswitch.set");
  BOOST_TEST(set.find("panel:p-olga") != std::string::npos, set);
}

BOOST_AUTO_TEST_CASE(aLeadCannotStopTheSiteButReadsTheBoard) {
  PanelBox box;
  const PanelSignIn leo = box.signIn("p-leo");
  const std::string stop =
      json::canonical(json::Object{{"level", "L2"}, {"reason", "I want to stop everything"}});
  const PanelReply refused = box.call("POST", "/api/v1/killswitch", leo, stop);
  BOOST_TEST(refused.status == 403, refused.body);
  BOOST_TEST(refused.body.find("owner") != std::string::npos, refused.body);
  BOOST_TEST(box.entriesOf("killswitch.refused").find("p-leo") != std::string::npos);
  const PanelSignIn olga = box.signIn("p-olga");
  BOOST_TEST(field(box.okJson(box.call("GET", "/api/v1/killswitch", olga)), "level") == "L0");
  // Reading the board is for every panel role.
  BOOST_TEST(box.call("GET", "/api/v1/breakers", leo).status == 200);
}

BOOST_AUTO_TEST_CASE(withoutASessionNothingIsServedAndUnknownPathsAreNamed) {
  PanelBox box;
  const PanelSignIn nobody{"__Host-atoms-session=not-a-session", ""};
  BOOST_TEST(box.call("GET", "/api/v1/killswitch", nobody).status == 401);
  const PanelSignIn maya = box.signIn("p-maya");
  const PanelReply unknown = box.call("GET", "/api/v1/nothing-here", maya);
  BOOST_TEST(unknown.status == 404);
  const PanelReply wrongMethod = box.call("DELETE", "/api/v1/killswitch", maya);
  BOOST_TEST(wrongMethod.status == 405);
  BOOST_TEST(wrongMethod.headers.get("Allow", "") == "GET, POST");
  const PanelReply query = box.call("GET", "/api/v1/killswitch?x=1", maya);
  BOOST_TEST(query.status == 400, query.body);
  // Refusals are audited as the API port's are, saying they came through the panel.
  const std::string refused = box.entriesOf("api.refused");
  BOOST_TEST(refused.find("\"via\":\"panel\"") != std::string::npos, refused);
}

BOOST_AUTO_TEST_CASE(anOwnerBrowsesTheAuditLogAndChecksItFromThePanel) {
  PanelBox box;
  const PanelSignIn olga = box.signIn("p-olga");
  const json::Value summary = box.okJson(box.call("GET", "/api/v1/audit", olga));
  const json::Object& s = summary.asObject();
  const std::int64_t size = s.at("size").asInt();
  BOOST_TEST(size > 0);
  BOOST_TEST(s.at("checkpoint").asString().find(field(summary, "origin")) == 0u);
  BOOST_TEST(!field(summary, "verifierKey").empty());

  const json::Value page = box.okJson(box.call("GET", "/api/v1/audit/entries", olga));
  const json::Array& entries = page.asObject().at("entries").asArray();
  BOOST_TEST_REQUIRE(!entries.empty());
  BOOST_TEST(entries.front().asObject().at("seq").asInt() >= size - 1);  // newest first
  const json::Value older = box.okJson(box.call("GET", "/api/v1/audit/entries?before=2", olga));
  BOOST_TEST(older.asObject().at("entries").asArray().size() == 2u);
  BOOST_TEST(older.asObject().at("next").isNull());
  BOOST_TEST(box.call("GET", "/api/v1/audit/entries?before=x", olga).status == 400);

  const json::Value checked = box.okJson(box.call("POST", "/api/v1/audit/verify", olga, "{}"));
  BOOST_TEST(checked.asObject().at("ok").asBool(), box.call("GET", "/api/v1/audit", olga).body);
  BOOST_TEST(checked.asObject().at("entries").asInt() >= size);
  BOOST_TEST(field(checked, "verifierKey") == field(summary, "verifierKey"));

  const std::int64_t signedSize =
      box.okJson(box.call("GET", "/api/v1/audit", olga)).asObject().at("signedSize").asInt();
  const json::Value segments = box.okJson(
      box.call("GET", "/api/v1/audit/segments?from=0&to=" + std::to_string(signedSize), olga));
  BOOST_TEST(!segments.asObject().at("segments").asArray().empty());
  BOOST_TEST(box.call("GET", "/api/v1/audit/segments?from=0&to=999999", olga).status == 400);
}

BOOST_AUTO_TEST_CASE(theAuditLogIsNotForALead) {
  PanelBox box;
  const PanelSignIn leo = box.signIn("p-leo");
  BOOST_TEST(box.call("GET", "/api/v1/audit", leo).status == 403);
  BOOST_TEST(box.call("POST", "/api/v1/audit/verify", leo, "{}").status == 403);
}

BOOST_AUTO_TEST_CASE(anOpenPageHearsOfAChangeWithoutAsking) {
  PanelBox box;
  const PanelSignIn maya = box.signIn("p-maya");
  Poco::Net::HTTPSClientSession stream("127.0.0.1", box.port, trustingOnly(box.cert));
  stream.setTimeout(Poco::Timespan(10, 0));
  Poco::Net::HTTPRequest request("GET", "/api/events", Poco::Net::HTTPMessage::HTTP_1_1);
  request.set("Cookie", maya.cookie);
  stream.sendRequest(request);
  Poco::Net::HTTPResponse response;
  std::istream& events = stream.receiveResponse(response);
  BOOST_TEST_REQUIRE(response.getStatus() == 200);
  BOOST_TEST(response.getContentType().find("text/event-stream") == 0u);

  // Maya freezes outreach from another page: this one hears that the log moved.
  const std::string freeze =
      json::canonical(json::Object{{"level", "L1"}, {"reason", "sorting the schedule out"}});
  BOOST_TEST(box.call("POST", "/api/v1/killswitch", maya, freeze).status == 200);
  std::string line;
  std::string seen;
  while (std::getline(events, line)) {
    seen += line + "\n";
    if (line == "event: change") break;
  }
  BOOST_TEST(line == "event: change", seen);
  std::getline(events, line);
  BOOST_TEST(line.find("data: {\"size\":") == 0u, line);

  // Without a session there is no stream.
  const PanelSignIn nobody{"__Host-atoms-session=none", ""};
  BOOST_TEST(box.call("GET", "/api/events", nobody).status == 401);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::test
