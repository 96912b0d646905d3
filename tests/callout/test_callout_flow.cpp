// The call-out scenarios of issue 6, each run twice: over the desk and the SMS conversation layer
// in-process (CalloutFixture: callout_fixture.h), and through the real service wiring, webhook in
// and provider out, on a simulated clock (ServedSite: served_site.h). Both run the real labor
// rules and policy gate.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <map>
#include <tuple>

#include "daemon/service/policy_subsystem.h"
#include "sms/text/content_lint.h"
#include "tests/callout/callout_fixture.h"
#include "tests/callout/offers_to.h"
#include "tests/callout/served_site.h"
#include "tests/support/api_client.h"
#include "tests/support/fields.h"
#include "tests/support/text_checks.h"

using namespace atoms;
using namespace atoms::callout;
using namespace atoms::callout::testing;
using namespace std::chrono_literals;

namespace {

using atoms::testing::contains;

using Sites = std::tuple<CalloutFixture, ServedSite>;

using atoms::testing::offersTo;

using atoms::testing::field;

}  // namespace

BOOST_AUTO_TEST_SUITE(callout_flow)

BOOST_AUTO_TEST_CASE_TEMPLATE(aLeadsNoShowTextGetsCertifiedLegalCoverConfirmedWithReceipts, Site,
                              Sites) {
  Site f;
  f.text(kRosa, "Jamal didn't show, I'm alone on the line");
  // The first wave: the three clean candidates, fewest hours first.
  BOOST_TEST(offersTo(f, kBen) == 1);
  BOOST_TEST(offersTo(f, kAna) == 1);
  BOOST_TEST(offersTo(f, kCleo) == 1);
  // Never: the 15-year-old past their legal hours, no consent, no card, the absent, the busy lead.
  for (const char* never : {kTom, kLea, kZed, kJamal, kMia, kKwame}) {
    BOOST_TEST(offersTo(f, never) == 0, never);
  }
  BOOST_TEST(contains(f.lastTo(kRosa), "Finding cover for Jamal"));
  BOOST_TEST(contains(f.lastTo(kRosa), "3 people"));
  BOOST_TEST(contains(f.lastTo(kBen), "line cook today 17:00-23:00"));
  // WHY after an offer says what it stood on: the shift and the call-out.
  f.text(kBen, "WHY");
  BOOST_TEST(contains(f.lastTo(kBen), "Why we sent our last text"), f.lastTo(kBen));
  BOOST_TEST(contains(f.lastTo(kBen), "shift: line cook today 17:00-23:00"), f.lastTo(kBen));
  BOOST_TEST(contains(f.lastTo(kBen), "call-out 1: cover needed"), f.lastTo(kBen));
  BOOST_TEST(contains(f.lastTo(kBen),
                      "you can work line cook and the labor rules allow this shift for you"),
             f.lastTo(kBen));

  f.advance(1min);
  f.text(kAna, f.codeFor(kAna));
  BOOST_TEST(f.storedAssignee("s-jamal") == "p-ana");
  BOOST_TEST(contains(f.lastTo(kAna), "You're on: line cook today 17:00-23:00"));
  BOOST_TEST(contains(f.lastTo(kBen), "is covered now"));
  BOOST_TEST(contains(f.lastTo(kCleo), "is covered now"));
  BOOST_TEST(contains(f.lastTo(kRosa), "Covered: Ana will work line cook today 17:00-23:00"));

  // The receipt of the assignment carries the labor evaluations and the gate's decision.
  json::Value receipt = f.receiptWithId("callout-1-assign");
  const json::Array& evaluations = receipt.asObject().at("ruleEvaluations").asArray();
  BOOST_TEST(evaluations.size() > 3u);
  BOOST_TEST(std::any_of(evaluations.begin(), evaluations.end(), [](const json::Value& e) {
    return e.asObject().at("ruleId").asString() == "policy.gate";
  }));
  BOOST_TEST(receipt.asObject().at("outcome").asString() == "assigned");
  // The offers' ranking and who was not offered, and why, are on the wave's receipt.
  json::Value wave = f.receiptWithId("callout-1-wave-1");
  BOOST_TEST(wave.asObject().at("offered").asArray().size() == 3u);
  BOOST_TEST(wave.asObject().at("offered").asArray()[0].asObject().at("person").asString() ==
             "p-ben");
  // Who was not offered, and why: the labor rules deny the 15-year-old (minors' hours) and the cook
  // without the card; the cook without consent is never asked.
  std::map<std::string, std::string> why;
  std::map<std::string, std::string> rules;
  for (const json::Value& n : wave.asObject().at("notOffered").asArray()) {
    const json::Object& o = n.asObject();
    why[o.at("person").asString()] = o.at("reason").asString();
    for (const json::Value& r : o.at("rules").asArray())
      rules[o.at("person").asString()] += r.asString() + " ";
  }
  BOOST_TEST(why["p-tom"] == "denied");
  BOOST_TEST(rules["p-tom"].find("MINOR-14-15-HOURS") != std::string::npos, rules["p-tom"]);
  BOOST_TEST(why["p-zed"] == "denied");
  BOOST_TEST(rules["p-zed"].find("CERTIFICATION") != std::string::npos, rules["p-zed"]);
  BOOST_TEST(why["p-lea"] == "no_consent");
  BOOST_TEST(why["p-rosa"] == "denied");  // working the line herself then
  // A kind check-in note for the people side, never a discipline record.
  auto handoffs = f.entries("handoff.checkin");
  BOOST_TEST_REQUIRE(handoffs.size() == 1u);
  BOOST_TEST(handoffs[0].body.asObject().at("person").asString() == "p-jamal");
  BOOST_TEST(f.entries("discipline.record").empty());

  // Nothing sent reads as discipline, health or a ranking of people.
  sms::ContentLint lint;
  for (const char* phone : {kRosa, kAna, kBen, kCleo}) {
    for (const std::string& t : f.textsTo(phone)) BOOST_TEST(lint.check(t).empty(), t);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(
    nobodyAnswersTheNextWavesGoOutAndTheGeneralManagerIsToldAtTwentyMinutes, Site, Sites) {
  Site f;
  f.text(kRosa, "Jamal didn't show, I'm alone on the line");
  f.advance(5min);
  f.due();
  // The second wave: the only one left, who would be owed overtime.
  BOOST_TEST(offersTo(f, kMia) == 1);
  BOOST_TEST(offersTo(f, kBen) == 1);  // nobody twice
  f.advance(10min);
  f.due();
  BOOST_TEST(f.textsTo(kKwame).empty());
  f.advance(5min);
  f.due();
  BOOST_TEST_REQUIRE(f.textsTo(kKwame).size() == 1u);
  BOOST_TEST(contains(f.lastTo(kKwame), "still no cover for line cook today 17:00-23:00"));
  BOOST_TEST(contains(f.lastTo(kKwame), "Receipt "));
  BOOST_TEST(contains(f.lastTo(kRosa), "I've told Kwame"));
  // The escalation's receipt counts the four offers made (three, then the one left).
  BOOST_TEST(f.receiptWithId("callout-1-escalate").asObject().at("offers").asInt() == 4);
  // Once only.
  f.advance(5min);
  f.due();
  BOOST_TEST(f.textsTo(kKwame).size() == 1u);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(twoAcceptInTheSameSecondExactlyOneGetsTheShift, Site, Sites) {
  Site f;
  f.text(kRosa, "Jamal didn't show, I'm alone on the line");
  f.textsTogether({{kBen, f.codeFor(kBen)}, {kAna, f.codeFor(kAna)}});
  BOOST_TEST(f.storedAssignee("s-jamal") == "p-ben");
  BOOST_TEST(contains(f.lastTo(kBen), "You're on"));
  // Ana's reply crossed the notice that the shift is covered: that notice is her one text about
  // it, not a second "already covered" for the same reply (call-outs issue, defect 6).
  BOOST_TEST(contains(f.lastTo(kAna), "is covered now"), f.lastTo(kAna));
  int aboutIt = 0;
  for (const std::string& t : f.textsTo(kAna)) {
    aboutIt += contains(t, "covered") ? 1 : 0;
  }
  BOOST_TEST(aboutIt == 1);
  BOOST_TEST(f.receiptWithId("callout-1-assign").asObject().at("person").asString() == "p-ben");
  // Later, with words around the code (a form docs/sms.md lists): the same closed answer, not
  // the help text (call-outs issue, defect 9).
  const std::string code = f.codeFor(kAna);
  f.advance(2min);
  f.text(kAna, "ok " + code + " I can do it");
  BOOST_TEST(contains(f.lastTo(kAna), "already covered"), f.lastTo(kAna));
  BOOST_TEST(f.storedAssignee("s-jamal") == "p-ben");
  int assigned = 0;
  for (const Entry& e : f.entries("receipt")) {
    assigned += e.body.asObject().at("outcome").asString() == "assigned" ? 1 : 0;
  }
  BOOST_TEST(assigned == 1);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(overtimeWaitsForTheManagerOfRecordThenApprovedGivesTheShift, Site,
                              Sites) {
  Site f;
  f.setWaveSize(4);
  f.text(kRosa, "Jamal didn't show");
  BOOST_TEST_REQUIRE(offersTo(f, kMia) == 1);
  f.text(kMia, f.codeFor(kMia));
  BOOST_TEST(f.storedAssignee("s-jamal") == "p-jamal");  // nothing before approval
  BOOST_TEST(
      contains(f.lastTo(kMia), "would put you into overtime, so Kwame Asante needs to OK it"),
      f.lastTo(kMia));
  const std::string ask = f.lastTo(kKwame);
  BOOST_TEST(contains(ask,
                      "Approval 1: Mia can cover line cook today 17:00-23:00, with 4 h at "
                      "premium pay ($"),
             ask);
  BOOST_TEST(contains(ask, "Reply APPROVE 1 to give Mia the shift, or DENY 1"), ask);
  // Not the person it is about, not someone else's number.
  f.text(kMia, "APPROVE 1");
  BOOST_TEST(contains(f.lastTo(kMia), "is about you"));
  f.text(kRosa, "APPROVE 1");
  BOOST_TEST(contains(f.lastTo(kRosa), "Only the manager of record"));
  BOOST_TEST(f.entries("approval.refused").size() == 2u);
  BOOST_TEST(f.storedAssignee("s-jamal") == "p-jamal");
  f.text(kKwame, "APPROVE 1");
  BOOST_TEST(f.storedAssignee("s-jamal") == "p-mia");
  BOOST_TEST(contains(f.lastTo(kMia), "Approved: you're on line cook today 17:00-23:00"));
  BOOST_TEST(contains(f.lastTo(kRosa), "Covered: Mia"));
  json::Value receipt = f.receiptWithId("callout-1-assign");
  BOOST_TEST(receipt.asObject().at("premiumMinutes").asInt() > 0);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(overtimeDeniedLeavesTheShiftOpenAndTellsThePersonKindly, Site,
                              Sites) {
  Site f;
  f.setWaveSize(4);
  f.text(kRosa, "Jamal didn't show");
  f.text(kMia, f.codeFor(kMia));
  f.text(kKwame, "DENY 1 budget");
  BOOST_TEST(f.storedAssignee("s-jamal") == "p-jamal");
  BOOST_TEST(contains(f.lastTo(kMia), "wasn't approved"));
  // The others can still take it.
  f.text(kBen, f.codeFor(kBen));
  BOOST_TEST(f.storedAssignee("s-jamal") == "p-ben");
}

BOOST_AUTO_TEST_CASE_TEMPLATE(aCandidateWhoTextsStopIsNotOfferedAgain, Site, Sites) {
  Site f;
  f.setWaveSize(1);
  f.text(kRosa, "Jamal didn't show");
  BOOST_TEST(offersTo(f, kBen) == 1);
  f.text(kAna, "STOP");
  f.advance(5min);
  f.due();
  BOOST_TEST(offersTo(f, kAna) == 0);
  BOOST_TEST(offersTo(f, kCleo) == 1);
}

// Also seed 001 EC-RISK-008 on a site box: the chase is deferred and the lead is told the box is
// frozen, with a person to reach for cover sooner (not "offers sent").
BOOST_AUTO_TEST_CASE_TEMPLATE(atKillSwitchL1OffersAreHeldAndOnlyTheLeadsThreadGetsAnswers, Site,
                              Sites) {
  Site f;
  f.setLevel(policy::KillSwitchLevel::kL1);
  f.text(kRosa, "Jamal didn't show, I'm alone on the line");
  BOOST_TEST(offersTo(f, kBen) == 0);
  BOOST_TEST(f.heldTo(kBen) == 1);
  BOOST_TEST(contains(f.lastTo(kRosa), "Texts from this box are paused right now"),
             f.lastTo(kRosa));
  BOOST_TEST(contains(f.lastTo(kRosa),
                      "the offers to cover Jamal on line cook today 17:00-23:00 "
                      "are waiting"));
  BOOST_TEST(contains(f.lastTo(kRosa), "For cover sooner: Kwame"));
  // Released when the freeze lifts, once.
  f.setLevel(policy::KillSwitchLevel::kL0);
  BOOST_TEST(offersTo(f, kBen) == 1);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(aRestartMidFlowResumesFromTheStoreWithoutDuplicateOffers, Site,
                              Sites) {
  Site f;
  f.text(kRosa, "Jamal didn't show, I'm alone on the line");
  const std::string anaCode = f.codeFor(kAna);
  f.close();
  f.advance(5min);
  f.open();
  f.due();
  BOOST_TEST(offersTo(f, kBen) == 1);
  BOOST_TEST(offersTo(f, kAna) == 1);
  BOOST_TEST(offersTo(f, kMia) == 1);
  f.text(kAna, anaCode);
  BOOST_TEST(f.storedAssignee("s-jamal") == "p-ana");
}

BOOST_AUTO_TEST_CASE_TEMPLATE(theAbsentPersonSaysTheyAreHereAfterOffersWentOut, Site, Sites) {
  Site f;
  f.text(kRosa, "Jamal didn't show, I'm alone on the line");
  f.advance(3min);
  f.text(kJamal, "I'm here");
  BOOST_TEST(contains(f.lastTo(kJamal), "Thanks!"));
  BOOST_TEST(contains(f.lastTo(kRosa), "Jamal says they're here"));
  BOOST_TEST(contains(f.lastTo(kBen), "No cover needed anymore"));
  // A late code now finds nothing open.
  f.text(kBen, f.codeFor(kBen));
  BOOST_TEST(f.storedAssignee("s-jamal") == "p-jamal");
}

BOOST_AUTO_TEST_CASE_TEMPLATE(aSelfCallOutFindsTheSendersOwnShiftAndSaysNothingAboutWhy, Site,
                              Sites) {
  Site f;
  f.text(kJamal, "sick, can't come in today");
  BOOST_TEST(contains(f.lastTo(kJamal), "I'm finding cover for your line cook today 17:00-23:00"));
  BOOST_TEST(offersTo(f, kBen) == 1);
  for (const Entry& e : f.entries("callout.intent")) {
    for (const json::Value& w : e.body.asObject().at("matched").asArray()) {
      BOOST_TEST(w.asString() != "sick");
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(someoneOutTodayIsNotAskedToCoverAnotherShiftSoon, Site, Sites) {
  Site f;
  f.text(kRosa, "Jamal didn't show, I'm alone on the line");
  f.text(kBen, f.codeFor(kBen));
  f.advance(215min);  // 20:30
  f.text(kAna, "sick, can't come in");
  BOOST_TEST(contains(f.lastTo(kAna), "I'm finding cover for your line cook"), f.lastTo(kAna));
  BOOST_TEST(offersTo(f, kJamal) == 0);
  std::map<std::string, std::string> why;
  const json::Value wave = f.receiptWithId("callout-2-wave-1");
  for (const json::Value& n : wave.asObject().at("notOffered").asArray()) {
    why[n.asObject().at("person").asString()] = n.asObject().at("reason").asString();
  }
  BOOST_TEST(why["p-jamal"] == "out_today");
}

BOOST_AUTO_TEST_CASE_TEMPLATE(anUnclearReportAsksOneQuestionAndActsOnNothing, Site, Sites) {
  Site f;
  f.text(kRosa, "nobody came in for the line");
  BOOST_TEST(contains(f.lastTo(kRosa), "who isn't in?"), f.lastTo(kRosa));
  BOOST_TEST(offersTo(f, kBen) == 0);
  f.text(kRosa, "Jamal didn't show");
  BOOST_TEST(offersTo(f, kBen) == 1);
  // A second report of the same shift does not start a second search.
  f.text(kRosa, "Jamal still not here");
  BOOST_TEST(offersTo(f, kBen) == 1);
}

// Replies people can act on (the issue "Call-outs and texts", defect 5): what the assistant does
// not do is said plainly, a health word about a co-worker asks about them without repeating it,
// and nothing off-topic opens a call-out.
BOOST_AUTO_TEST_CASE_TEMPLATE(offTopicTextsGetHonestAnswersAndOpenNothing, Site, Sites) {
  Site f;
  f.text(kRosa, "who's the laziest cook here?");
  BOOST_TEST(f.lastTo(kRosa).find("I don't rate or compare people. ") == 0, f.lastTo(kRosa));
  BOOST_TEST(contains(f.lastTo(kRosa), "Kwame"), f.lastTo(kRosa));
  f.text(kRosa, "can you send me Ana's number?");
  BOOST_TEST(f.lastTo(kRosa).find("I can't share other people's numbers. Please ask Kwame") == 0,
             f.lastTo(kRosa));
  f.text(kRosa, " ");
  BOOST_TEST(f.lastTo(kRosa).find("Your text came through without words") == 0, f.lastTo(kRosa));
  f.text(kRosa, "you're useless 🙄");
  BOOST_TEST(f.lastTo(kRosa).find("I can help with call-outs") == 0, f.lastTo(kRosa));
  f.text(kRosa, "Jamal has covid");
  BOOST_TEST(f.lastTo(kRosa) ==
                 "Is Jamal out for their shift? If so, text \"Jamal isn't here\" and I'll find "
                 "cover.",
             f.lastTo(kRosa));
  BOOST_TEST(offersTo(f, kBen) == 0);
  f.text(kRosa, "Jamal isn't here");
  BOOST_TEST(offersTo(f, kBen) == 1);
}

// Over 1,600 characters (possible through the modem): the text is refused and not kept, and the
// sender hears once that it was too long (the issue "Call-outs and texts", defect 7).
BOOST_FIXTURE_TEST_CASE(aTextTooLongToReadIsAnsweredOnceAndActedOnNever, ServedSite) {
  const std::string tooLong = "Jamal didn't show. " + std::string(1700, 'x');
  text(kRosa, tooLong);
  BOOST_REQUIRE_EQUAL(textsTo(kRosa).size(), 1u);
  BOOST_TEST(lastTo(kRosa).find("Your text was too long for me to read (over 1,600 characters). "
                                "Please send a shorter one. To reach a person: Kwame") == 0,
             lastTo(kRosa));
  BOOST_TEST(offersTo(*this, kBen) == 0);
  BOOST_TEST(entries("sms.in.refused").size() == 1u);
  advance(10min);
  BOOST_TEST(textsTo(kRosa).size() == 1u);  // once
  text("+15559990000", tooLong);            // a number not on the roster: the usual reply
  BOOST_TEST(lastTo("+15559990000").find("automated staffing assistant") != std::string::npos);
  text(kRosa, "Jamal didn't show");  // the shorter one is read and acted on
  BOOST_TEST(textsTo(kRosa).size() == 2u);
  BOOST_TEST(entries("callout.open").size() == 1u);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(laterWavesPauseWhileTheKillSwitchFreezesWritesAndGoOnAfter, Site,
                              Sites) {
  Site f;
  f.text(kRosa, "Jamal didn't show, I'm alone on the line");
  f.setLevel(policy::KillSwitchLevel::kL2);
  f.advance(5min);
  f.due();
  BOOST_TEST(offersTo(f, kMia) == 0);
  BOOST_TEST(f.entries("callout.wave_paused").size() == 1u);
  f.setLevel(policy::KillSwitchLevel::kL0);
  f.advance(5min);
  f.due();
  BOOST_TEST(offersTo(f, kMia) == 1);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(
    inProposeModeAManagerWhoSaysNoToTheOffersStopsTheSearchAndTheLeadHears, Site, Sites) {
  Site f;
  f.setGraduation(policy::Graduation::kPropose);
  f.text(kRosa, "Jamal didn't show, I'm alone on the line");
  f.text(kKwame, "DENY 1");
  BOOST_TEST(contains(f.lastTo(kRosa), "Kwame decided not to send offers for line cook today"),
             f.lastTo(kRosa));
  f.advance(25min);
  f.due();
  BOOST_TEST(offersTo(f, kBen) == 0);
  BOOST_TEST(offersTo(f, kMia) == 0);
  BOOST_TEST(f.storedAssignee("s-jamal") == "p-jamal");
}

BOOST_AUTO_TEST_CASE_TEMPLATE(inProposeModeTheManagerApprovesTheOffersAndEachAssignment, Site,
                              Sites) {
  Site f;
  f.setGraduation(policy::Graduation::kPropose);
  f.text(kRosa, "Jamal didn't show, I'm alone on the line");
  BOOST_TEST(offersTo(f, kBen) == 0);
  BOOST_TEST(contains(f.lastTo(kKwame), "Approval 1: Jamal is out of line cook today 17:00-23:00"));
  BOOST_TEST(contains(f.lastTo(kRosa), "is asked to OK the offers"), f.lastTo(kRosa));
  BOOST_TEST(contains(f.lastTo(kRosa), "Kwame"), f.lastTo(kRosa));
  f.text(kKwame, "APPROVE 1");
  BOOST_TEST(offersTo(f, kBen) == 1);
  // The approval covers the call-out's later waves.
  f.advance(5min);
  f.due();
  BOOST_TEST(offersTo(f, kMia) == 1);
  // Taking it is a proposal too: nothing is written before the manager's second APPROVE.
  f.text(kBen, f.codeFor(kBen));
  BOOST_TEST(f.storedAssignee("s-jamal") == "p-jamal");
  // Ben has no hours this week: what is approved is the cover itself, with no word of overtime
  // or of premium pay.
  BOOST_TEST(f.lastTo(kBen) ==
             "Thanks! Kwame Asante confirms each cover before it's final. I'll text you as soon as "
             "they answer.");
  BOOST_TEST(f.lastTo(kKwame) ==
             "Approval 2: Ben can cover line cook today 17:00-23:00. Reply APPROVE 2 to give Ben "
             "the shift, or DENY 2.");
  f.text(kKwame, "APPROVE 2");
  BOOST_TEST(f.storedAssignee("s-jamal") == "p-ben");
  BOOST_TEST(contains(f.lastTo(kBen), "Approved: you're on line cook today 17:00-23:00"));
}

// docs/decisions/0018-who-approves-in-propose-mode.md: the offers are for the absent person's
// manager of record to approve, the cover for the taker's; the general manager only when there is
// none.
BOOST_FIXTURE_TEST_CASE(inProposeModeTheAbsentPersonsManagerOfRecordApprovesTheOffers, ServedSite) {
  setGraduation(policy::Graduation::kPropose);
  importChange([](site::SiteModel& m) {
    for (site::Person& p : m.people) {
      if (p.id == "p-jamal") p.managerOfRecord = "p-cleo";
    }
  });
  text(kRosa, "Jamal didn't show, I'm alone on the line");
  BOOST_TEST(contains(lastTo(kCleo), "Approval 1: Jamal is out of line cook today 17:00-23:00"),
             lastTo(kCleo));
  BOOST_TEST(textsTo(kKwame).empty());
  BOOST_TEST(contains(lastTo(kRosa), "Cleo Park is asked to OK the offers"), lastTo(kRosa));
  // The general manager cannot decide it in Cleo's place.
  text(kKwame, "APPROVE 1");
  BOOST_TEST(offersTo(*this, kBen) == 0);
  text(kCleo, "APPROVE 1");
  BOOST_TEST(offersTo(*this, kBen) == 1);
  // Ben's cover is Ben's manager of record's to approve: Kwame.
  text(kBen, codeFor(kBen));
  BOOST_TEST(contains(lastTo(kKwame), "Approval 2: Ben can cover"), lastTo(kKwame));
  BOOST_TEST(contains(lastTo(kBen), "Kwame Asante confirms each cover"), lastTo(kBen));
}

// Through the service only: the dispatcher and the provider's driver are what an outage tests.
BOOST_FIXTURE_TEST_CASE(theGatewayDownTenMinutesOffersGoOutWhenItReturnsNoneTwice, ServedSite) {
  provider.setOutage(drivers::twilio::FakeFailure::serverError());
  text(kRosa, "Jamal didn't show, I'm alone on the line");
  for (int minute = 0; minute < 10; ++minute) advance(1min);
  BOOST_TEST(provider.messages().empty());
  BOOST_TEST(provider.createRequests() > 3);  // it kept trying
  // Everything decided meanwhile is in the outbox: the lead's answer, the first wave, the second.
  provider.setOutage(std::nullopt);
  advance(2min);
  BOOST_TEST(offersTo(*this, kBen) == 1);
  BOOST_TEST(offersTo(*this, kAna) == 1);
  BOOST_TEST(offersTo(*this, kCleo) == 1);
  BOOST_TEST(offersTo(*this, kMia) == 1);
  BOOST_TEST(contains(lastTo(kRosa), "Finding cover for Jamal"));
  // Nothing twice, to anyone, even after more retries were due.
  advance(10min);
  std::map<std::string, int> seen;
  for (const drivers::twilio::FakeMessage& m : provider.messages()) {
    BOOST_TEST(++seen[m.to + "|" + m.body] == 1, m.to + ": " + m.body);
  }
  text(kCleo, codeFor(kCleo));
  BOOST_TEST(storedAssignee("s-jamal") == "p-cleo");
}

BOOST_FIXTURE_TEST_CASE(aShiftStartedWithoutAClockInAsksTheLeadOnDutyAndNothingElse, ServedSite) {
  advance(14min);  // 17:09, within the grace
  BOOST_TEST(textsTo(kRosa).empty());
  advance(1min);
  BOOST_TEST_REQUIRE(textsTo(kRosa).size() == 1u);
  BOOST_TEST(contains(lastTo(kRosa), "Jamal hasn't clocked in for line cook today 17:00-23:00 yet"),
             lastTo(kRosa));
  // Nothing else happens before the lead answers: no search, nobody else told.
  BOOST_TEST(offersTo(*this, kBen) == 0);
  BOOST_TEST(textsTo(kKwame).empty());
  BOOST_TEST(textsTo(kJamal).empty());
  const json::Object receipt = receiptWithId("noshow-s-jamal").asObject();
  BOOST_TEST(receipt.at("outcome").asString() == "asked");
  BOOST_TEST(receipt.at("askedAs").asString() == "lead_on_duty");
  advance(30min);
  BOOST_TEST(textsTo(kRosa).size() == 1u);  // once
  text(kRosa, "Jamal isn't here");
  BOOST_TEST(offersTo(*this, kBen) == 1);
}

BOOST_FIXTURE_TEST_CASE(aClockInAtTheTimeClockMeansNobodyIsAsked, ServedSite) {
  addTimeClock();
  advance(3min);
  punch("p-jamal", drivers::terminal::PunchKind::kClockIn, now());  // 16:58
  advance(30min);
  BOOST_TEST(textsTo(kRosa).empty());
  BOOST_TEST(entries("receipt").empty());
}

BOOST_FIXTURE_TEST_CASE(aBoxThatWasDownWhenTheGraceEndedAsksOnceWhenItIsBack, ServedSite) {
  close();
  advance(20min);  // 17:15: the grace ended at 17:10 while the service was down
  open();
  BOOST_TEST_REQUIRE(textsTo(kRosa).size() == 1u);
  BOOST_TEST(contains(lastTo(kRosa), "Jamal hasn't clocked in"));
  close();
  open();
  advance(5min);
  BOOST_TEST(textsTo(kRosa).size() == 1u);
}

// The trust budget in the flow (docs/decisions/0010-trust-budget-start-and-ceiling.md), through the
// service only: the policy subsystem keeps it.
BOOST_FIXTURE_TEST_CASE(inProposeModeAManagersApproveCreditsTheSchedulingBudget, ServedSite) {
  setGraduation(policy::Graduation::kPropose);
  text(kRosa, "Jamal didn't show, I'm alone on the line");
  BOOST_TEST(offersTo(*this, kBen) == 0);
  // The budget began at the configured level with the call-out's first bounded decision.
  auto begun = entries("graduation.changed");
  BOOST_REQUIRE_EQUAL(begun.size(), 1u);
  BOOST_TEST(field(begun[0], "cause") == "configured");
  BOOST_TEST(field(begun[0], "to") == "PROPOSE");
  BOOST_TEST(entries("trust.changed").empty());

  text(kKwame, "APPROVE 1");
  BOOST_TEST(offersTo(*this, kBen) == 1);
  auto credits = entries("trust.changed");
  BOOST_REQUIRE_EQUAL(credits.size(), 1u);
  BOOST_TEST(field(credits[0], "function") == "staffing_scheduling");
  BOOST_TEST(field(credits[0], "event") == "proposal_approved_unedited");
  BOOST_TEST(field(credits[0], "from") == "20");
  BOOST_TEST(field(credits[0], "to") == "22");
  BOOST_TEST(field(credits[0], "ref") == "approval-1");
  // Still PROPOSE: trust alone never advances a function, so taking it waits for the manager.
  text(kBen, codeFor(kBen));
  BOOST_TEST(storedAssignee("s-jamal") == "p-jamal");
  BOOST_TEST(contains(lastTo(kKwame), "Approval 2"));
}

// An override (seed 001 section 6): the manager turns the offers down on the API saying the box had
// the facts wrong. The proposal counts as declined and the override costs scheduling 3 trust.
BOOST_FIXTURE_TEST_CASE(inProposeModeADenialWithAReasonOnTheApiCostsTheSchedulingBudget,
                        ServedSite) {
  setGraduation(policy::Graduation::kPropose);
  addApi({{"p-kwame", kKwameToken}});
  text(kRosa, "Jamal didn't show, I'm alone on the line");
  const atoms::testing::ApiReply denied =
      atoms::testing::apiRequest(apiPort(), "POST", "/v1/approvals/1/decision", kKwameToken,
                                 R"({"decision":"deny","reason":"WRONG_FACTS"})");
  BOOST_TEST_REQUIRE(denied.status == 200, denied.body);
  due();  // the lead's text leaves through the outbox
  BOOST_TEST(offersTo(*this, kBen) == 0);
  BOOST_TEST(contains(lastTo(kRosa), "decided not to send offers"), lastTo(kRosa));  // she hears
  auto moves = entries("trust.changed");
  BOOST_REQUIRE_EQUAL(moves.size(), 1u);
  BOOST_TEST(field(moves[0], "function") == "staffing_scheduling");
  BOOST_TEST(field(moves[0], "event") == "override");
  BOOST_TEST(field(moves[0], "detail") == "WRONG_FACTS");
  BOOST_TEST(field(moves[0], "from") == "20");
  BOOST_TEST(field(moves[0], "to") == "17");
  BOOST_TEST(field(moves[0], "ref") == "approval-1");
}

BOOST_FIXTURE_TEST_CASE(anOwnerWhoNarrowsSchedulingToShadowGetsCallOutsRecordedNotSent,
                        ServedSite) {
  std::string refused = "not run";
  withPolicy([&](PolicySubsystem& policy) {
    auto narrowed = policy.regress("staffing_scheduling", policy::Graduation::kShadow,
                                   "trying it out", "panel:owner");
    refused = narrowed.ok() ? "" : narrowed.message();
  });
  BOOST_TEST(refused.empty(), refused);
  text(kRosa, "Jamal didn't show, I'm alone on the line");
  for (const char* phone : {kBen, kAna, kCleo, kMia}) BOOST_TEST(offersTo(*this, phone) == 0);
  // The general manager hears it at once, and the receipt says why nobody was asked.
  const json::Value receipt = receiptWithId("callout-1-escalate");
  const std::string why = receipt.asObject().at("why").asString();
  BOOST_TEST(contains(why, "record_only"), why);
  BOOST_TEST(contains(why, "SHADOW"), why);
  BOOST_TEST(storedAssignee("s-jamal") == "p-jamal");
  auto narrowed = entries("graduation.changed");
  BOOST_REQUIRE_EQUAL(narrowed.size(), 2u);
  BOOST_TEST(field(narrowed[1], "cause") == "owner_regression");
  BOOST_TEST(narrowed[1].actor == "panel:owner");
  // Still record-only after a restart: the budget is in the store.
  close();
  open();
  advance(5min);
  due();
  BOOST_TEST(offersTo(*this, kBen) == 0);
}

BOOST_FIXTURE_TEST_CASE(aSiteConfiguredAutonomousActsAutonomouslyFromItsFirstCallOut, ServedSite) {
  text(kRosa, "Jamal didn't show, I'm alone on the line");
  BOOST_TEST(offersTo(*this, kBen) == 1);
  text(kBen, codeFor(kBen));
  BOOST_TEST(storedAssignee("s-jamal") == "p-ben");
  auto begun = entries("graduation.changed");
  BOOST_REQUIRE_EQUAL(begun.size(), 1u);
  BOOST_TEST(field(begun[0], "to") == "AUTONOMOUS");
  BOOST_TEST(field(begun[0], "trust") == "60");
}

// Seed 001 EC-RISK-002: the owner sets L2 while an approval waits. The manager's APPROVE is kept,
// not acted on, and decided from scratch (who approves, the labor rules, expiry, the gate) once
// the freeze lifts.
BOOST_FIXTURE_TEST_CASE(anApproveSentDuringTheWriteFreezeWaitsAndIsDecidedAgainWhenItLifts,
                        ServedSite) {
  setWaveSize(4);
  text(kRosa, "Jamal isn't here");
  BOOST_TEST_REQUIRE(offersTo(*this, kMia) == 1);
  text(kMia, codeFor(kMia));
  BOOST_TEST_REQUIRE(contains(lastTo(kKwame), "Reply APPROVE 1 to give Mia the shift, or DENY 1"));
  setLevel(policy::KillSwitchLevel::kL2);
  text(kKwame, "APPROVE 1");
  BOOST_TEST(storedAssignee("s-jamal") == "p-jamal");
  BOOST_TEST(contains(lastTo(kKwame), "is paused right now"), lastTo(kKwame));
  BOOST_TEST(contains(lastTo(kKwame), "I've kept your message"));
  BOOST_TEST(entries("sms.parked_released").empty());
  setLevel(policy::KillSwitchLevel::kL0);
  BOOST_TEST(entries("sms.parked_released").size() == 1u);
  BOOST_TEST(storedAssignee("s-jamal") == "p-mia");
  BOOST_TEST(contains(lastTo(kMia), "Approved: you're on line cook today 17:00-23:00"));
}

// Seed 001 EC-RISK-005: a stop-like reply that is not a clear STOP pauses offers to that person
// (asked once, in-thread) until they say OFFERS ON; the wave's receipt says why they were skipped.
BOOST_FIXTURE_TEST_CASE(aSarcasticStopPausesBensOffersUntilHeSaysOffersOn, ServedSite) {
  text(kBen, "oh please, message me MORE");
  BOOST_TEST(contains(lastTo(kBen), "stop sending you"), lastTo(kBen));
  BOOST_TEST(contains(lastTo(kBen), "OFFERS ON"), lastTo(kBen));
  BOOST_TEST(entries("sms.offers_paused").size() == 1u);

  text(kRosa, "Jamal didn't show, I'm alone on the line");
  BOOST_TEST(offersTo(*this, kBen) == 0);
  BOOST_TEST(offersTo(*this, kAna) == 1);
  std::map<std::string, std::string> why;
  const json::Value wave = receiptWithId("callout-1-wave-1");
  for (const json::Value& n : wave.asObject().at("notOffered").asArray()) {
    why[n.asObject().at("person").asString()] = n.asObject().at("reason").asString();
  }
  BOOST_TEST(why["p-ben"] == "offers_paused");

  text(kBen, "OFFERS ON");
  BOOST_TEST(contains(lastTo(kBen), "shift offers are back on"), lastTo(kBen));
  BOOST_TEST(entries("sms.offers_resumed").size() == 1u);
  // The search's next wave offers to him again (bounded: at most an hour of simulated time).
  for (int i = 0; i < 12 && offersTo(*this, kBen) == 0; ++i) advance(5min);
  BOOST_TEST(offersTo(*this, kBen) == 1);
}

// What waited longer than 48 hours is withdrawn, never acted on late (seed 001 section 7).
BOOST_FIXTURE_TEST_CASE(aReportParkedLongerThanTwoDaysIsWithdrawnNotActedOnLate, ServedSite) {
  setLevel(policy::KillSwitchLevel::kL2);
  text(kRosa, "Jamal isn't here");
  BOOST_TEST(contains(lastTo(kRosa), "is paused right now"), lastTo(kRosa));
  BOOST_TEST(offersTo(*this, kBen) == 0);
  advance(49h);
  setLevel(policy::KillSwitchLevel::kL0);
  BOOST_TEST(entries("sms.parked_withdrawn").size() == 1u);
  BOOST_TEST(entries("sms.parked_released").empty());
  BOOST_TEST(offersTo(*this, kBen) == 0);
  // Rosa was told it would be picked up: she hears it was not, and what to do.
  BOOST_TEST(contains(lastTo(kRosa), "so I did not act on the message you sent then"),
             lastTo(kRosa));
  const std::size_t toRosa = textsTo(kRosa).size();
  close();
  open();
  BOOST_TEST(textsTo(kRosa).size() == toRosa);  // once
}

// Seed 001 section 7: at L2 and above the pause is announced in every active thread, with a
// person to reach; once per change, also across a restart. Those who did not write hear it when
// they do.
BOOST_FIXTURE_TEST_CASE(atL2PeopleInAnActiveThreadAreToldWhoToReach, ServedSite) {
  text(kBen, "HELP");
  const std::size_t before = textsTo(kBen).size();
  setLevel(policy::KillSwitchLevel::kL2);
  BOOST_TEST_REQUIRE(textsTo(kBen).size() == before + 1);
  BOOST_TEST(contains(lastTo(kBen),
                      "is paused for now. For anything about your shifts, please "
                      "contact Kwame"),
             lastTo(kBen));
  BOOST_TEST(textsTo(kCleo).empty());  // no thread: she hears it if she writes
  BOOST_TEST(entries("killswitch.announced").size() == 1u);
  close();
  open();
  BOOST_TEST(textsTo(kBen).size() == before + 1);
  BOOST_TEST(entries("killswitch.announced").size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
