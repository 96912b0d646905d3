// The site's breakers in serve's wiring (daemon/service/site_breakers.h, docs/policy-breakers.md)
// on the call-out site of served_site.h: live signals open them (stop-class replies, the SMS
// provider refusing our credentials), BRK-OUT open holds offers as the kill switch's L1 does and
// lets them go when it leaves Open, the gate sees open breakers, and a restart keeps them.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <map>
#include <set>
#include <string>

#include "daemon/service/policy_subsystem.h"
#include "domain/policy/breaker.h"
#include "tests/callout/callout_fixture.h"
#include "tests/callout/offers_to.h"
#include "tests/callout/served_site.h"
#include "tests/support/fields.h"

using namespace atoms;
using namespace atoms::callout::testing;
using namespace std::chrono_literals;

namespace {

using atoms::testing::field;

using atoms::testing::offersTo;

std::set<std::string> openBreakers(ServedSite& site) {
  std::set<std::string> open;
  site.withPolicy([&](PolicySubsystem& policy) { open = policy.state().openBreakers; });
  return open;
}

std::string breakerState(ServedSite& site, const std::string& id) {
  std::string state = "absent";
  site.withPolicy([&](PolicySubsystem& policy) {
    for (const policy::BreakerView& v : policy.breakers().list()) {
      if (v.id == id) state = policy::breakerStateName(v.state);
    }
  });
  return state;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(breakers_served)

BOOST_FIXTURE_TEST_CASE(brkOutOpenHoldsOffersAcrossARestartAndLetsThemGoWhenItLeavesOpen,
                        ServedSite) {
  BOOST_TEST(breakerState(*this, "BRK-CONN-twilio") == "closed");
  withPolicy([&](PolicySubsystem& policy) {
    auto tripped = policy.breakers().board().trip("BRK-OUT", now(), "test",
                                                  "reply rate down 45% week over week");
    BOOST_TEST_REQUIRE(tripped.ok(), tripped.message());
  });
  BOOST_TEST(openBreakers(*this) == std::set<std::string>{"BRK-OUT"});
  text(kRosa, "Jamal didn't show, I'm alone on the line");
  BOOST_TEST(heldTo(kBen) == 1);
  // The lead hears the offers wait (as at L1), with a person to reach for cover sooner.
  BOOST_TEST(lastTo(kRosa).find("the offers to cover Jamal") != std::string::npos, lastTo(kRosa));

  close();
  open();
  BOOST_TEST(breakerState(*this, "BRK-OUT") == "open");
  BOOST_TEST(heldTo(kBen) == 1);

  advance(12h + 1min);  // BRK-OUT's cooldown
  BOOST_TEST(breakerState(*this, "BRK-OUT") == "half-open");
  BOOST_TEST(openBreakers(*this) == std::set<std::string>{"BRK-OUT"});  // still clamps the gate
  BOOST_TEST(heldTo(kBen) == 0);  // re-decided on release, as after L1
  // Jamal's shift ended hours ago: the offer is refused at its deadline, never sent late.
  BOOST_TEST(offersTo(*this, kBen) == 0);
  int expired = 0;
  for (const Entry& e : entries("receipt")) {
    expired += field(e, "rationale").rfind("not sent: its deadline", 0) == 0 ? 1 : 0;
  }
  BOOST_TEST(expired >= 1);
  auto changed = entries("breaker.changed");
  BOOST_REQUIRE_EQUAL(changed.size(), 2u);
  BOOST_TEST(field(changed[0], "reason") == "reply rate down 45% week over week");
  BOOST_TEST(field(changed[1], "to") == "half-open");
  BOOST_TEST(changed[1].actor == "engine");

  // A clean trial of 48 hours, then a person closes it; an automated process never can.
  advance(48h);
  std::string refused;
  std::string closed;
  withPolicy([&](PolicySubsystem& policy) {
    for (const policy::BreakerView& v : policy.breakers().list()) {
      if (v.id == "BRK-OUT") BOOST_TEST(v.awaitingAck);
    }
    auto automated = policy.breakers().acknowledge("BRK-OUT", {"engine", true});
    refused = automated.ok() ? std::string() : automated.message();
    auto person = policy.breakers().acknowledge("BRK-OUT", {"panel:kwame", false});
    closed = person.ok() ? person->describe() : person.message();
  });
  BOOST_TEST(refused == "an automated process cannot acknowledge BRK-OUT; a person must");
  BOOST_TEST(closed ==
             "BRK-OUT half-open -> closed: probe window clean; acknowledged by panel:kwame");
  BOOST_TEST(openBreakers(*this).empty());
  BOOST_TEST(entries("breaker.ack_refused").size() == 1u);
}

BOOST_FIXTURE_TEST_CASE(threeStopRepliesInADayOpenBrkOut, ServedSite) {
  text(kAna, "STOP");
  text(kBen, "stop");
  BOOST_TEST(openBreakers(*this).empty());
  text(kCleo, "STOP");
  BOOST_TEST(openBreakers(*this) == std::set<std::string>{"BRK-OUT"});
  auto changed = entries("breaker.changed");
  BOOST_REQUIRE_EQUAL(changed.size(), 1u);
  BOOST_TEST(changed[0].actor == "sms");
  BOOST_TEST(field(changed[0], "reason") == "outreach.stop_reply 3 >= 3 over 86400 s");
}

// The signal and the reply come from the one classification of each text: the stop-like replies
// that count are the ones answered as stop-like, and an ordinary text counts for nothing.
BOOST_FIXTURE_TEST_CASE(stopLikeRepliesCountAsTheyAreAnsweredAndOrdinaryTextsDoNot, ServedSite) {
  text(kRosa, "Jamal didn't show, I'm alone on the line");
  text(kAna, "ugh, enough texts");
  text(kBen, "leave me alone");
  BOOST_TEST(openBreakers(*this).empty());
  text(kMia, "sounds good, thanks");
  BOOST_TEST(openBreakers(*this).empty());
  text(kCleo, "oh please, message me MORE");
  BOOST_TEST(openBreakers(*this) == std::set<std::string>{"BRK-OUT"});
  for (const char* phone : {kAna, kBen, kCleo}) {
    const auto texts = textsTo(phone);
    BOOST_TEST(std::any_of(texts.begin(), texts.end(),
                           [](const std::string& t) {
                             return t.find("Reply OFFERS ON") != std::string::npos;
                           }),
               phone);
  }
  BOOST_TEST(entries("sms.offers_paused").size() == 3u);
  auto changed = entries("breaker.changed");
  BOOST_REQUIRE_EQUAL(changed.size(), 1u);
  BOOST_TEST(field(changed[0], "reason") == "outreach.stop_reply 3 >= 3 over 86400 s");
}

BOOST_FIXTURE_TEST_CASE(theProviderRefusingOurCredentialsOpensItsConnectionBreaker, ServedSite) {
  provider.failNext(drivers::twilio::FakeFailure{401, 20003, "Authenticate"});
  text(kRosa, "Jamal didn't show, I'm alone on the line");
  BOOST_TEST(breakerState(*this, "BRK-CONN-twilio") == "open");
  auto changed = entries("breaker.changed");
  BOOST_REQUIRE_EQUAL(changed.size(), 1u);
  BOOST_TEST(field(changed[0], "breaker") == "BRK-CONN-twilio");
  BOOST_TEST(field(changed[0], "reason") == "conn.auth_failure 1 >= 1 over 3600 s");
  // A connection breaker clamps no action kind: the offers still go out once the provider takes
  // them (the outbox retries).
  advance(5min);
  BOOST_TEST(!textsTo(kBen).empty());
}

// Twilio blocks a number that texts STOP and confirms it itself (its standard keyword handling):
// by default (sms.twilio.opt-out-replies = twilio) the box records the opt-out and sends nothing
// after it. The issue "Call-outs and texts", defect 3.
BOOST_FIXTURE_TEST_CASE(aStopTwilioConfirmedGetsNoSecondConfirmationFromTheBox, ServedSite) {
  for (const char* phone : {kAna, kBen}) {
    provider.unsubscribe(phone);  // what Twilio does on receiving the STOP
    text(phone, "STOP");
  }
  advance(5min);
  BOOST_TEST(textsTo(kAna).empty());
  BOOST_TEST(textsTo(kBen).empty());
  BOOST_TEST(entries("sms.opt_out").size() == 2u);
  const auto talk = entries("sms.conversation");
  BOOST_REQUIRE(!talk.empty());
  BOOST_TEST(field(talk.back(), "outcome") == "opted_out_confirmed_by_provider");
  BOOST_TEST(breakerState(*this, "BRK-CONN-twilio") == "closed");
  text(kAna, "START");  // Twilio confirms that too
  BOOST_TEST(textsTo(kAna).empty());
  BOOST_TEST(field(entries("sms.conversation").back(), "outcome") ==
             "opted_in_confirmed_by_provider");
}

// Where the box confirms STOP itself (sms.twilio.opt-out-replies = box) and the provider refuses
// that confirmation because it has blocked the number (error 21610), the refusal is about the
// recipient: two STOPs in five quiet minutes used to open BRK-CONN-twilio, which then waited for
// a person.
BOOST_FIXTURE_TEST_CASE(aConfirmationTheProviderRefusesForTheRecipientIsNoOutage, ServedSite) {
  configure("sms.twilio.opt-out-replies", "box");
  text(kRosa, "Jamal didn't show, I'm alone on the line");  // a few texts go out
  text(kMia, "HELP");
  text(kCleo, "HELP");
  const int sent = provider.createRequests();
  for (const char* phone : {kAna, kBen}) {
    provider.unsubscribe(phone);
    text(phone, "STOP");
  }
  BOOST_TEST(provider.createRequests() == sent + 2);  // the box tried to confirm each
  BOOST_TEST((sent >= 3 && sent < 8));                // two failures: over 20 % of at least 5 sends
  BOOST_TEST(lastTo(kAna).find("You're unsubscribed") != 0);  // the provider refused both
  BOOST_TEST(entries("sms.opt_out").size() == 2u);
  BOOST_TEST(breakerState(*this, "BRK-CONN-twilio") == "closed");
  BOOST_TEST(entries("breaker.changed").empty());
  // A number still subscribed gets the box's confirmation.
  text(kCleo, "STOP");
  BOOST_TEST(lastTo(kCleo).find("You're unsubscribed") == 0, lastTo(kCleo));
}

// Seed 001 section 6: a trip regresses every function with an action behind the breaker from
// AUTONOMOUS to PROPOSE, in the trip's own transaction.
BOOST_FIXTURE_TEST_CASE(aTripRegressesTheFunctionBehindTheBreaker, ServedSite) {
  setGraduation(policy::Graduation::kAutonomous);
  withPolicy([&](PolicySubsystem& policy) {
    auto tripped = policy.breakers().board().trip("BRK-SCH", now(), "test", "fairness warning");
    BOOST_TEST_REQUIRE(tripped.ok(), tripped.message());
    BOOST_TEST((policy.state().graduation["staffing_scheduling"] == policy::Graduation::kPropose));
  });
  int regressions = 0;
  for (const Entry& e : entries("graduation.changed")) {
    if (field(e, "cause") != "regression") continue;
    ++regressions;
    BOOST_TEST(field(e, "function") == "staffing_scheduling");
    BOOST_TEST(field(e, "to") == "PROPOSE");
    BOOST_TEST(e.actor == "breaker:BRK-SCH");
  }
  BOOST_TEST(regressions == 1);
}

// Seed 001 EC-RISK-001: BRK-SCH trips while the manager's OK for overtime is pending. The APPROVE
// is re-validated at Act: nothing is carried out, the approval stays open, marked held by the
// breaker, and the manager is told in plain words; once the breaker is closed the same APPROVE
// gives the shift. BRK-SCH's cooldown and probe window are shortened to 5 minutes here so that
// it closes before the approval lapses (30 minutes).
BOOST_FIXTURE_TEST_CASE(ecRisk001ABreakerTrippedDuringAnApprovalHoldsItAtAct, ServedSite) {
  setWaveSize(4);
  text(kRosa, "Jamal didn't show");
  text(kMia, codeFor(kMia));
  BOOST_TEST_REQUIRE(lastTo(kKwame).find("Approval 1: Mia can cover") != std::string::npos,
                     lastTo(kKwame));
  withPolicy([&](PolicySubsystem& policy) {
    policy::BreakerConfig quick = policy::scheduleBreakerConfig();
    quick.cooldown = 5min;
    quick.probeDuration = 5min;
    Status reconfigured = policy.breakers().board().reconfigure(quick);
    BOOST_TEST_REQUIRE(reconfigured.ok(), reconfigured.message());
    auto tripped =
        policy.breakers().board().trip("BRK-SCH", now(), "test", "3 swap reversals in 7 days");
    BOOST_TEST_REQUIRE(tripped.ok(), tripped.message());
  });
  text(kKwame, "APPROVE 1");
  BOOST_TEST(storedAssignee("s-jamal") == "p-jamal");  // nothing executed
  BOOST_TEST(
      lastTo(kKwame) ==
          "Approval 1 is on hold: a safety check paused schedule changes for now. Nothing "
          "changed and it stays open; reply APPROVE 1 later. Kwame at +15551000009 can help.",
      lastTo(kKwame));
  auto refused = entries("approval.refused");
  BOOST_REQUIRE_EQUAL(refused.size(), 1u);
  BOOST_TEST(field(refused[0], "reason") == "held_by_breaker");
  const json::Value* gate = refused[0].body.find("gate");
  BOOST_REQUIRE(gate != nullptr && gate->isObject());
  BOOST_TEST(gate->find("breaker")->asString() == "BRK-SCH");
  BOOST_TEST(entries("approval.decided").empty());  // still pending

  advance(6min);  // the cooldown: half-open, still clamping schedule changes
  BOOST_TEST_REQUIRE(breakerState(*this, "BRK-SCH") == "half-open");
  advance(6min);  // a clean probe window, then a person closes it
  std::string closed;
  withPolicy([&](PolicySubsystem& policy) {
    auto person = policy.breakers().acknowledge("BRK-SCH", {"panel:kwame", false});
    closed = person.ok() ? std::string() : person.message();
  });
  BOOST_TEST_REQUIRE(closed.empty(), closed);
  BOOST_TEST_REQUIRE(breakerState(*this, "BRK-SCH") == "closed");
  text(kKwame, "APPROVE 1");
  BOOST_TEST(storedAssignee("s-jamal") == "p-mia");
  BOOST_TEST(entries("approval.decided").size() == 1u);
  BOOST_TEST(entries("approval.refused").size() == 1u);  // only the held one
}

// Seed 001 EC-RISK-006: a SEV2 in one function during another function's probe window. BRK-OUT
// (staffing_scheduling's and rituals_comms' outreach) is half-open with clean probes; an owner
// records SEV2 inc-7 against reporting_escalation. Only reporting_escalation regresses; every
// other function keeps its level and trust; BRK-OUT's probe window starts again at the incident.
BOOST_FIXTURE_TEST_CASE(ecRisk006ASev2InOneFunctionRestartsAnotherFunctionsProbeWindow,
                        ServedSite) {
  setGraduation(policy::Graduation::kAutonomous);
  withPolicy([&](PolicySubsystem& policy) {
    auto tripped = policy.breakers().board().trip("BRK-OUT", now(), "test",
                                                  "reply rate down 45% week over week");
    BOOST_TEST_REQUIRE(tripped.ok(), tripped.message());
  });
  advance(12h + 1min);
  BOOST_TEST_REQUIRE(breakerState(*this, "BRK-OUT") == "half-open");
  const TimePoint halfOpen = now();
  withPolicy([&](PolicySubsystem& policy) {
    for (int i = 0; i < 3; ++i) {
      auto ok = policy.breakers().board().recordSuccess("BRK-OUT", now(), "sms");
      BOOST_TEST_REQUIRE(ok.ok(), ok.message());
    }
  });
  advance(1h);

  std::map<std::string, std::pair<policy::Graduation, int>> before;
  std::map<std::string, std::pair<policy::Graduation, int>> after;
  const auto levels = [&](std::map<std::string, std::pair<policy::Graduation, int>>& into) {
    withPolicy([&](PolicySubsystem& policy) {
      auto budgets = policy.trustBudgets();
      BOOST_TEST_REQUIRE(budgets.ok(), budgets.message());
      for (const PolicySubsystem::FunctionTrust& f : *budgets) {
        into[f.function] = {f.effective, f.trustHalves};
      }
    });
  };
  levels(before);
  BOOST_TEST_REQUIRE((before["reporting_escalation"].first == policy::Graduation::kPropose));
  std::string refused;
  withPolicy([&](PolicySubsystem& policy) {
    auto bad = policy.recordIncident("reporting_escalation", "inc-7", 5, "panel:p-owner");
    refused = bad.ok() ? std::string() : bad.message();
    auto sev = policy.recordIncident("reporting_escalation", "inc-7", 2, "panel:p-owner");
    BOOST_TEST_REQUIRE(sev.ok(), sev.message());
  });
  BOOST_TEST(refused == "SEV level 5 is not one of 1..4");
  levels(after);
  // The attributed function: -25 from its start trust of 20, to 0, under 10: SHADOW.
  BOOST_TEST((after["reporting_escalation"].first == policy::Graduation::kShadow));
  BOOST_TEST(after["reporting_escalation"].second == 0);
  for (const auto& [function, level] : before) {
    if (function == "reporting_escalation") continue;
    BOOST_TEST((after[function] == level), function << " changed");
  }
  BOOST_TEST((after["staffing_scheduling"].first == policy::Graduation::kPropose));  // the trip

  const std::string reason = "incident inc-7 (SEV2, reporting_escalation) during the probe window";
  auto restarted = entries("breaker.probe_restarted");
  BOOST_REQUIRE_EQUAL(restarted.size(), 1u);
  BOOST_TEST(field(restarted[0], "breaker") == "BRK-OUT");
  BOOST_TEST(field(restarted[0], "reason") == reason);
  BOOST_TEST(restarted[0].actor == "panel:p-owner");
  auto sevs = entries("trust.sev");
  BOOST_REQUIRE_EQUAL(sevs.size(), 1u);
  BOOST_TEST(field(sevs[0], "function") == "reporting_escalation");
  const TimePoint incident = now();
  withPolicy([&](PolicySubsystem& policy) {
    for (const policy::BreakerView& v : policy.breakers().list()) {
      if (v.id != "BRK-OUT") continue;
      BOOST_TEST(policy::breakerStateName(v.state) == "half-open");
      BOOST_TEST(v.cleanProbes == 0);
      BOOST_TEST(v.probesStarted == 0);
      BOOST_TEST((v.since == incident));
    }
  });

  // 48 h from the first half-open start the window is not clean; 48 h from the incident it is.
  advance(std::chrono::duration_cast<std::chrono::minutes>(halfOpen + 48h - now()) + 1min);
  std::string early;
  withPolicy([&](PolicySubsystem& policy) {
    auto ack = policy.breakers().acknowledge("BRK-OUT", {"panel:kwame", false});
    early = ack.ok() ? std::string() : ack.message();
  });
  BOOST_TEST(early.find("probe window not yet clean") != std::string::npos, early);
  advance(1h);
  withPolicy([&](PolicySubsystem& policy) {
    auto ack = policy.breakers().acknowledge("BRK-OUT", {"panel:kwame", false});
    BOOST_TEST(ack.ok(), ack.message());
  });
  BOOST_TEST(breakerState(*this, "BRK-OUT") == "closed");
}

// Seed 001 section 8, BRK-SCH's live signal: a labor-rule violation reaching Act. The desk decided
// on its snapshot; between the offer and Ben's reply the store got another shift for Ben at the
// same hours (as a site import writes it). At Act the rules run again on the stored schedule:
// nothing is given, Ben is told a manager will confirm, his manager of record is told, and
// BRK-SCH opens. The routine re-check at acceptance (the snapshot) never trips it.
BOOST_FIXTURE_TEST_CASE(aLaborViolationFoundAtActGivesNothingAndOpensBrkSch, ServedSite) {
  text(kRosa, "Jamal didn't show, I'm alone on the line");
  const std::string code = codeFor(kBen);
  writeToStore(
      "INSERT INTO site_shift(id, position, station_id, start_utc, start_local, end_utc, end_local,"
      " certification_id, assignee_id) SELECT 's-ben-imported', 1000, station_id, start_utc,"
      " start_local, end_utc, end_local, NULL, 'p-ben' FROM site_shift WHERE id = 's-jamal'");
  text(kBen, code);
  BOOST_TEST(storedAssignee("s-jamal") == "p-jamal");
  BOOST_TEST(lastTo(kBen).find("A manager needs to confirm this shift") != std::string::npos,
             lastTo(kBen));
  BOOST_TEST(
      lastTo(kKwame).find("Ben replied to take line cook today 17:00-23:00") != std::string::npos,
      lastTo(kKwame));
  int notGiven = 0;
  for (const Entry& e : entries("receipt")) {
    const json::Value* outcome = e.body.find("outcome");
    if (outcome != nullptr && outcome->isString() && outcome->asString() == "not_given_at_act") {
      ++notGiven;
    }
  }
  BOOST_TEST(notGiven == 1);
  auto changed = entries("breaker.changed");
  BOOST_REQUIRE_EQUAL(changed.size(), 1u);
  BOOST_TEST(field(changed[0], "breaker") == "BRK-SCH");
  BOOST_TEST(field(changed[0], "to") == "open");
  BOOST_TEST(changed[0].actor == "callout");
  BOOST_TEST(breakerState(*this, "BRK-SCH") == "open");
  // "Should be impossible; treated as SEV2": on the scheduling budget, named by the receipt.
  auto sevs = entries("trust.sev");
  BOOST_REQUIRE_EQUAL(sevs.size(), 1u);
  BOOST_TEST(field(sevs[0], "function") == "staffing_scheduling");
  BOOST_TEST(field(sevs[0], "ref").find("-act-") != std::string::npos, field(sevs[0], "ref"));
}

// The same at Act after a manager's APPROVE (Mia's overtime): the manager hears it cannot be given,
// Mia that she cannot take it, and BRK-SCH opens.
BOOST_FIXTURE_TEST_CASE(aLaborViolationFoundAtActAfterAnApprovalGivesNothing, ServedSite) {
  setWaveSize(4);
  text(kRosa, "Jamal didn't show");
  text(kMia, codeFor(kMia));
  BOOST_TEST_REQUIRE(lastTo(kKwame).find("Approval 1: Mia can cover") != std::string::npos,
                     lastTo(kKwame));
  writeToStore(
      "INSERT INTO site_shift(id, position, station_id, start_utc, start_local, end_utc, end_local,"
      " certification_id, assignee_id) SELECT 's-mia-imported', 1000, station_id, start_utc,"
      " start_local, end_utc, end_local, NULL, 'p-mia' FROM site_shift WHERE id = 's-jamal'");
  text(kKwame, "APPROVE 1");
  BOOST_TEST(storedAssignee("s-jamal") == "p-jamal");
  BOOST_TEST(lastTo(kKwame).find("Approved, but Mia can no longer take it") != std::string::npos,
             lastTo(kKwame));
  BOOST_TEST(lastTo(kMia).find("I can't give you this shift after all") != std::string::npos,
             lastTo(kMia));
  BOOST_TEST(breakerState(*this, "BRK-SCH") == "open");
}

// The check at Act on an unchanged schedule: the shift is given and BRK-SCH stays closed.
BOOST_FIXTURE_TEST_CASE(anUnchangedScheduleAtActGivesTheShiftAndLeavesBrkSchClosed, ServedSite) {
  text(kRosa, "Jamal didn't show, I'm alone on the line");
  text(kBen, codeFor(kBen));
  BOOST_TEST(storedAssignee("s-jamal") == "p-ben");
  BOOST_TEST(entries("breaker.changed").empty());
  BOOST_TEST(breakerState(*this, "BRK-SCH") == "closed");
  BOOST_TEST(entries("trust.sev").empty());
}

BOOST_AUTO_TEST_SUITE_END()
