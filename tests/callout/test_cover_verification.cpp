// Verification of the covers the box gives on its own (issue 7; domain/callout/cover_verifier.h):
// the pure verdict (cover_verdict.h), then each outcome through the real service wiring
// (ServedSite), where the policy subsystem keeps the trust budget. The site starts at 16:55; the
// absent cook's shift is 17:00-23:00 and staffing_scheduling is AUTONOMOUS (trust 60).
#include <algorithm>
#include <boost/test/unit_test.hpp>

#include "domain/callout/cover_verdict.h"
#include "tests/callout/callout_fixture.h"
#include "tests/callout/served_site.h"
#include "tests/support/fields.h"

using namespace atoms;
using namespace atoms::callout;
using namespace atoms::callout::testing;
using namespace std::chrono_literals;

namespace {

const TimePoint kStart = TimePoint(std::chrono::hours(24 * 20000));

CoverFacts facts(bool timeClocks) {
  CoverFacts f;
  f.timeClocks = timeClocks;
  f.clockInDeadline = kStart + 10min;
  f.shiftEnd = kStart + 6h;
  return f;
}

using atoms::testing::field;

int countContaining(const std::vector<std::string>& texts, const std::string& part) {
  return static_cast<int>(std::count_if(texts.begin(), texts.end(), [&](const std::string& t) {
    return t.find(part) != std::string::npos;
  }));
}

// Rosa reports Jamal, Ben takes the first offer: the gate gives it on its own (AUTONOMOUS).
void benCovers(ServedSite& site) {
  site.text(kRosa, "Jamal didn't show, I'm alone on the line");
  site.text(kBen, site.codeFor(kBen));
  BOOST_TEST_REQUIRE(site.storedAssignee("s-jamal") == "p-ben");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cover_verdict)

BOOST_AUTO_TEST_CASE(withTimeClocksItWaitsForTheDeadlineThenAClockInVerifies) {
  CoverFacts f = facts(true);
  f.clockIn = kStart - 5min;
  BOOST_TEST((judgeCover(f, kStart + 9min).verdict == CoverVerdict::kPending));
  const CoverJudgement j = judgeCover(f, kStart + 10min);
  BOOST_TEST((j.verdict == CoverVerdict::kVerified));
  BOOST_TEST(j.reason == "clocked_in");
}

BOOST_AUTO_TEST_CASE(withTimeClocksNoClockInWaitsForTheShiftsEndALateOneVerifiesNoneIsAMismatch) {
  const CoverFacts none = facts(true);
  BOOST_TEST((coverDue(none, kStart) == kStart + 10min));
  BOOST_TEST((coverDue(none, kStart + 10min) == kStart + 6h));  // the lead is asked meanwhile
  BOOST_TEST((judgeCover(none, kStart + 10min).verdict == CoverVerdict::kPending));
  const CoverJudgement missing = judgeCover(none, kStart + 6h);
  BOOST_TEST((missing.verdict == CoverVerdict::kMismatch));
  BOOST_TEST(missing.reason == "no_clock_in");
  CoverFacts late = facts(true);
  late.clockIn = kStart + 25min;  // they came, late: nothing needed putting right
  BOOST_TEST((judgeCover(late, kStart + 30min).verdict == CoverVerdict::kPending));
  const CoverJudgement j = judgeCover(late, kStart + 6h);
  BOOST_TEST((j.verdict == CoverVerdict::kVerified));
  BOOST_TEST(j.reason == "clocked_in_late");
}

BOOST_AUTO_TEST_CASE(aNewCalloutAboutTheShiftIsAMismatchAtOnceEvenAfterAClockIn) {
  for (bool clocks : {true, false}) {
    CoverFacts f = facts(clocks);
    f.clockIn = kStart;
    f.laterCallout = 7;
    const CoverJudgement j = judgeCover(f, kStart - 30min);
    BOOST_TEST((j.verdict == CoverVerdict::kMismatch));
    BOOST_TEST(j.reason == "new_callout");
  }
}

BOOST_AUTO_TEST_CASE(withoutTimeClocksTheShiftsEndWithoutComplaintVerifies) {
  const CoverFacts f = facts(false);
  BOOST_TEST((coverDue(f, kStart) == kStart + 6h));
  BOOST_TEST((judgeCover(f, kStart + 5h).verdict == CoverVerdict::kPending));
  const CoverJudgement j = judgeCover(f, kStart + 6h);
  BOOST_TEST((j.verdict == CoverVerdict::kVerified));
  BOOST_TEST(j.reason == "no_complaint");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(cover_verification_served)

BOOST_FIXTURE_TEST_CASE(aCoverWhoClockedInInTimeCreditsSchedulingOnce, ServedSite) {
  addTimeClock();
  benCovers(*this);
  punch("p-ben", drivers::terminal::PunchKind::kClockIn, now());
  advance(14min);  // 17:09: the grace has not ended
  BOOST_TEST(entries("callout.verification").empty());
  advance(1min);
  auto judged = entries("callout.verification");
  BOOST_REQUIRE_EQUAL(judged.size(), 1u);
  BOOST_TEST(field(judged[0], "outcome") == "verified");
  BOOST_TEST(field(judged[0], "reason") == "clocked_in");
  BOOST_TEST(field(judged[0], "person") == "p-ben");
  BOOST_TEST(field(judged[0], "evidence").find("site_punch:p-ben@") == 0u);
  auto credits = entries("trust.changed");
  BOOST_REQUIRE_EQUAL(credits.size(), 1u);
  BOOST_TEST(field(credits[0], "event") == "autonomous_verified");
  BOOST_TEST(field(credits[0], "from") == "60");
  BOOST_TEST(field(credits[0], "to") == "61");
  BOOST_TEST(field(credits[0], "ref") == "callout-1");
  BOOST_TEST(countContaining(textsTo(kRosa), "hasn't clocked in") == 0);
  advance(7h);
  BOOST_TEST(entries("callout.verification").size() == 1u);
}

BOOST_FIXTURE_TEST_CASE(aCoverWhoDidNotClockInIsAMismatchAndTheLeadIsAskedOnce, ServedSite) {
  addTimeClock();
  benCovers(*this);
  advance(15min);  // 17:10: the grace ended without Ben's clock-in: the lead is asked
  BOOST_TEST(countContaining(textsTo(kRosa), "Ben hasn't clocked in for line cook") == 1);
  BOOST_TEST(entries("callout.verification").empty());  // he may still come
  advance(6h);  // 23:10: the shift ended and he never clocked in
  auto judged = entries("callout.verification");
  BOOST_REQUIRE_EQUAL(judged.size(), 1u);
  BOOST_TEST(field(judged[0], "outcome") == "mismatch");
  BOOST_TEST(field(judged[0], "reason") == "no_clock_in");
  auto debits = entries("trust.changed");
  BOOST_REQUIRE_EQUAL(debits.size(), 1u);
  BOOST_TEST(field(debits[0], "event") == "verification_mismatch");
  BOOST_TEST(field(debits[0], "to") == "55");
  close();
  open();
  advance(10min);
  BOOST_TEST(countContaining(textsTo(kRosa), "Ben hasn't clocked in") == 1);
  BOOST_TEST(entries("callout.verification").size() == 1u);
  BOOST_TEST(entries("trust.changed").size() == 1u);
}

BOOST_FIXTURE_TEST_CASE(aCoverWhoCameLateIsVerifiedAtTheShiftsEnd, ServedSite) {
  addTimeClock();
  benCovers(*this);
  advance(16min);  // 17:11: no clock-in by the deadline (17:10), the lead was asked
  BOOST_TEST(countContaining(textsTo(kRosa), "Ben hasn't clocked in") == 1);
  BOOST_TEST(entries("callout.verification").empty());
  punch("p-ben", drivers::terminal::PunchKind::kClockIn, now());
  advance(6h);
  auto judged = entries("callout.verification");
  BOOST_REQUIRE_EQUAL(judged.size(), 1u);
  BOOST_TEST(field(judged[0], "outcome") == "verified");
  BOOST_TEST(field(judged[0], "reason") == "clocked_in_late");
  auto credits = entries("trust.changed");
  BOOST_REQUIRE_EQUAL(credits.size(), 1u);
  BOOST_TEST(field(credits[0], "event") == "autonomous_verified");
}

BOOST_FIXTURE_TEST_CASE(withoutATimeClockAShiftThatEndedWithoutComplaintCredits, ServedSite) {
  benCovers(*this);
  advance(6h);  // 22:55
  BOOST_TEST(entries("callout.verification").empty());
  advance(5min);  // 23:00: the shift ended, nobody reported Ben missing
  auto judged = entries("callout.verification");
  BOOST_REQUIRE_EQUAL(judged.size(), 1u);
  BOOST_TEST(field(judged[0], "outcome") == "verified");
  BOOST_TEST(field(judged[0], "reason") == "no_complaint");
  auto credits = entries("trust.changed");
  BOOST_REQUIRE_EQUAL(credits.size(), 1u);
  BOOST_TEST(field(credits[0], "event") == "autonomous_verified");
}

BOOST_FIXTURE_TEST_CASE(aNewCalloutAboutACoveredShiftIsAMismatch, ServedSite) {
  benCovers(*this);
  advance(16min);  // 17:11: the lead was asked about Ben
  BOOST_TEST(countContaining(textsTo(kRosa), "Ben hasn't clocked in") == 1);
  BOOST_TEST(entries("callout.verification").empty());
  text(kRosa, "Ben isn't here");
  BOOST_TEST(lastTo(kRosa).find("Finding cover for Ben") != std::string::npos, lastTo(kRosa));
  auto judged = entries("callout.verification");
  BOOST_REQUIRE_EQUAL(judged.size(), 1u);
  BOOST_TEST(field(judged[0], "outcome") == "mismatch");
  BOOST_TEST(field(judged[0], "reason") == "new_callout");
  BOOST_TEST(field(judged[0], "evidence") == "callout:2");
  auto debits = entries("trust.changed");
  BOOST_REQUIRE_EQUAL(debits.size(), 1u);
  BOOST_TEST(field(debits[0], "event") == "verification_mismatch");
  advance(7h);
  BOOST_TEST(entries("callout.verification").size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
