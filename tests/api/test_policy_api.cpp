// The owner's controls in the JSON API (daemon/api/policy_resource.h) in serve's wiring: the trust
// budgets and breakers read by anyone of the site; a regression and an advance by an owner only,
// with the policy service's own checks and audit; a breaker ack by an owner or a manager of record.
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

struct OwnerSite : RolesSite {
  ApiReply get(const std::string& path, const std::string& token) {
    return apiRequest(port(), "GET", path, token);
  }
  ApiReply post(const std::string& path, const std::string& token, const std::string& body) {
    return apiRequest(port(), "POST", path, token, body);
  }
  // The function's row of GET /v1/trust.
  json::Object function(const std::string& name) {
    ApiReply got = get("/v1/trust", kStaffToken);
    BOOST_TEST_REQUIRE(got.status == 200, got.body);
    for (const json::Value& f : got.object().at("functions").asArray()) {
      if (f.asObject().at("function").asString() == name) return f.asObject();
    }
    BOOST_FAIL("no function " + name);
    return {};
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(policy_api)

BOOST_AUTO_TEST_CASE(anOwnerNarrowsAFunctionAndNobodyElseCan) {
  OwnerSite site;
  BOOST_TEST(site.function("staffing_scheduling").at("effective").asString() == "PROPOSE");
  const std::string path = "/v1/trust/staffing_scheduling/regress";
  const std::string body = R"({"to":"SHADOW","reason":"new menu week: record only"})";
  ApiReply manager = site.post(path, kManagerToken, body);
  BOOST_TEST(manager.status == 403);
  BOOST_TEST(manager.error() == "only an owner of the site changes how far the box acts alone");
  BOOST_TEST(site.function("staffing_scheduling").at("effective").asString() == "PROPOSE");

  ApiReply owner = site.post(path, kOwnerToken, body);
  BOOST_TEST_REQUIRE(owner.status == 200, owner.body);
  BOOST_TEST(owner.object().at("outcome").asString() == "changed");
  BOOST_TEST(owner.object().at("message").asString().find("SHADOW") != std::string::npos,
             owner.body);
  BOOST_TEST(site.function("staffing_scheduling").at("effective").asString() == "SHADOW");
  bool audited = false;
  for (const Entry& e : site.entries("graduation.changed")) {
    audited = audited || e.actor == "panel:p-marco";
  }
  BOOST_TEST(audited);
}

BOOST_AUTO_TEST_CASE(anAdvanceWithoutTheEvidenceIsRefusedAndAudited) {
  OwnerSite site;
  ApiReply advance = site.post("/v1/trust/staffing_scheduling/advance", kOwnerToken, "{}");
  BOOST_TEST(advance.status == 409, advance.body);
  BOOST_TEST(!advance.error().empty());
  BOOST_TEST(site.function("staffing_scheduling").at("effective").asString() == "PROPOSE");
  BOOST_TEST(!site.entries("graduation.refused").empty());
  BOOST_TEST(site.post("/v1/trust/no_such_function/advance", kOwnerToken, "").status == 409);
}

BOOST_AUTO_TEST_CASE(breakersAreListedAndOnlyAHalfOpenOneCanBeClosed) {
  OwnerSite site;
  ApiReply listed = site.get("/v1/breakers", kStaffToken);
  BOOST_TEST_REQUIRE(listed.status == 200, listed.body);
  bool out = false;
  for (const json::Value& b : listed.object().at("breakers").asArray()) {
    if (b.asObject().at("id").asString() != "BRK-OUT") continue;
    out = true;
    BOOST_TEST(b.asObject().at("state").asString() == "closed");
  }
  BOOST_TEST(out);
  BOOST_TEST(site.post("/v1/breakers/BRK-OUT/ack", kStaffToken, "{}").status == 403);
  ApiReply closedAlready = site.post("/v1/breakers/BRK-OUT/ack", kManagerToken, "{}");
  BOOST_TEST(closedAlready.status == 409, closedAlready.body);
  BOOST_TEST(!site.entries("breaker.ack_refused").empty());
}

BOOST_AUTO_TEST_CASE(badRequestsChangeNothing) {
  OwnerSite site;
  const std::uint16_t port = site.port();
  BOOST_TEST(apiRequest(port, "GET", "/v1/trust", std::nullopt).status == 401);
  BOOST_TEST(apiRequest(port, "POST", "/v1/trust", kOwnerToken, "{}").status == 405);
  BOOST_TEST(apiRequest(port, "GET", "/v1/trust/staffing_scheduling/advance", kOwnerToken).status ==
             405);
  BOOST_TEST(apiRequest(port, "GET", "/v1/trust/staffing_scheduling/promote", kOwnerToken).status ==
             404);
  BOOST_TEST(apiRequest(port, "GET", "/v1/breakers/BRK-OUT", kOwnerToken).status == 404);
  const std::pair<std::string, std::string> bad[] = {
      {R"({"to":"AUTONOMOUS","reason":"x"})", "to: expected SHADOW or PROPOSE"},
      {R"({"to":"SHADOW"})", "reason: missing (say why, it goes on record)"},
      {R"({"reason":"x"})", "to: missing"},
      {R"({"to":"SHADOW","reason":"x","by":"me"})", "unknown field 'by'"},
  };
  for (const auto& [body, error] : bad) {
    ApiReply reply = site.post("/v1/trust/staffing_scheduling/regress", kOwnerToken, body);
    BOOST_TEST(reply.status == 400, body);
    BOOST_TEST(reply.error() == error, body);
  }
  ApiReply advance = site.post("/v1/trust/staffing_scheduling/advance", kOwnerToken, R"({"x":1})");
  BOOST_TEST(advance.status == 400);
  BOOST_TEST(advance.error() == "unknown field 'x'");
  BOOST_TEST(site.function("staffing_scheduling").at("effective").asString() == "PROPOSE");
}

// An incident (SEV) against one function: an owner records and closes it; nobody else can; a bad
// level or id changes nothing; an unknown or closed incident is the policy's refusal (409).
BOOST_AUTO_TEST_CASE(anOwnerRecordsAndClosesAnIncidentAndNobodyElseCan) {
  OwnerSite site;
  const std::string path = "/v1/trust/staffing_scheduling/incident";
  ApiReply manager = site.post(path, kManagerToken, R"({"id":"inc-7","level":3})");
  BOOST_TEST(manager.status == 403);
  const std::pair<std::string, std::string> bad[] = {
      {R"({"id":"inc-7","level":5})", "level: expected a SEV level, 1 to 4"},
      {R"({"id":"inc-7","level":"2"})", "level: expected a SEV level, 1 to 4"},
      {R"({"id":"inc 7","level":2})", "id: expected 1 to 64 letters, digits, '_' or '-'"},
      {R"({"level":2})", "id: missing"},
      {R"({"id":"inc-7"})", "level: missing"},
      {R"({"id":"inc-7","level":2,"by":"me"})", "unknown field 'by'"},
  };
  for (const auto& [body, error] : bad) {
    ApiReply reply = site.post(path, kOwnerToken, body);
    BOOST_TEST(reply.status == 400, body);
    BOOST_TEST(reply.error() == error, body);
  }
  BOOST_TEST(site.function("staffing_scheduling").at("trust").asString() == "20");
  BOOST_TEST(site.entries("trust.sev").empty());

  ApiReply owner = site.post(path, kOwnerToken, R"({"id":"inc-7","level":3})");
  BOOST_TEST_REQUIRE(owner.status == 200, owner.body);
  BOOST_TEST(owner.object().at("message").asString() == "trust 20 -> 10 (sev3 inc-7 -10)",
             owner.body);
  BOOST_TEST(site.function("staffing_scheduling").at("trust").asString() == "10");
  BOOST_TEST(site.function("rituals_comms").at("trust").asString() == "20");
  auto sevs = site.entries("trust.sev");
  BOOST_REQUIRE_EQUAL(sevs.size(), 1u);
  BOOST_TEST(sevs[0].actor == "panel:p-marco");
  BOOST_TEST(site.post(path, kOwnerToken, R"({"id":"inc-7","level":3})").status ==
             409);  // repeated

  const std::string close = "/v1/trust/staffing_scheduling/incident/inc-7/close";
  BOOST_TEST(site.post(close, kStaffToken, "{}").status == 403);
  ApiReply closed = site.post(close, kOwnerToken, "{}");
  BOOST_TEST_REQUIRE(closed.status == 200, closed.body);
  BOOST_TEST(closed.object().at("message").asString() ==
             "incident inc-7 of staffing_scheduling closed");
  ApiReply again = site.post(close, kOwnerToken, "{}");
  BOOST_TEST(again.status == 409);
  BOOST_TEST(again.error() == "SEV inc-7 is already closed");
  BOOST_TEST(
      site.post("/v1/trust/staffing_scheduling/incident/inc-8/close", kOwnerToken, "{}").status ==
      409);
  BOOST_TEST(site.entries("trust.sev").size() == 2u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::test
