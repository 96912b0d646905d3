// The kill switch in the JSON API (daemon/api/killswitch_resource.h, domain/policy/
// panel_kill_switch.h) in serve's wiring: who may set which level (seed 001 section 7), the
// audit of every change and every refusal, bad bodies, and the level reaching the policy service.
#include <boost/test/unit_test.hpp>

#include "base/writer_call.h"
#include "daemon/service/api_subsystem.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/policy_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "store/site_store.h"
#include "tests/api/served_api.h"
#include "tests/support/api_client.h"
#include "tests/support/audit_entries.h"

namespace atoms::test {
namespace {

using atoms::testing::ApiReply;
using atoms::testing::apiRequest;

struct KillSwitchSite : RolesSite {
  ApiReply set(const std::string& token, const std::string& level, const std::string& reason) {
    return apiRequest(port(), "POST", "/v1/killswitch", token,
                      R"({"level":")" + level + R"(","reason":")" + reason + R"("})");
  }
  std::string level(const std::string& token) {
    ApiReply got = apiRequest(port(), "GET", "/v1/killswitch", token);
    BOOST_TEST_REQUIRE(got.status == 200, got.body);
    return got.object().at("level").asString();
  }
  // What the policy service itself holds now (what the SMS layer and the gate see).
  std::string serviceLevel() {
    auto level = callOnWriter(services->engine().engine(),
                              [this] { return services->policy().state().level; });
    BOOST_REQUIRE(level);
    return policy::killSwitchLevelName(*level);
  }
  // Whether the SMS layer holds outreach now (what its kill-switch listener reads).
  bool outreachFrozen() {
    auto frozen = callOnWriter(services->engine().engine(),
                               [this] { return services->policy().outreachFrozen(); });
    BOOST_REQUIRE(frozen);
    return *frozen;
  }
};

std::string field(const Entry& e, const char* key) {
  const json::Value* v = e.body.find(key);
  return v != nullptr && v->isString() ? v->asString() : std::string();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(killswitch_api)

BOOST_AUTO_TEST_CASE(aManagerOfRecordFreezesAndReleasesOutreach) {
  KillSwitchSite site;
  BOOST_TEST(site.level(kManagerToken) == "L0");
  ApiReply frozen = site.set(kManagerToken, "L1", "short-staffed, texts paused while we sort it");
  BOOST_TEST_REQUIRE(frozen.status == 200, frozen.body);
  BOOST_TEST(frozen.object().at("outcome").asString() == "changed");
  BOOST_TEST(frozen.object().at("killSwitch").asObject().at("setBy").asString() == "panel:p-gm");
  BOOST_TEST(site.level(kManagerToken) == "L1");
  BOOST_TEST(site.serviceLevel() == "L1");
  BOOST_TEST(site.outreachFrozen());

  ApiReply again = site.set(kManagerToken, "L1", "again");
  BOOST_TEST(again.status == 200);
  BOOST_TEST(again.object().at("outcome").asString() == "unchanged");

  ApiReply released = site.set(kManagerToken, "L0", "sorted");
  BOOST_TEST_REQUIRE(released.status == 200, released.body);
  BOOST_TEST(site.serviceLevel() == "L0");
  BOOST_TEST(!site.outreachFrozen());

  const auto sets = site.entries("killswitch.set");
  BOOST_TEST_REQUIRE(sets.size() == 2u);
  BOOST_TEST(sets[0].actor == "panel:p-gm");
  BOOST_TEST(field(sets[0], "level") == "L1");
  BOOST_TEST(field(sets[0], "reason") == "short-staffed, texts paused while we sort it");
  BOOST_TEST(field(sets[1], "level") == "L0");
  // The gate's decision is on record with each change.
  BOOST_TEST(site.entries("policy.decision").size() == 2u);
}

BOOST_AUTO_TEST_CASE(onlyAnOwnerSetsL2AndL3AndRefusalsAreAudited) {
  KillSwitchSite site;
  ApiReply refused = site.set(kManagerToken, "L2", "stop everything");
  BOOST_TEST(refused.status == 403);
  BOOST_TEST(refused.error().find("only an owner of the site can set or lift L2 and L3") !=
             std::string::npos);
  ApiReply staff = site.set(kStaffToken, "L1", "please stop");
  BOOST_TEST(staff.status == 403);
  BOOST_TEST(staff.error() ==
             "only an owner of the site or a manager of record can change the kill switch");
  BOOST_TEST(site.level(kStaffToken) == "L0");  // anyone of the site may read it
  BOOST_TEST(site.serviceLevel() == "L0");
  const auto refusals = site.entries("killswitch.refused");
  BOOST_TEST_REQUIRE(refusals.size() == 2u);
  BOOST_TEST(refusals[0].actor == "panel:p-gm");
  BOOST_TEST(field(refusals[0], "to") == "L2");
  BOOST_TEST(refusals[1].actor == "panel:p-jamal");
  BOOST_TEST(site.entries("killswitch.set").empty());

  ApiReply paused = site.set(kOwnerToken, "L2", "audit of the schedule");
  BOOST_TEST_REQUIRE(paused.status == 200, paused.body);
  BOOST_TEST(site.serviceLevel() == "L2");
  // A manager of record cannot lift the owner's L2 either.
  BOOST_TEST(site.set(kManagerToken, "L0", "back to normal").status == 403);
  BOOST_TEST(site.serviceLevel() == "L2");

  ApiReply stopped = site.set(kOwnerToken, "L3", "something is wrong");
  BOOST_TEST_REQUIRE(stopped.status == 200, stopped.body);
  // A full stop is lifted by operations (a signed cloud command), not from the panel.
  ApiReply lift = site.set(kOwnerToken, "L0", "all good");
  BOOST_TEST(lift.status == 403);
  BOOST_TEST(lift.error().find("lifted by operations") != std::string::npos);
  BOOST_TEST(site.serviceLevel() == "L3");
}

BOOST_AUTO_TEST_CASE(badRequestsChangeNothing) {
  KillSwitchSite site;
  const std::uint16_t port = site.port();
  BOOST_TEST(apiRequest(port, "GET", "/v1/killswitch", std::nullopt).status == 401);
  BOOST_TEST(apiRequest(port, "GET", "/v1/killswitch", std::string("nope")).status == 401);
  ApiReply put = apiRequest(port, "PUT", "/v1/killswitch", kOwnerToken, "{}");
  BOOST_TEST(put.status == 405);
  BOOST_TEST(put.allow == "GET, POST");
  BOOST_TEST(apiRequest(port, "GET", "/v1/killswitch?x=1", kOwnerToken).status == 400);
  const std::pair<std::string, std::string> bad[] = {
      {R"({"level":"L9","reason":"x"})", "level: expected one of L0, L1, L2, L3"},
      {R"({"level":5,"reason":"x"})", "level: expected one of L0, L1, L2, L3"},
      {R"({"level":"L1"})", "reason: missing (say why, it goes on record)"},
      {R"({"level":"L1","reason":"  "})", "reason: missing (say why, it goes on record)"},
      {R"({"level":"L1","reason":"x","by":"ops"})", "unknown field 'by'"},
      {R"({"reason":"x"})", "level: missing"},
      {R"(["L1"])", "the body is not a JSON object"},
  };
  for (const auto& [body, error] : bad) {
    ApiReply reply = apiRequest(port, "POST", "/v1/killswitch", kOwnerToken, body);
    BOOST_TEST(reply.status == 400, body);
    BOOST_TEST(reply.error() == error, body);
  }
  BOOST_TEST(site.level(kOwnerToken) == "L0");
  BOOST_TEST(site.entries("killswitch.set").empty());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::test
