// A person's paused shift offers in the JSON API (daemon/api/offers_resource.h; seed 001
// EC-RISK-005: paused "until the person or MoR clears it") in serve's wiring: who may see and clear
// a pause, the audit, bad requests.
#include <boost/test/unit_test.hpp>

#include "base/writer_call.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "domain/site/site_repository.h"
#include "sms/conversation/offers_pause.h"
#include "store/site_store.h"
#include "tests/api/served_api.h"
#include "tests/support/api_client.h"

namespace atoms::test {
namespace {

using atoms::testing::ApiReply;
using atoms::testing::apiRequest;

struct OffersSite : RolesSite {
  // Pauses `person`'s offers as a stop-like reply does (the conversation layer's OffersPause).
  void pause(const std::string& person) {
    auto paused = callOnWriter(services->engine().engine(), [&]() -> Result<bool> {
      Database& db = services->store().store().db();
      auto standing = site::personStanding(db, person);
      if (!standing) return standing.error();
      return sms::conversation::OffersPause(db).pause(standing->phone, clock.now(),
                                                      "leave me alone");
    });
    BOOST_REQUIRE(paused.has_value());
    BOOST_REQUIRE_MESSAGE(paused->ok(), paused->message());
    BOOST_REQUIRE(**paused);
  }
  ApiReply get(const std::string& token, const std::string& person) {
    return apiRequest(port(), "GET", "/v1/people/" + person + "/offers", token);
  }
  ApiReply resume(const std::string& token, const std::string& person,
                  const std::string& body = "{}") {
    return apiRequest(port(), "POST", "/v1/people/" + person + "/offers/resume", token, body);
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(offers_api)

BOOST_AUTO_TEST_CASE(theManagerOfRecordClearsAPauseOnceAndItIsAudited) {
  OffersSite site;
  site.pause("p-jamal");
  ApiReply seen = site.get(kManagerToken, "p-jamal");
  BOOST_TEST_REQUIRE(seen.status == 200, seen.body);
  BOOST_TEST(seen.object().at("paused").asBool());
  BOOST_TEST(!seen.object().at("since").isNull());

  ApiReply resumed = site.resume(kManagerToken, "p-jamal");
  BOOST_TEST_REQUIRE(resumed.status == 200, resumed.body);
  BOOST_TEST(resumed.object().at("outcome").asString() == "resumed");
  BOOST_TEST(resumed.object().at("message").asString().find("please let them know") !=
             std::string::npos);
  BOOST_TEST(!resumed.object().at("offers").asObject().at("paused").asBool());
  const auto audited = site.entries("sms.offers_resumed");
  BOOST_TEST_REQUIRE(audited.size() == 1u);
  BOOST_TEST(audited[0].actor == "panel:p-gm");
  BOOST_TEST(audited[0].body.asObject().at("person").asString() == "p-jamal");

  ApiReply again = site.resume(kManagerToken, "p-jamal");
  BOOST_TEST_REQUIRE(again.status == 200, again.body);
  BOOST_TEST(again.object().at("outcome").asString() == "unchanged");
  BOOST_TEST(site.entries("sms.offers_resumed").size() ==
             1u);  // nothing happened: nothing recorded
}

BOOST_AUTO_TEST_CASE(thePersonThemselvesAndAnOwnerMayClearItNobodyElse) {
  OffersSite site;
  site.pause("p-jamal");
  site.pause("p-ana");
  ApiReply other = site.resume(kStaffToken, "p-ana");  // Jamal about Ana
  BOOST_TEST(other.status == 403);
  BOOST_TEST(other.error() ==
             "only the person, their manager of record or an owner of the site sees or clears "
             "their paused offers");
  BOOST_TEST(site.get(kStaffToken, "p-ana").status == 403);
  BOOST_TEST(site.get(kOwnerToken, "p-ana").object().at("paused").asBool());  // unchanged

  ApiReply self = site.resume(kStaffToken, "p-jamal");
  BOOST_TEST_REQUIRE(self.status == 200, self.body);
  BOOST_TEST(self.object().at("message").asString() == "Shift offers are on again for you.");
  ApiReply owner = site.resume(kOwnerToken, "p-ana");
  BOOST_TEST_REQUIRE(owner.status == 200, owner.body);
  BOOST_TEST(owner.object().at("outcome").asString() == "resumed");
  BOOST_TEST(site.entries("sms.offers_resumed").size() == 2u);
}

BOOST_AUTO_TEST_CASE(badRequestsChangeNothing) {
  OffersSite site;
  site.pause("p-jamal");
  BOOST_TEST(site.resume(kManagerToken, "p-nobody").status == 404);
  BOOST_TEST(site.resume(kManagerToken, "p-jamal", R"({"now":true})").status == 400);
  BOOST_TEST(site.resume(kManagerToken, "p-jamal", "[]").status == 400);
  BOOST_TEST(site.resume("not-a-token-at-all-000000", "p-jamal").status == 401);
  BOOST_TEST(
      apiRequest(site.port(), "GET", "/v1/people/p-jamal/offers/resume", kManagerToken).status ==
      405);
  BOOST_TEST(apiRequest(site.port(), "GET", "/v1/people/p-jamal", kManagerToken).status == 404);
  BOOST_TEST(site.get(kManagerToken, "p-jamal").object().at("paused").asBool());
  BOOST_TEST(site.entries("sms.offers_resumed").empty());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::test
