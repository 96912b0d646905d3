#include <boost/test/unit_test.hpp>

// Safety reports end to end in the conversation layer (sms/conversation/safety_desk.h): the
// reporter is answered with the emergency number first, the manager of record and the safety
// contact are alerted at once (at night, under an outreach freeze, without consent on file),
// reminded on the clock until one of them replies ACK, and everyone hears who is on it; an ACK
// from anyone else changes nothing. Texts are checked against the content lint like any other.
#include <chrono>
#include <string>
#include <vector>

#include "sms/conversation/safety_desk.h"
#include "sms/text/content_lint.h"
#include "tests/sms/conversation/conversation_fixture.h"
#include "tests/support/fields.h"
#include "tests/support/text_checks.h"

namespace atoms::sms::conversation {
namespace {

using namespace std::chrono_literals;
using testing::ConversationFixture;
using testing::kAna;
using testing::kDana;
using testing::kLuis;
using testing::kSam;
using testing::kStranger;

using atoms::testing::contains;

std::string lastBody(ConversationFixture& f, const std::string& to) {
  auto rows = f.outboxTo(to);
  BOOST_REQUIRE(!rows.empty());
  return rows.back().body;
}

using atoms::testing::intField;

BOOST_FIXTURE_TEST_CASE(aReportAtNightUnderAFreezeAlertsEveryoneAndAnswersWith911First,
                        ConversationFixture) {
  setLocal(0, 23, 30);  // quiet hours
  outreach->setOutreachFrozen(true);
  text(kAna, "Fire in the kitchen, the hood is smoking");

  const std::string answer = lastBody(*this, kAna);
  BOOST_TEST(answer.rfind("If anyone is in danger, call 911 now.", 0) == 0u, answer);
  BOOST_TEST(contains(answer, "Dana Lee and Sam Ortiz"), answer);
  for (const char* who : {kDana, kSam}) {
    const std::string alert = lastBody(*this, who);
    BOOST_TEST(contains(alert,
                        "Safety alert at Bistro Maree: Ana at +15551230001 reported fire "
                        "or smoke."),
               alert);
    BOOST_TEST(contains(alert, "Reply ACK 1 when someone is handling it."), alert);
    BOOST_TEST(!contains(alert, "kitchen"));  // the reporter's words are not passed on
    BOOST_TEST(ContentLint().check(alert).empty());
  }
  const auto packets = entries("safety.packet");
  BOOST_REQUIRE_EQUAL(packets.size(), 1u);
  BOOST_TEST(packets[0].body.find("class")->asString() == "HUMAN_ONLY");
  BOOST_TEST(packets[0].body.find("category")->asString() == "fire");
  BOOST_TEST(entries("safety.alert").size() == 1u);
}

BOOST_FIXTURE_TEST_CASE(remindersRunOnTheClockUntilAPersonAlertedAcknowledges,
                        ConversationFixture) {
  text(kLuis, "Hay fuego en la cocina");
  BOOST_TEST(lastBody(*this, kLuis).rfind("Si alguien está en peligro, llama al 911", 0) == 0u);
  auto next = safety->nextRealert();
  BOOST_REQUIRE(next && *next);
  BOOST_TEST((**next == clock.now() + 5min));

  clock.advance(4min);
  BOOST_TEST(*safety->realertDue(clock.now()) == 0);
  clock.advance(1min);
  BOOST_TEST(*safety->realertDue(clock.now()) == 1);
  BOOST_TEST(outboxTo(kDana).size() == 2u);
  BOOST_TEST(contains(lastBody(*this, kDana), "Still open: safety alert 1 at Bistro Maree"));

  // Someone who was not alerted cannot close it.
  text(kAna, "ACK 1");
  BOOST_TEST(contains(lastBody(*this, kAna), "can only be closed by the people it was sent to"));
  BOOST_TEST(entries("safety.ack_refused").size() == 1u);

  // The safety contact acknowledges: no more reminders, everyone is told.
  receive(kSam, "ack 1");
  handle();
  BOOST_TEST(contains(lastBody(*this, kSam), "marked as being handled by you"));
  BOOST_TEST(contains(lastBody(*this, kDana), "Safety alert 1 is being handled by +15550100300"));
  BOOST_TEST(contains(lastBody(*this, kLuis), "se está ocupando ahora"));
  const auto acks = entries("safety.acknowledge");
  BOOST_REQUIRE_EQUAL(acks.size(), 1u);
  BOOST_TEST(intField(acks[0].body, "rounds") == 2);
  BOOST_TEST(!*safety->nextRealert());
  clock.advance(1h);
  BOOST_TEST(*safety->realertDue(clock.now()) == 0);
  BOOST_TEST(outboxTo(kDana).size() == 3u);  // alert, reminder, who is on it

  // A second ACK finds nothing open.
  receive(kDana, "ACK 1");
  handle();
  BOOST_TEST(contains(lastBody(*this, kDana), "There is no open safety alert 1"));
}

BOOST_FIXTURE_TEST_CASE(aSecondReportJoinsTheOpenIncidentAndStrangersAreHeardToo,
                        ConversationFixture) {
  text(kStranger, "a man has a gun at the counter");
  BOOST_TEST(
      contains(lastBody(*this, kDana), "+15559990000 reported a fight, a threat or a weapon"));
  text(kStranger, "he is still here");  // not a report by itself: ordinary handling
  text(kStranger, "SAFETY he pulled it out");
  BOOST_TEST(contains(lastBody(*this, kStranger), "The alert is out"));
  BOOST_TEST(entries("safety.packet").size() == 1u);
  BOOST_TEST(entries("safety.report_more").size() == 1u);
  BOOST_TEST(outboxTo(kDana).size() == 1u);  // no second round of alerts
}

BOOST_FIXTURE_TEST_CASE(theReporterHearsOnlyWhoAnAlertIsOnItsWayTo, ConversationFixture) {
  text(kSam, "STOP");  // the safety contact opted out: only an opt-out stops a safety alert
  text(kAna, "smells like gas in the back");
  const std::string answer = lastBody(*this, kAna);
  BOOST_TEST(contains(answer, "I've alerted Dana Lee and will keep trying"), answer);
  BOOST_TEST(!contains(answer, "Sam"), answer);
  BOOST_TEST(outboxTo(kSam).size() == 1u);  // the opt-out confirmation, nothing more
  BOOST_TEST(entries("safety.unrouted").empty());

  text(kDana, "STOP");
  text(kLuis, "SAFETY the back door alarm is broken");
  const std::string nobody = lastBody(*this, kLuis);
  BOOST_TEST(contains(nobody, "No pude avisar a nadie por mensaje"), nobody);
  BOOST_TEST(entries("safety.unrouted").size() == 1u);
}

BOOST_FIXTURE_TEST_CASE(theAlertIsSentOnceAcrossARestartInTheMiddle, ConversationFixture) {
  receive(kAna, "someone fell off the ladder, bleeding");
  close();  // before the message was handled
  open();
  handle();
  handle();
  BOOST_TEST(outboxTo(kDana).size() == 1u);
  BOOST_TEST(outboxTo(kSam).size() == 1u);
  BOOST_TEST(contains(lastBody(*this, kDana), "reported that someone may be hurt"));
  BOOST_TEST(entries("safety.packet").size() == 1u);
}

}  // namespace
}  // namespace atoms::sms::conversation
