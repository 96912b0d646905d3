// Shadow decisions of a call-out through the real service wiring (docs/callouts.md "shadow";
// docs/policy-gate.md "Trust budget"): at SHADOW the box decides and records whom it would offer
// the shift to, sends nothing, and at the shift's start plus the grace learns from the time clock
// whether the person who came in was one it would have asked.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <optional>

#include "daemon/service/policy_subsystem.h"
#include "tests/callout/callout_fixture.h"
#include "tests/callout/served_site.h"
#include "tests/support/api_client.h"
#include "tests/support/fields.h"

using namespace atoms;
using namespace atoms::callout;
using namespace atoms::callout::testing;
using namespace std::chrono_literals;
using atoms::testing::ApiReply;
using atoms::testing::apiRequest;

namespace {

using atoms::testing::field;

std::vector<std::string> people(const json::Value& list) {
  std::vector<std::string> out;
  for (const json::Value& v : list.asArray()) {
    out.push_back(v.isString() ? v.asString() : v.asObject().at("person").asString());
  }
  return out;
}

// staffing_scheduling's trust and its shadow_agreement condition, as the owner's console shows.
struct Scheduling {
  int trustHalves = -1;
  std::string agreement;
};

Scheduling scheduling(ServedSite& site) {
  Scheduling out;
  site.withPolicy([&](PolicySubsystem& policy) {
    auto budgets = policy.trustBudgets();
    BOOST_REQUIRE_MESSAGE(budgets.ok(), budgets.message());
    for (const auto& b : *budgets) {
      if (b.function != "staffing_scheduling") continue;
      out.trustHalves = b.trustHalves;
      for (const auto& c : b.eligibility.conditions) {
        if (c.name == "shadow_agreement") out.agreement = c.actual;
      }
    }
  });
  return out;
}

// A shadow site with the JSON API (for Kwame and Rosa) and a time clock at the door; Rosa
// reports Jamal out at 16:55.
struct ShadowSite : ServedSite {
  ShadowSite() {
    setGraduation(policy::Graduation::kShadow);
    addApi({{"p-kwame", kKwameToken}, {"p-rosa", kRosaToken}});
    addTimeClock();  // last: a restart gives the time clock a new port
    text(kRosa, "Jamal didn't show, I'm alone on the line");
  }
  ApiReply awaiting(const std::string& token) {
    return apiRequest(apiPort(), "GET", "/v1/trust/staffing_scheduling/shadow", token);
  }
  ApiReply verdict(std::int64_t callout, const std::string& token, const std::string& body) {
    return apiRequest(apiPort(), "POST",
                      "/v1/trust/staffing_scheduling/shadow/" + std::to_string(callout), token,
                      body);
  }
};

json::Value parsed(const ApiReply& reply) {
  auto v = json::parse(reply.body);
  BOOST_REQUIRE_MESSAGE(v.ok(), reply.body);
  return *v;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(shadow_served)

BOOST_FIXTURE_TEST_CASE(aShadowCallOutRecordsWhomItWouldOfferInOrderAndSendsNothing, ShadowSite) {
  for (const char* phone : {kBen, kAna, kCleo, kMia, kTom, kLea, kZed}) {
    BOOST_TEST(textsTo(phone).empty(), phone);
  }
  const json::Object receipt = receiptWithId("callout-1-shadow").asObject();
  BOOST_TEST(receipt.at("outcome").asString() == "recorded_not_sent");
  const std::vector<std::string> first = people(receipt.at("wouldOfferFirst"));
  BOOST_TEST(first == (std::vector<std::string>{"p-ben", "p-ana", "p-cleo"}),
             boost::test_tools::per_element());
  const std::vector<std::string> eligible = people(receipt.at("eligible"));
  BOOST_TEST(std::count(eligible.begin(), eligible.end(), "p-mia") == 1);  // a later wave
  const json::Array& ruledOut = receipt.at("notOffered").asArray();
  auto reasonOf = [&](const std::string& person) {
    for (const json::Value& v : ruledOut) {
      if (v.asObject().at("person").asString() == person) {
        return v.asObject().at("reason").asString();
      }
    }
    return std::string("not listed");
  };
  BOOST_TEST(reasonOf("p-zed") == "denied");
  BOOST_TEST(reasonOf("p-lea") == "no_consent");
  // A person still covers it: the lead and the general manager are told as before.
  BOOST_TEST(!textsTo(kKwame).empty());
  BOOST_TEST(!textsTo(kRosa).empty());
  BOOST_TEST(storedAssignee("s-jamal") == "p-jamal");
  BOOST_TEST(entries("callout.shadow_judged").empty());
}

BOOST_FIXTURE_TEST_CASE(aClockInBySomeoneTheBoxWouldHaveOfferedIsAgreementWorthOneTrust,
                        ShadowSite) {
  advance(3min);
  punch("p-cleo", drivers::terminal::PunchKind::kClockIn, now());  // 16:58, third in its order
  advance(10min);                                                  // 17:08: grace not over
  BOOST_TEST(entries("callout.shadow_judged").empty());
  advance(5min);  // 17:13
  const auto judged = entries("callout.shadow_judged");
  BOOST_REQUIRE_EQUAL(judged.size(), 1u);
  BOOST_TEST(field(judged[0], "verdict") == "agreed");
  BOOST_TEST(field(judged[0], "worker") == "p-cleo");
  BOOST_TEST(field(judged[0], "source") == "time_clock");
  const auto credited = entries("trust.changed");
  BOOST_REQUIRE_EQUAL(credited.size(), 1u);
  BOOST_TEST(field(credited[0], "event") == "shadow_agreed");
  BOOST_TEST(field(credited[0], "ref") == "callout-1-shadow");
  BOOST_TEST(credited[0].seq == judged[0].seq + 1);  // in the verdict's transaction
  const Scheduling after = scheduling(*this);
  BOOST_TEST(after.trustHalves == 2);
  BOOST_TEST(after.agreement == "100% (1 of 1)");
  // Judged once, across a restart.
  close();
  open();
  advance(60min);
  BOOST_TEST(entries("callout.shadow_judged").size() == 1u);
  BOOST_TEST(entries("trust.changed").size() == 1u);
  BOOST_TEST(scheduling(*this).trustHalves == 2);
}

BOOST_FIXTURE_TEST_CASE(aClockInBySomeoneTheLaborRulesRuledOutIsADisagreementThatCostsNoTrust,
                        ShadowSite) {
  advance(3min);
  punch("p-zed", drivers::terminal::PunchKind::kClockIn, now());
  advance(15min);
  const auto judged = entries("callout.shadow_judged");
  BOOST_REQUIRE_EQUAL(judged.size(), 1u);
  BOOST_TEST(field(judged[0], "verdict") == "disagreed");
  BOOST_TEST(field(judged[0], "worker") == "p-zed");
  BOOST_TEST(entries("trust.changed").empty());
  const Scheduling after = scheduling(*this);
  BOOST_TEST(after.trustHalves == 0);
  BOOST_TEST(after.agreement == "0% (0 of 1)");  // counts against the 80%
}

BOOST_FIXTURE_TEST_CASE(withoutAClockInAShiftAPersonGaveSomeoneElseIsJudgedFromTheSchedule,
                        ShadowSite) {
  reassignByImport("s-jamal", "p-ana");  // the manager found Ana, second in the box's order
  advance(20min);
  const auto judged = entries("callout.shadow_judged");
  BOOST_REQUIRE_EQUAL(judged.size(), 1u);
  BOOST_TEST(field(judged[0], "verdict") == "agreed");
  BOOST_TEST(field(judged[0], "worker") == "p-ana");
  BOOST_TEST(field(judged[0], "source") == "schedule");
  BOOST_TEST(scheduling(*this).trustHalves == 2);
}

BOOST_FIXTURE_TEST_CASE(nobodyClockingInLeavesTheDecisionUnjudgedAndUncounted, ShadowSite) {
  advance(3min);
  punch("p-rosa", drivers::terminal::PunchKind::kClockIn, now());  // the lead, for her own shift
  close();
  advance(30min);  // the grace ended while the box was down: judged when it is back
  open();
  const auto judged = entries("callout.shadow_judged");
  BOOST_REQUIRE_EQUAL(judged.size(), 1u);
  BOOST_TEST(field(judged[0], "verdict") == "unknown");
  BOOST_TEST(judged[0].body.find("worker") == nullptr);
  BOOST_TEST(entries("trust.changed").empty());
  BOOST_TEST(scheduling(*this).agreement == "none");
  close();
  open();
  BOOST_TEST(entries("callout.shadow_judged").size() == 1u);
  // The clock's "unknown" is no verdict: a manager may still give one, and it counts.
  const json::Value listed = parsed(awaiting(kKwameToken));
  const json::Array& decisions = listed.asObject().at("decisions").asArray();
  BOOST_REQUIRE_EQUAL(decisions.size(), 1u);
  BOOST_TEST(decisions[0].asObject().at("verdict").asString() == "unknown");
  BOOST_TEST(decisions[0].asObject().at("judgedBy").asString() == "nobody");
  BOOST_TEST(verdict(1, kKwameToken, R"({"agree":false})").status == 200);
  BOOST_TEST(entries("callout.shadow_judged").size() == 2u);
  BOOST_TEST(scheduling(*this).agreement == "0% (0 of 1)");
}

BOOST_FIXTURE_TEST_CASE(aManagerOfRecordsVerdictThroughTheApiCountsOnceAndIsAudited, ShadowSite) {
  const ApiReply listed = awaiting(kKwameToken);
  BOOST_REQUIRE_EQUAL(listed.status, 200);
  const json::Value body = parsed(listed);
  const json::Array& decisions = body.asObject().at("decisions").asArray();
  BOOST_REQUIRE_EQUAL(decisions.size(), 1u);
  BOOST_TEST(decisions[0].asObject().at("callout").asInt() == 1);
  BOOST_TEST(people(decisions[0].asObject().at("eligible")).front() == "p-ben");

  BOOST_TEST(awaiting(kRosaToken).status == 403);
  BOOST_TEST(verdict(1, kRosaToken, R"({"agree":true})").status == 403);
  BOOST_TEST(verdict(1, kKwameToken, R"({"agree":"yes"})").status == 400);
  BOOST_TEST(verdict(7, kKwameToken, R"({"agree":true})").status == 404);
  BOOST_TEST(entries("callout.shadow_judged").empty());

  const ApiReply agreed = verdict(1, kKwameToken, R"({"agree":true})");
  BOOST_REQUIRE_EQUAL(agreed.status, 200);
  BOOST_TEST(parsed(agreed).asObject().at("verdict").asString() == "agreed");
  const auto judged = entries("callout.shadow_judged");
  BOOST_REQUIRE_EQUAL(judged.size(), 1u);
  BOOST_TEST(judged[0].actor == "panel:p-kwame");
  BOOST_TEST(field(judged[0], "source") == "panel");
  BOOST_TEST(field(judged[0], "verdict") == "agreed");
  BOOST_TEST(scheduling(*this).trustHalves == 2);

  // Judged once: not by Kwame again, not by the time clock at the grace's end, not after a restart.
  const ApiReply again = verdict(1, kKwameToken, R"({"agree":false})");
  BOOST_TEST(again.status == 409);
  BOOST_TEST(again.body.find("judged already") != std::string::npos, again.body);
  advance(3min);
  punch("p-zed", drivers::terminal::PunchKind::kClockIn, now());
  advance(20min);
  BOOST_TEST(entries("callout.shadow_judged").size() == 1u);
  BOOST_TEST(parsed(awaiting(kKwameToken)).asObject().at("decisions").asArray().empty());
  BOOST_TEST(scheduling(*this).trustHalves == 2);
  BOOST_TEST(!entries("api.refused").empty());
}

BOOST_FIXTURE_TEST_CASE(aCallOutDecidedOutsideShadowIsNotAShadowDecision, ServedSite) {
  addApi({{"p-kwame", kKwameToken}});
  text(kRosa, "Jamal didn't show, I'm alone on the line");  // offers go out: no shadow decision
  const ApiReply refused = apiRequest(apiPort(), "POST", "/v1/trust/staffing_scheduling/shadow/1",
                                      kKwameToken, R"({"agree":false})");
  BOOST_TEST(refused.status == 409);
  BOOST_TEST(refused.body.find("not decided in shadow") != std::string::npos, refused.body);
  BOOST_TEST(entries("callout.shadow_judged").empty());
}

BOOST_AUTO_TEST_SUITE_END()
