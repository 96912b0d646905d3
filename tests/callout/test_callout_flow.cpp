// The call-out scenarios of issue 6 over the desk, the SMS conversation layer, the labor rules and
// the policy gate (tests/callout/callout_fixture.h).
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <map>

#include "sms/text/content_lint.h"
#include "tests/callout/callout_fixture.h"

using namespace atoms;
using namespace atoms::callout;
using namespace atoms::callout::testing;
using namespace std::chrono_literals;

namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

int offersTo(CalloutFixture& f, const std::string& phone) {
  const auto all = f.textsTo(phone);
  return static_cast<int>(std::count_if(
      all.begin(), all.end(), [](const std::string& t) { return contains(t, "to take it"); }));
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(callout_flow, CalloutFixture)

BOOST_AUTO_TEST_CASE(aLeadsNoShowTextGetsCertifiedLegalCoverConfirmedWithReceipts) {
  text(kRosa, "Jamal didn't show, I'm alone on the line");
  // The first wave: the three clean candidates, fewest hours first.
  BOOST_TEST(offersTo(*this, kBen) == 1);
  BOOST_TEST(offersTo(*this, kAna) == 1);
  BOOST_TEST(offersTo(*this, kCleo) == 1);
  // Never: the 15-year-old past their legal hours, no consent, no card, the absent, the busy lead.
  for (const char* never : {kTom, kLea, kZed, kJamal, kMia, kKwame}) {
    BOOST_TEST(offersTo(*this, never) == 0, never);
  }
  BOOST_TEST(contains(lastTo(kRosa), "Finding cover for Jamal"));
  BOOST_TEST(contains(lastTo(kRosa), "3 people"));
  BOOST_TEST(contains(lastTo(kBen), "line cook today 17:00-23:00"));

  advance(1min);
  text(kAna, codeFor(kAna));
  BOOST_TEST(storedAssignee("s-jamal") == "p-ana");
  BOOST_TEST(contains(lastTo(kAna), "You're on: line cook today 17:00-23:00"));
  BOOST_TEST(contains(lastTo(kBen), "is covered now"));
  BOOST_TEST(contains(lastTo(kCleo), "is covered now"));
  BOOST_TEST(contains(lastTo(kRosa), "Covered: Ana will work line cook today 17:00-23:00"));

  // The receipt of the assignment carries the labor evaluations and the gate's decision.
  json::Value receipt = receiptWithId("callout-1-assign");
  const json::Array& evaluations = receipt.asObject().at("ruleEvaluations").asArray();
  BOOST_TEST(evaluations.size() > 3u);
  BOOST_TEST(std::any_of(evaluations.begin(), evaluations.end(), [](const json::Value& e) {
    return e.asObject().at("ruleId").asString() == "policy.gate";
  }));
  BOOST_TEST(receipt.asObject().at("outcome").asString() == "assigned");
  // The offers' ranking and who was not offered, and why, are on the wave's receipt.
  json::Value wave = receiptWithId("callout-1-wave-1");
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
  auto handoffs = entries("handoff.checkin");
  BOOST_TEST_REQUIRE(handoffs.size() == 1u);
  BOOST_TEST(handoffs[0].body.asObject().at("person").asString() == "p-jamal");
  BOOST_TEST(entries("discipline.record").empty());

  // Nothing sent reads as discipline, health or a ranking of people.
  sms::ContentLint lint;
  for (const char* phone : {kRosa, kAna, kBen, kCleo}) {
    for (const std::string& t : textsTo(phone)) BOOST_TEST(lint.check(t).empty(), t);
  }
}

BOOST_AUTO_TEST_CASE(nobodyAnswersTheNextWavesGoOutAndTheGeneralManagerIsToldAtTwentyMinutes) {
  text(kRosa, "Jamal didn't show, I'm alone on the line");
  advance(5min);
  BOOST_TEST(due() == 1);
  // The second wave: the only one left, who would be owed overtime.
  BOOST_TEST(offersTo(*this, kMia) == 1);
  BOOST_TEST(offersTo(*this, kBen) == 1);  // nobody twice
  advance(10min);
  due();
  BOOST_TEST(textsTo(kKwame).empty());
  advance(5min);
  due();
  BOOST_TEST_REQUIRE(textsTo(kKwame).size() == 1u);
  BOOST_TEST(contains(lastTo(kKwame), "still no cover for line cook today 17:00-23:00"));
  BOOST_TEST(contains(lastTo(kKwame), "Receipt "));
  BOOST_TEST(contains(lastTo(kRosa), "I've told Kwame"));
  // The escalation's receipt counts the four offers made (three, then the one left).
  BOOST_TEST(receiptWithId("callout-1-escalate").asObject().at("offers").asInt() == 4);
  // Once only.
  advance(5min);
  due();
  BOOST_TEST(textsTo(kKwame).size() == 1u);
}

BOOST_AUTO_TEST_CASE(twoAcceptInTheSameSecondExactlyOneGetsTheShift) {
  text(kRosa, "Jamal didn't show, I'm alone on the line");
  textsTogether({{kBen, codeFor(kBen)}, {kAna, codeFor(kAna)}});
  BOOST_TEST(storedAssignee("s-jamal") == "p-ben");
  BOOST_TEST(contains(lastTo(kBen), "You're on"));
  BOOST_TEST(contains(lastTo(kAna), "already covered"));
  BOOST_TEST(receiptWithId("callout-1-assign").asObject().at("person").asString() == "p-ben");
  int assigned = 0;
  for (const Entry& e : entries("receipt")) {
    assigned += e.body.asObject().at("outcome").asString() == "assigned" ? 1 : 0;
  }
  BOOST_TEST(assigned == 1);
}

BOOST_AUTO_TEST_CASE(overtimeWaitsForTheManagerOfRecordThenApprovedGivesTheShift) {
  settings.waveSize = 4;
  close();
  open();
  text(kRosa, "Jamal didn't show");
  BOOST_TEST_REQUIRE(offersTo(*this, kMia) == 1);
  text(kMia, codeFor(kMia));
  BOOST_TEST(storedAssignee("s-jamal") == "p-jamal");  // nothing before approval
  BOOST_TEST(contains(lastTo(kMia), "Kwame Asante needs to OK it"));
  const std::string ask = lastTo(kKwame);
  BOOST_TEST(contains(ask, "Approval 1: Mia can cover line cook today 17:00-23:00"));
  BOOST_TEST(contains(ask, "Reply APPROVE 1 or DENY 1"));
  // Not the person it is about, not someone else's number.
  text(kMia, "APPROVE 1");
  BOOST_TEST(contains(lastTo(kMia), "is about you"));
  text(kRosa, "APPROVE 1");
  BOOST_TEST(contains(lastTo(kRosa), "Only the manager of record"));
  BOOST_TEST(entries("approval.refused").size() == 2u);
  BOOST_TEST(storedAssignee("s-jamal") == "p-jamal");
  text(kKwame, "APPROVE 1");
  BOOST_TEST(storedAssignee("s-jamal") == "p-mia");
  BOOST_TEST(contains(lastTo(kMia), "Approved: you're on line cook today 17:00-23:00"));
  BOOST_TEST(contains(lastTo(kRosa), "Covered: Mia"));
  json::Value receipt = receiptWithId("callout-1-assign");
  BOOST_TEST(receipt.asObject().at("premiumMinutes").asInt() > 0);
}

BOOST_AUTO_TEST_CASE(overtimeDeniedLeavesTheShiftOpenAndTellsThePersonKindly) {
  settings.waveSize = 4;
  close();
  open();
  text(kRosa, "Jamal didn't show");
  text(kMia, codeFor(kMia));
  text(kKwame, "DENY 1 budget");
  BOOST_TEST(storedAssignee("s-jamal") == "p-jamal");
  BOOST_TEST(contains(lastTo(kMia), "wasn't approved"));
  // The others can still take it.
  text(kBen, codeFor(kBen));
  BOOST_TEST(storedAssignee("s-jamal") == "p-ben");
}

BOOST_AUTO_TEST_CASE(aCandidateWhoTextsStopIsNotOfferedAgain) {
  settings.waveSize = 1;
  close();
  open();
  text(kRosa, "Jamal didn't show");
  BOOST_TEST(offersTo(*this, kBen) == 1);
  text(kAna, "STOP");
  advance(5min);
  due();
  BOOST_TEST(offersTo(*this, kAna) == 0);
  BOOST_TEST(offersTo(*this, kCleo) == 1);
}

BOOST_AUTO_TEST_CASE(atKillSwitchL1OffersAreHeldAndOnlyTheLeadsThreadGetsAnswers) {
  policy.level = policy::KillSwitchLevel::kL1;
  outreach->setOutreachFrozen(true);
  text(kRosa, "Jamal didn't show, I'm alone on the line");
  BOOST_TEST(offersTo(*this, kBen) == 0);
  BOOST_TEST(heldTo(kBen) == 1);
  BOOST_TEST(contains(lastTo(kRosa), "Finding cover for Jamal"));
  // Released when the freeze lifts, once.
  policy.level = policy::KillSwitchLevel::kL0;
  outreach->setOutreachFrozen(false);
  auto released = outreach->releaseDue(now());
  BOOST_TEST_REQUIRE(released.ok());
  BOOST_TEST(offersTo(*this, kBen) == 1);
}

BOOST_AUTO_TEST_CASE(aRestartMidFlowResumesFromTheStoreWithoutDuplicateOffers) {
  text(kRosa, "Jamal didn't show, I'm alone on the line");
  const std::string anaCode = codeFor(kAna);
  close();
  advance(5min);
  open();
  due();
  BOOST_TEST(offersTo(*this, kBen) == 1);
  BOOST_TEST(offersTo(*this, kAna) == 1);
  BOOST_TEST(offersTo(*this, kMia) == 1);
  text(kAna, anaCode);
  BOOST_TEST(storedAssignee("s-jamal") == "p-ana");
}

BOOST_AUTO_TEST_CASE(theAbsentPersonSaysTheyAreHereAfterOffersWentOut) {
  text(kRosa, "Jamal didn't show, I'm alone on the line");
  advance(3min);
  text(kJamal, "I'm here");
  BOOST_TEST(contains(lastTo(kJamal), "Thanks!"));
  BOOST_TEST(contains(lastTo(kRosa), "Jamal says they're here"));
  BOOST_TEST(contains(lastTo(kBen), "No cover needed anymore"));
  // A late code now finds nothing open.
  text(kBen, codeFor(kBen));
  BOOST_TEST(storedAssignee("s-jamal") == "p-jamal");
}

BOOST_AUTO_TEST_CASE(aSelfCallOutFindsTheSendersOwnShiftAndSaysNothingAboutWhy) {
  text(kJamal, "sick, can't come in today");
  BOOST_TEST(contains(lastTo(kJamal), "I'm finding cover for your line cook today 17:00-23:00"));
  BOOST_TEST(offersTo(*this, kBen) == 1);
  for (const Entry& e : entries("callout.intent")) {
    for (const json::Value& w : e.body.asObject().at("matched").asArray()) {
      BOOST_TEST(w.asString() != "sick");
    }
  }
}

BOOST_AUTO_TEST_CASE(anUnclearReportAsksOneQuestionAndActsOnNothing) {
  text(kRosa, "nobody came in for the line");
  BOOST_TEST(contains(lastTo(kRosa), "who isn't in?"), lastTo(kRosa));
  BOOST_TEST(offersTo(*this, kBen) == 0);
  text(kRosa, "Jamal didn't show");
  BOOST_TEST(offersTo(*this, kBen) == 1);
  // A second report of the same shift does not start a second search.
  text(kRosa, "Jamal still not here");
  BOOST_TEST(offersTo(*this, kBen) == 1);
}

BOOST_AUTO_TEST_CASE(laterWavesPauseWhileTheKillSwitchFreezesWritesAndGoOnAfter) {
  text(kRosa, "Jamal didn't show, I'm alone on the line");
  policy.level = policy::KillSwitchLevel::kL2;
  advance(5min);
  due();
  BOOST_TEST(offersTo(*this, kMia) == 0);
  BOOST_TEST(entries("callout.wave_paused").size() == 1u);
  policy.level = policy::KillSwitchLevel::kL0;
  advance(5min);
  due();
  BOOST_TEST(offersTo(*this, kMia) == 1);
}

BOOST_AUTO_TEST_CASE(inProposeModeTheManagerApprovesTheOffersAndEachAssignment) {
  policy.graduation["staffing_scheduling"] = policy::Graduation::kPropose;
  text(kRosa, "Jamal didn't show, I'm alone on the line");
  BOOST_TEST(offersTo(*this, kBen) == 0);
  BOOST_TEST(contains(lastTo(kKwame), "Approval 1: Jamal is out of line cook today 17:00-23:00"));
  BOOST_TEST(contains(lastTo(kRosa), "Kwame is asked to OK the offers"), lastTo(kRosa));
  text(kKwame, "APPROVE 1");
  BOOST_TEST(offersTo(*this, kBen) == 1);
  // The approval covers the call-out's later waves.
  advance(5min);
  due();
  BOOST_TEST(offersTo(*this, kMia) == 1);
  // Taking it is a proposal too: nothing is written before the manager's second APPROVE.
  text(kBen, codeFor(kBen));
  BOOST_TEST(storedAssignee("s-jamal") == "p-jamal");
  BOOST_TEST(contains(lastTo(kKwame), "Approval 2: Ben can cover line cook today 17:00-23:00"));
  text(kKwame, "APPROVE 2");
  BOOST_TEST(storedAssignee("s-jamal") == "p-ben");
  BOOST_TEST(contains(lastTo(kBen), "Approved: you're on line cook today 17:00-23:00"));
}

BOOST_AUTO_TEST_SUITE_END()
