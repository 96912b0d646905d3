// The box's JSON API resources served by the panel under /api/v1/ (daemon/panel/panel_api.h),
// through serve's wiring: the same router and resources as the API port, for whoever is signed
// in, with CSRF on every state change and each resource's own checks of who may do what.
#include <boost/test/unit_test.hpp>
#include <string>

#include "base/canonical_json.h"
#include "tests/panel/panel_box.h"

namespace atoms::test {
namespace {

std::string field(const json::Value& v, const std::string& name) {
  return v.asObject().at(name).asString();
}

BOOST_AUTO_TEST_SUITE(panel_resources)

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

BOOST_AUTO_TEST_CASE(aLeadCannotStopTheSiteNorReadTheAuditLog) {
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

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::test
