// HUMAN_ONLY packets and people's requests in the JSON API (daemon/api/packets_resource.h,
// domain/policy/action_requests.h, packet_book.h) in serve's wiring: seed 001 RISK-08 (the third
// ask within 30 days to cut one person's hours becomes a packet with the pattern named), HUMAN_ONLY
// and unknown kinds, closing a packet, who may do what, bad requests.
#include <boost/test/unit_test.hpp>

#include "daemon/service/api_subsystem.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "store/site_store.h"
#include "tests/api/served_api.h"
#include "tests/support/api_client.h"
#include "tests/support/audit_entries.h"

namespace atoms::test {
namespace {

using atoms::testing::ApiReply;
using atoms::testing::apiRequest;

struct PacketSite : RolesSite {
  ApiReply ask(const std::string& token, const std::string& body) {
    return apiRequest(port(), "POST", "/v1/requests", token, body);
  }
};

const std::string kCutHours =
    R"({"kind":"schedule.reduce_hours","subject":"p-jamal","reason":"slow week"})";

}  // namespace

BOOST_AUTO_TEST_SUITE(packets_api)

BOOST_AUTO_TEST_CASE(theThirdAskToCutOnePersonsHoursBecomesAPacketWithThePatternNamed) {
  PacketSite site;
  for (int i = 0; i < 2; ++i) {
    ApiReply first = site.ask(kOwnerToken, kCutHours);
    BOOST_TEST(first.status == 409, first.body);
    BOOST_TEST(first.object().at("outcome").asString() == "not_carried_out");
  }
  ApiReply third = site.ask(kOwnerToken, kCutHours);
  BOOST_TEST_REQUIRE(third.status == 202, third.body);
  BOOST_TEST(third.object().at("outcome").asString() == "human_packet");
  const json::Object& packet = third.object().at("packet").asObject();
  BOOST_TEST(packet.at("kind").asString() == "schedule.reduce_hours");
  BOOST_TEST(packet.at("subject").asString() == "p-jamal");
  BOOST_TEST(packet.at("state").asString() == "open");
  BOOST_TEST(packet.at("pattern").asString().find("2 earlier adverse actions against p-jamal") !=
                 std::string::npos,
             third.body);
  // On record: every ask, and the packet.
  BOOST_TEST(site.entries("request.decided").size() == 3u);
  const auto opened = site.entries("packet.opened");
  BOOST_TEST_REQUIRE(opened.size() == 1u);
  BOOST_TEST(opened[0].actor == "panel:p-marco");
  // Listed for the people who deal with it.
  ApiReply listed = apiRequest(site.port(), "GET", "/v1/packets", kManagerToken);
  BOOST_TEST_REQUIRE(listed.status == 200, listed.body);
  BOOST_TEST(listed.object().at("packets").asArray().size() == 1u);
  // Another person's hours are another count.
  ApiReply other = site.ask(
      kOwnerToken, R"({"kind":"schedule.reduce_hours","subject":"p-ana","reason":"slow week"})");
  BOOST_TEST(other.status == 409);
}

BOOST_AUTO_TEST_CASE(humanOnlyAndUnknownKindsArePacketsThatAPersonCloses) {
  PacketSite site;
  ApiReply discipline = site.ask(
      kManagerToken, R"({"kind":"discipline.record","subject":"p-jamal","reason":"late"})");
  BOOST_TEST_REQUIRE(discipline.status == 202, discipline.body);
  ApiReply unknown = site.ask(kManagerToken, R"({"kind":"shift.teleport","reason":"try it"})");
  BOOST_TEST_REQUIRE(unknown.status == 202, unknown.body);
  BOOST_TEST(unknown.object().at("packet").asObject().at("rule").asString().find("unknown") !=
             std::string::npos);
  const std::int64_t id = discipline.object().at("packet").asObject().at("id").asInt();
  const std::string close = "/v1/packets/" + std::to_string(id) + "/close";

  BOOST_TEST(apiRequest(site.port(), "POST", close, kStaffToken, R"({"note":"x"})").status == 403);
  BOOST_TEST(apiRequest(site.port(), "POST", close, kManagerToken, R"({"note":" "})").status ==
             400);
  ApiReply closed = apiRequest(site.port(), "POST", close, kManagerToken,
                               R"({"note":"talked with Jamal; nothing to record"})");
  BOOST_TEST_REQUIRE(closed.status == 200, closed.body);
  BOOST_TEST(closed.object().at("packet").asObject().at("state").asString() == "closed");
  BOOST_TEST(closed.object().at("packet").asObject().at("closedBy").asString() == "panel:p-gm");
  ApiReply again = apiRequest(site.port(), "POST", close, kManagerToken, R"({"note":"again"})");
  BOOST_TEST(again.status == 409);
  BOOST_TEST(again.error() == "packet " + std::to_string(id) + " was closed already");
  const auto closedEntries = site.entries("packet.closed");
  BOOST_TEST_REQUIRE(closedEntries.size() == 1u);
  BOOST_TEST(closedEntries[0].actor == "panel:p-gm");
  ApiReply one = apiRequest(site.port(), "GET", "/v1/packets/" + std::to_string(id), kStaffToken);
  BOOST_TEST(one.status == 200);
  BOOST_TEST(one.object().at("note").asString() == "talked with Jamal; nothing to record");
  BOOST_TEST(apiRequest(site.port(), "GET", "/v1/packets/99", kStaffToken).status == 404);
}

BOOST_AUTO_TEST_CASE(badRequestsChangeNothing) {
  PacketSite site;
  BOOST_TEST(site.ask(kStaffToken, kCutHours).status == 403);
  const std::pair<std::string, std::string> bad[] = {
      {R"({"kind":"schedule.reduce_hours","subject":"p-nobody","reason":"x"})",
       "subject: p-nobody is not a person of this site"},
      {R"({"kind":"schedule.reduce_hours","subject":"p-jamal"})",
       "reason: missing (say why, it goes on record)"},
      {R"({"kind":"Cut Hours!","reason":"x"})", "kind: expected an action kind like shift.cancel"},
      {R"({"reason":"x"})", "kind: missing"},
      {R"({"kind":"shift.cancel","reason":"x","now":"yes"})", "unknown field 'now'"},
  };
  for (const auto& [body, error] : bad) {
    ApiReply reply = site.ask(kOwnerToken, body);
    BOOST_TEST(reply.status == 400, body);
    BOOST_TEST(reply.error() == error, body);
  }
  BOOST_TEST(site.entries("request.decided").empty());
  BOOST_TEST(site.entries("packet.opened").empty());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::test
