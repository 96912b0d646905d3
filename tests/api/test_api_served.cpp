// The approvals API in the whole service wiring (daemon/service/edge_services.h): with SMS on and a
// site in the store, the API answers from the call-out desk behind the SMS conversation; with
// SMS off there is no desk and it answers 503.
#include <boost/test/unit_test.hpp>

#include "daemon/service/api_subsystem.h"
#include "tests/api/served_api.h"
#include "tests/support/api_client.h"

namespace atoms::test {
namespace {

using atoms::testing::apiRequest;

const std::string kGmToken = "gm-token-7d3e9a1f5c2b8e40";

}  // namespace

BOOST_AUTO_TEST_SUITE(api_served)

BOOST_AUTO_TEST_CASE(serveAnswersFromTheCalloutDeskBehindSms) {
  ServedApi served("simulated", {{"p-gm", kGmToken}});
  const std::uint16_t port = served.services->api().port();
  BOOST_REQUIRE(port != 0);
  auto listed = apiRequest(port, "GET", "/v1/approvals", kGmToken);
  BOOST_TEST_REQUIRE(listed.status == 200, listed.body);
  BOOST_TEST(listed.object().at("approvals").asArray().empty());
  auto missing =
      apiRequest(port, "POST", "/v1/approvals/1/decision", kGmToken, R"({"decision":"approve"})");
  BOOST_TEST(missing.status == 404);
  BOOST_TEST(missing.error() == "no approval 1");
}

BOOST_AUTO_TEST_CASE(withSmsOffThereIsNoDeskAndTheApiSays503) {
  ServedApi served("off", {{"p-gm", kGmToken}});
  auto listed = apiRequest(served.services->api().port(), "GET", "/v1/approvals", kGmToken);
  BOOST_TEST(listed.status == 503);
  BOOST_TEST(listed.error() == "approvals are not available: call-outs are off on this box");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::test
