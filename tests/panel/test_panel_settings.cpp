// The Settings page's resource served by the panel (GET /api/v1/settings,
// daemon/api/settings_resource.h) through serve's wiring with the API port on: the SMS driver,
// sync, the API tokens file's people (never a token or a hash) and the panel accounts with their
// roles; for owners and managers, not for a lead.
#include <sys/stat.h>

#include <boost/test/unit_test.hpp>
#include <fstream>
#include <map>
#include <string>

#include "base/canonical_json.h"
#include "drivers/http/bearer_tokens.h"
#include "tests/panel/panel_box.h"

namespace atoms::test {
namespace {

BOOST_AUTO_TEST_SUITE(panel_settings)

BOOST_AUTO_TEST_CASE(anOwnerSeesTheConnectionsTokensPeopleAndAccountsButNoSecret) {
  atoms::testing::TempDir files;
  const std::string tokens = files.file("api-tokens");
  const std::string hash = drivers::BearerTokens::hashHex("a-secret-token");
  {
    std::ofstream out(tokens);
    out << "p-maya " << hash << "\n";
  }
  BOOST_TEST_REQUIRE(::chmod(tokens.c_str(), 0600) == 0);
  PanelBox box(std::map<std::string, std::string>{
      {"sms.driver", "simulated"}, {"api.listen", "127.0.0.1:0"}, {"api.tokens_file", tokens}});
  const PanelSignIn olga = box.signIn("p-olga");
  (void)box.signIn("p-leo");
  const PanelReply reply = box.call("GET", "/api/v1/settings", olga);
  const json::Value page = box.okJson(reply);
  const json::Object& s = page.asObject();
  BOOST_TEST(s.at("sms").asObject().at("driver").asString() == "simulated");
  BOOST_TEST(!s.at("sync").asObject().at("brokerConfigured").asBool());
  BOOST_TEST(!s.at("terminals").asObject().at("on").asBool());
  const json::Object& api = s.at("apiTokens").asObject();
  BOOST_TEST(api.at("on").asBool());
  BOOST_TEST_REQUIRE(api.at("people").asArray().size() == 1u);
  BOOST_TEST(api.at("people").asArray()[0].asObject().at("name").asString() == "Maya Ortiz");
  BOOST_TEST(reply.body.find(hash) == std::string::npos, reply.body);
  BOOST_TEST(reply.body.find("a-secret-token") == std::string::npos, reply.body);
  const json::Array& accounts = s.at("panelAccounts").asArray();
  BOOST_TEST_REQUIRE(accounts.size() == 2u);
  std::map<std::string, std::string> roles;
  for (const json::Value& a : accounts) {
    const json::Object& o = a.asObject();
    roles[o.at("person").asObject().at("id").asString()] = o.at("role").asString();
    BOOST_TEST(o.at("state").asString() == "active");
    BOOST_TEST(!o.at("lastSignInAt").isNull());
  }
  BOOST_TEST(roles["p-olga"] == "owner");
  BOOST_TEST(roles["p-leo"] == "lead");
}

BOOST_AUTO_TEST_CASE(aLeadIsToldTheSettingsAreForOwnersAndManagers) {
  PanelBox box;
  const PanelReply refused = box.call("GET", "/api/v1/settings", box.signIn("p-leo"));
  BOOST_TEST(refused.status == 403, refused.body);
  BOOST_TEST(refused.body.find("owners and managers") != std::string::npos, refused.body);
  const json::Value forMaya = box.okJson(box.call("GET", "/api/v1/settings", box.signIn("p-maya")));
  BOOST_TEST(forMaya.asObject().at("sms").asObject().at("driver").asString() == "off");
  BOOST_TEST(!forMaya.asObject().at("apiTokens").asObject().at("on").asBool());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::test
