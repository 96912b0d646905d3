// Every call-out text, in English and Spanish, passes the content lint (no discipline, health or
// ranking words) and names no reason for anyone's absence.
#include <boost/test/unit_test.hpp>

#include "daemon/callout/callout_texts.h"
#include "sms/text/content_lint.h"

using namespace atoms;
using namespace atoms::callout;

BOOST_AUTO_TEST_CASE(everyCalloutTextPassesTheContentLintInBothLanguages) {
  sms::ContentLint lint;
  const ShiftWords s{"line cook", "today", "17:00-23:00"};
  for (auto language :
       {sms::conversation::Language::kEnglish, sms::conversation::Language::kSpanish}) {
    ReplyContext c;
    c.language = language;
    c.site = "Bistro Maree";
    c.human = {"Kwame Asante", "+15551000009"};
    const std::vector<std::string> texts = {
        offerText(c, s, "4821"),
        searchingText(c, s, "Jamal", 3, false),
        searchingText(c, s, "Jamal", 1, true),
        nobodyEligibleText(c, s, "Kwame"),
        coveredText(c, s, "Ana"),
        youAreOnText(c, s),
        alreadyCoveredText(c),
        coveredNoLongerNeededText(c, s),
        declinedText(c),
        cannotTakeText(c),
        noLongerNeededText(c, s),
        stillWaitingText(c),
        waitingApprovalText(c, "Kwame"),
        approvalRequestText(c, 12, "Mia", s, 120, 6600),
        approvedText(c, s),
        notApprovedText(c),
        approvalRecordedText(c, 12, true),
        approvalRecordedText(c, 12, false),
        approvalClosedText(c, 12),
        approvalNotYoursText(c, 12),
        approvalSelfText(c, 12),
        approvalWhichText(c),
        escalationText(c, s, "Jamal", 4, 1234),
        stillSearchingText(c, s, "Kwame"),
        lateThanksText(c, "Rosa"),
        lateNoticeText(c, "Jamal", s, 15),
        arrivedThanksText(c, "Rosa"),
        arrivedNoticeText(c, "Jamal", s, ""),
        arrivedNoticeText(c, "Jamal", s, "Ana"),
        clarifyWhoText(c),
        clarifyWhatText(c),
        noShiftFoundText(c, "Jamal"),
        alreadySearchingText(c, s),
        calloutHelpText(c),
        possibleNoShowText(c, "Jamal", s),
    };
    for (const std::string& t : texts) {
      BOOST_TEST(!t.empty());
      BOOST_TEST(lint.check(t).empty(), t << " => " << sms::ContentLint::describe(lint.check(t)));
    }
  }
}
