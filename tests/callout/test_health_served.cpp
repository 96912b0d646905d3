#include <boost/test/unit_test.hpp>
// GET /healthz and /readyz on every HTTP listener of the service, through serve's wiring (the
// issue "Call-outs and texts", defect 8; docs/api.md "Health checks"): no token, no audit entry,
// and /readyz says what is wrong.
#include <cstdint>
#include <string>

#include "tests/callout/callout_fixture.h"
#include "tests/callout/served_site.h"
#include "tests/support/api_client.h"

using namespace atoms;
using namespace atoms::callout::testing;
using atoms::testing::apiRequest;

namespace {

std::string healthCheck(const atoms::testing::ApiReply& reply, const std::string& name) {
  const json::Object& checks = reply.object().at("checks").asObject();
  auto found = checks.find(name);
  return found == checks.end() ? "(absent)" : found->second.asString();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(health_served)

BOOST_FIXTURE_TEST_CASE(everyListenerAnswersHealthChecksAndAuditsNone, ServedSite) {
  addTimeClock();
  addApi({{"p-kwame", kKwameToken}});
  const std::uint64_t logged = auditSize();
  for (std::uint16_t port : {webhookPort(), apiPort(), terminalPort()}) {
    const std::string where = "port " + std::to_string(port);
    const auto alive = apiRequest(port, "GET", "/healthz", std::nullopt);
    BOOST_TEST(alive.status == 200, where);
    BOOST_TEST(alive.body == "{\"status\":\"ok\"}\n", where);
    const auto ready = apiRequest(port, "GET", "/readyz?verbose=1", std::nullopt);
    BOOST_TEST_REQUIRE(ready.status == 200, where + ": " + ready.body);
    BOOST_TEST(ready.object().at("status").asString() == "ready");
    for (const char* name : {"service", "engine", "store", "connections"}) {
      BOOST_TEST(healthCheck(ready, name) == "ok", where + " " + name);
    }
    const auto head = apiRequest(port, "HEAD", "/readyz", std::nullopt);
    BOOST_TEST(head.status == 200, where);
    BOOST_TEST(head.body.empty(), where);
  }
  // A monitor pointed at the webhook path itself: answered, and no longer audited each time.
  BOOST_TEST(apiRequest(webhookPort(), "GET", "/sms/inbound", std::nullopt).status == 405);
  BOOST_TEST(apiRequest(webhookPort(), "GET", "/", std::nullopt).status == 404);
  BOOST_TEST(auditSize() == logged);
  BOOST_TEST(entries("sms.webhook.refused").empty());
  // Everything else on the listeners is as before: the API still wants its token.
  BOOST_TEST(apiRequest(apiPort(), "GET", "/v1/approvals", std::nullopt).status == 401);
}

BOOST_FIXTURE_TEST_CASE(readyzNamesAnOpenConnectionBreakerAndRecovers, ServedSite) {
  provider.failNext(drivers::twilio::FakeFailure{401, 20003, "Authenticate"});
  text(kRosa, "Jamal didn't show, I'm alone on the line");  // the provider refuses our key
  const auto ready = apiRequest(webhookPort(), "GET", "/readyz", std::nullopt);
  BOOST_TEST_REQUIRE(ready.status == 503, ready.body);
  BOOST_TEST(ready.object().at("status").asString() == "not ready");
  BOOST_TEST(healthCheck(ready, "connections").find("BRK-CONN-twilio is open (") == 0,
             healthCheck(ready, "connections"));
  BOOST_TEST(healthCheck(ready, "store") == "ok");
  BOOST_TEST(healthCheck(ready, "engine") == "ok");
}

BOOST_AUTO_TEST_SUITE_END()
