// The approvals API in the whole service wiring (daemon/service/edge_services.h): with SMS on and a
// site in the store, the API answers from the call-out desk behind the SMS conversation; with
// SMS off there is no desk and it answers 503.
#include <sys/stat.h>

#include <boost/test/unit_test.hpp>
#include <map>

#include "daemon/engine/clock.h"
#include "daemon/service/api_subsystem.h"
#include "daemon/service/edge_services.h"
#include "daemon/site/site_file.h"
#include "daemon/site/site_repository.h"
#include "drivers/http/bearer_tokens.h"
#include "store/site_store.h"
#include "store/state_dir.h"
#include "tests/site/site_test_util.h"
#include "tests/support/api_client.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_app.h"

namespace atoms::test {
namespace {

using atoms::testing::apiRequest;

const std::string kToken = "gm-token-7d3e9a1f5c2b8e40";

// A state directory with the demo site, and the API's tokens file (a token for p-gm).
struct ServedApi {
  explicit ServedApi(const std::string& smsDriver) : stateDir(tmp.file("state")) {
    Status s = initStateDir(stateDir, InitOptions{"site-api-served"});
    BOOST_REQUIRE_MESSAGE(s.ok(), s.message());
    auto model = site::parseSiteFile(site::testing::readText(site::testing::demoSitePath()));
    BOOST_REQUIRE_MESSAGE(model, model.message());
    {
      auto store = SiteStore::open(stateDir);
      BOOST_REQUIRE_MESSAGE(store, store.message());
      Status imported = site::importSite((*store)->db(), *model);
      BOOST_REQUIRE_MESSAGE(imported.ok(), imported.message());
    }
    const std::string tokens =
        tmp.write("api-tokens", "p-gm " + drivers::BearerTokens::hashHex(kToken) + "\n");
    BOOST_REQUIRE(::chmod(tokens.c_str(), 0600) == 0);
    app = std::make_unique<TestApp>(std::map<std::string, std::string>{
        {"state.dir", stateDir},
        {"sms.driver", smsDriver},
        {"labor.rules_dir", std::string(ATOMS_SOURCE_DIR) + "/etc/labor"},
        {"api.listen", "127.0.0.1:0"},
        {"api.tokens_file", tokens}});
    services = std::make_unique<EdgeServices>(*app, clock);
    Status started = services->start();
    BOOST_REQUIRE_MESSAGE(started.ok(), services->failedService() << ": " << started.message());
  }
  ~ServedApi() { services->stop(); }

  atoms::testing::TempDir tmp;
  std::string stateDir;
  SystemClock clock;
  std::unique_ptr<TestApp> app;
  std::unique_ptr<EdgeServices> services;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(api_served)

BOOST_AUTO_TEST_CASE(serveAnswersFromTheCalloutDeskBehindSms) {
  ServedApi served("simulated");
  const std::uint16_t port = served.services->api().port();
  BOOST_REQUIRE(port != 0);
  auto listed = apiRequest(port, "GET", "/v1/approvals", kToken);
  BOOST_TEST_REQUIRE(listed.status == 200, listed.body);
  BOOST_TEST(listed.object().at("approvals").asArray().empty());
  auto missing =
      apiRequest(port, "POST", "/v1/approvals/1/decision", kToken, R"({"decision":"approve"})");
  BOOST_TEST(missing.status == 404);
  BOOST_TEST(missing.error() == "no approval 1");
}

BOOST_AUTO_TEST_CASE(withSmsOffThereIsNoDeskAndTheApiSays503) {
  ServedApi served("off");
  auto listed = apiRequest(served.services->api().port(), "GET", "/v1/approvals", kToken);
  BOOST_TEST(listed.status == 503);
  BOOST_TEST(listed.error() == "approvals are not available: call-outs are off on this box");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::test
