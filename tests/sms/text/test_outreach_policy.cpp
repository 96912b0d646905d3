#include <boost/test/unit_test.hpp>
#include <chrono>

#include "sms/outreach/outreach_policy.h"

using namespace atoms::sms;
using namespace std::chrono;

namespace {

constexpr local_days kDay = local_days{year{2024} / May / 2};

local_seconds at(int hour, int minute, local_days day = kDay) {
  return day + hours(hour) + minutes(minute);
}

// A consenting person, no messages today, who last wrote 10 minutes ago, at 12:00.
OutreachInput input(MessageClass kind, local_seconds now = at(12, 0)) {
  OutreachInput in;
  in.message.kind = kind;
  in.recipient.smsConsent = true;
  in.recipient.sinceLastInbound = minutes(10);
  in.now = now;
  return in;
}

using V = OutreachVerdict;
using R = OutreachReason;

void expect(const OutreachDecision& d, V verdict, R reason) {
  BOOST_TEST((d.verdict == verdict), d.explanation);
  BOOST_TEST((d.reason == reason), outreachReasonCode(d.reason) << ": " << d.explanation);
  BOOST_TEST(!d.explanation.empty());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(outreach_policy)

BOOST_AUTO_TEST_CASE(sendsAnOfferInsideHoursAndCountsIt) {
  const auto d = decideOutreach(input(MessageClass::kOffer));
  expect(d, V::kSendNow, R::kAllowed);
  BOOST_TEST(d.countsTowardCap);
}

BOOST_AUTO_TEST_CASE(quietHoursStartAt2100Sharp) {
  expect(decideOutreach(input(MessageClass::kOffer, at(20, 59))), V::kSendNow, R::kAllowed);
  const auto d = decideOutreach(input(MessageClass::kOffer, at(21, 0)));
  expect(d, V::kHold, R::kQuietHours);
  BOOST_REQUIRE(d.holdUntil.has_value());
  BOOST_TEST((*d.holdUntil == at(8, 0, kDay + days(1))));
  BOOST_TEST(d.explanation == "held until 2024-05-03 08:00: quiet hours 21:00-08:00 at this site");
}

BOOST_AUTO_TEST_CASE(quietHoursEndAt0800Sharp) {
  const auto early = decideOutreach(input(MessageClass::kNotice, at(7, 59)));
  expect(early, V::kHold, R::kQuietHours);
  BOOST_TEST((*early.holdUntil == at(8, 0)));
  BOOST_TEST(early.explanation == "held until 08:00: quiet hours 21:00-08:00 at this site");
  expect(decideOutreach(input(MessageClass::kNotice, at(8, 0))), V::kSendNow, R::kAllowed);
  expect(decideOutreach(input(MessageClass::kNotice, at(0, 0))), V::kHold, R::kQuietHours);
}

BOOST_AUTO_TEST_CASE(honoursDaytimeQuietHoursAndNone) {
  auto in = input(MessageClass::kOffer, at(13, 30));
  in.settings.quietStartMinute = 13 * 60;
  in.settings.quietEndMinute = 14 * 60;
  const auto d = decideOutreach(in);
  expect(d, V::kHold, R::kQuietHours);
  BOOST_TEST((*d.holdUntil == at(14, 0)));
  in.settings.quietEndMinute = in.settings.quietStartMinute;  // no quiet hours at all
  in.now = at(3, 0);
  expect(decideOutreach(in), V::kSendNow, R::kAllowed);
}

BOOST_AUTO_TEST_CASE(capHoldsAtExactlyTheCap) {
  auto in = input(MessageClass::kOffer);
  in.recipient.cappedSentToday = in.settings.dailyCap - 1;
  expect(decideOutreach(in), V::kSendNow, R::kAllowed);
  in.recipient.cappedSentToday = in.settings.dailyCap;
  const auto d = decideOutreach(in);
  expect(d, V::kHold, R::kDailyCap);
  // Tomorrow, after quiet hours: midnight itself is quiet.
  BOOST_TEST((*d.holdUntil == at(8, 0, kDay + days(1))));
  BOOST_TEST(d.explanation == "held until 2024-05-03 08:00: this person had 6 of 6 messages today");
}

BOOST_AUTO_TEST_CASE(capAndQuietHoursTogetherHoldOnlyOnce) {
  // At 02:00 the count is already the new day's; quiet hours alone hold it to 08:00.
  auto in = input(MessageClass::kNotice, at(2, 0));
  in.recipient.cappedSentToday = 0;
  const auto d = decideOutreach(in);
  expect(d, V::kHold, R::kQuietHours);
  BOOST_TEST((*d.holdUntil == at(8, 0)));
  // At 22:00 with the cap reached, quiet hours already hold it into tomorrow, when the count
  // starts again: quiet hours are the reason, and the hold is the same.
  in.now = at(22, 0);
  in.recipient.cappedSentToday = in.settings.dailyCap;
  const auto both = decideOutreach(in);
  expect(both, V::kHold, R::kQuietHours);
  BOOST_TEST((*both.holdUntil == at(8, 0, kDay + days(1))));
}

BOOST_AUTO_TEST_CASE(threadRepliesPassQuietHoursAndCap) {
  auto in = input(MessageClass::kThreadReply, at(23, 30));
  in.recipient.cappedSentToday = 50;
  const auto d = decideOutreach(in);
  expect(d, V::kSendNow, R::kThreadReply);
  BOOST_TEST(!d.countsTowardCap);
}

BOOST_AUTO_TEST_CASE(aReplyOutsideTheActiveThreadIsANotice) {
  auto in = input(MessageClass::kThreadReply, at(23, 30));
  in.recipient.sinceLastInbound = in.settings.activeThreadWindow;  // exactly at the edge: active
  expect(decideOutreach(in), V::kSendNow, R::kThreadReply);
  in.recipient.sinceLastInbound = in.settings.activeThreadWindow + seconds(1);
  const auto d = decideOutreach(in);
  expect(d, V::kHold, R::kQuietHours);
  BOOST_TEST((d.judgedAs == MessageClass::kNotice));
  in.recipient.sinceLastInbound.reset();  // never wrote
  expect(decideOutreach(in), V::kHold, R::kQuietHours);
}

BOOST_AUTO_TEST_CASE(safetyAlertsPassQuietHoursAndCap) {
  auto in = input(MessageClass::kSafetyAlert, at(3, 0));
  in.recipient.cappedSentToday = 99;
  const auto d = decideOutreach(in);
  expect(d, V::kSendNow, R::kSafetyAlert);
  BOOST_TEST(!d.countsTowardCap);
}

BOOST_AUTO_TEST_CASE(urgentOffersPassQuietHoursOnlyForPeopleWhoOptedIn) {
  auto in = input(MessageClass::kOffer, at(22, 15));
  in.message.urgent = true;
  expect(decideOutreach(in), V::kHold, R::kQuietHours);
  in.recipient.urgentDuringQuietHours = true;
  const auto d = decideOutreach(in);
  expect(d, V::kSendNow, R::kUrgentOptIn);
  BOOST_TEST(d.countsTowardCap);
  // The opt-in does not lift the cap: held to tomorrow, and (still urgent) not to 08:00.
  in.recipient.cappedSentToday = in.settings.dailyCap;
  const auto capped = decideOutreach(in);
  expect(capped, V::kHold, R::kDailyCap);
  BOOST_TEST((*capped.holdUntil == at(0, 0, kDay + days(1))));
  // A non-urgent offer to the same person still waits for morning.
  in.message.urgent = false;
  in.recipient.cappedSentToday = 0;
  expect(decideOutreach(in), V::kHold, R::kQuietHours);
}

BOOST_AUTO_TEST_CASE(escalationsAreNotCappedButRespectQuietHoursUnlessOptedIn) {
  auto in = input(MessageClass::kEscalation);
  in.recipient.cappedSentToday = 40;
  const auto d = decideOutreach(in);
  expect(d, V::kSendNow, R::kEscalation);
  BOOST_TEST(!d.countsTowardCap);
  in.now = at(23, 0);
  expect(decideOutreach(in), V::kHold, R::kQuietHours);
  in.recipient.urgentDuringQuietHours = true;
  expect(decideOutreach(in), V::kSendNow, R::kUrgentOptIn);
}

BOOST_AUTO_TEST_CASE(optedOutPeopleGetOnlyTheOneConfirmation) {
  for (MessageClass kind :
       {MessageClass::kThreadReply, MessageClass::kSafetyAlert, MessageClass::kEscalation,
        MessageClass::kOffer, MessageClass::kNotice}) {
    auto in = input(kind);
    in.recipient.optedOut = true;
    expect(decideOutreach(in), V::kRefuse, R::kOptedOut);
  }
  auto in = input(MessageClass::kOptOutConfirmation, at(23, 59));
  in.recipient.optedOut = true;
  in.recipient.smsConsent = false;
  in.outreachFrozen = true;
  expect(decideOutreach(in), V::kSendNow, R::kOptOutConfirmation);
  in.recipient.optOutConfirmationSent = true;
  expect(decideOutreach(in), V::kRefuse, R::kOptedOut);
  in.recipient.optedOut = false;
  expect(decideOutreach(in), V::kRefuse, R::kNotOptedOut);
}

BOOST_AUTO_TEST_CASE(pausedOffersRefuseOffersAndNoticesButNothingElse) {
  // Refused, not held: at any hour, frozen or not, urgent or not, even a reply outside the thread
  // window is still a reply.
  for (MessageClass kind : {MessageClass::kOffer, MessageClass::kNotice}) {
    for (const bool frozen : {false, true}) {
      auto in = input(kind, at(23, 0));
      in.recipient.offersPaused = true;
      in.message.urgent = true;
      in.recipient.urgentDuringQuietHours = true;
      in.outreachFrozen = frozen;
      const auto d = decideOutreach(in);
      expect(d, V::kRefuse, R::kOffersPaused);
      BOOST_TEST(!d.countsTowardCap);
      BOOST_TEST(!d.holdUntil.has_value());
    }
  }
  for (MessageClass kind :
       {MessageClass::kThreadReply, MessageClass::kSafetyAlert, MessageClass::kEscalation}) {
    auto in = input(kind);
    in.recipient.offersPaused = true;
    BOOST_TEST((decideOutreach(in).verdict == V::kSendNow), messageClassName(kind));
  }
  auto stale = input(MessageClass::kThreadReply);
  stale.recipient.offersPaused = true;
  stale.recipient.sinceLastInbound = hours(30);
  const auto late = decideOutreach(stale);
  expect(late, V::kSendNow, R::kAllowed);
  BOOST_TEST((late.judgedAs == MessageClass::kNotice));
  // An opt-out still comes first.
  auto out = input(MessageClass::kOffer);
  out.recipient.offersPaused = true;
  out.recipient.optedOut = true;
  expect(decideOutreach(out), V::kRefuse, R::kOptedOut);
  BOOST_TEST(outreachReasonCode(R::kOffersPaused) == "outreach.offers_paused");
}

BOOST_AUTO_TEST_CASE(withoutConsentOnlyRepliesAndSafetyAlertsGoOut) {
  for (MessageClass kind :
       {MessageClass::kEscalation, MessageClass::kOffer, MessageClass::kNotice}) {
    auto in = input(kind);
    in.recipient.smsConsent = false;
    expect(decideOutreach(in), V::kRefuse, R::kNoConsent);
  }
  auto in = input(MessageClass::kThreadReply);
  in.recipient.smsConsent = false;
  expect(decideOutreach(in), V::kSendNow, R::kThreadReply);
  in.recipient.sinceLastInbound = hours(30);
  expect(decideOutreach(in), V::kRefuse, R::kNoConsent);
  // A safety alert reaches the people responsible (and the reporter) without consent on file.
  auto alert = input(MessageClass::kSafetyAlert);
  alert.recipient.smsConsent = false;
  alert.recipient.sinceLastInbound.reset();
  expect(decideOutreach(alert), V::kSendNow, R::kSafetyAlert);
}

BOOST_AUTO_TEST_CASE(aFreezeHoldsOutreachButNotRepliesAlertsOrEscalations) {
  for (MessageClass kind : {MessageClass::kOffer, MessageClass::kNotice}) {
    auto in = input(kind);
    in.outreachFrozen = true;
    const auto d = decideOutreach(in);
    expect(d, V::kHold, R::kOutreachFrozen);
    BOOST_TEST(!d.holdUntil.has_value());  // until released, not until a time
  }
  for (MessageClass kind :
       {MessageClass::kSafetyAlert, MessageClass::kEscalation, MessageClass::kThreadReply}) {
    auto in = input(kind);
    in.outreachFrozen = true;
    BOOST_TEST((decideOutreach(in).verdict == V::kSendNow), messageClassName(kind));
  }
}

BOOST_AUTO_TEST_CASE(aFreezeAllowsTwoThreadRepliesPerDay) {
  auto in = input(MessageClass::kThreadReply);
  in.outreachFrozen = true;
  in.recipient.threadRepliesToday = kFrozenThreadRepliesPerDay - 1;
  expect(decideOutreach(in), V::kSendNow, R::kThreadReply);
  in.recipient.threadRepliesToday = kFrozenThreadRepliesPerDay;
  expect(decideOutreach(in), V::kHold, R::kOutreachFrozen);
  in.outreachFrozen = false;  // no limit outside a freeze
  expect(decideOutreach(in), V::kSendNow, R::kThreadReply);
}

BOOST_AUTO_TEST_CASE(refusesWhatCouldOnlyGoOutAfterItsDeadline) {
  auto in = input(MessageClass::kOffer, at(22, 0));
  in.message.notAfter = at(7, 0, kDay + days(1));  // the shift starts before quiet hours end
  const auto d = decideOutreach(in);
  expect(d, V::kRefuse, R::kExpired);
  BOOST_TEST(d.explanation ==
             "not sent: it could only go out at 2024-05-03 08:00, after its deadline "
             "2024-05-03 07:00");
  in.message.notAfter = at(9, 0, kDay + days(1));
  expect(decideOutreach(in), V::kHold, R::kQuietHours);
  in.now = at(12, 0);
  in.message.notAfter = at(11, 59);
  expect(decideOutreach(in), V::kRefuse, R::kExpired);
}

BOOST_AUTO_TEST_CASE(refusesSettingsAndStateOutOfRange) {
  auto in = input(MessageClass::kOffer);
  in.settings.quietStartMinute = 1440;
  const auto d = decideOutreach(in);
  expect(d, V::kRefuse, R::kInvalidInput);
  BOOST_TEST(d.explanation ==
             "outreach setting quietStartMinute is 1440, not a minute of the day (0-1439)");
  in = input(MessageClass::kOffer);
  in.settings.dailyCap = 0;
  expect(decideOutreach(in), V::kRefuse, R::kInvalidInput);
  in = input(MessageClass::kOffer);
  in.recipient.cappedSentToday = -1;
  expect(decideOutreach(in), V::kRefuse, R::kInvalidInput);
  in = input(MessageClass::kThreadReply);
  in.recipient.sinceLastInbound = seconds(-5);
  expect(decideOutreach(in), V::kRefuse, R::kInvalidInput);
  BOOST_TEST(validateOutreachSettings(OutreachSettings{}).ok());
}

BOOST_AUTO_TEST_CASE(namesReasonsAndClassesForReceipts) {
  BOOST_TEST(outreachReasonCode(R::kQuietHours) == "outreach.quiet_hours");
  BOOST_TEST(outreachReasonCode(R::kOutreachFrozen) == "outreach.frozen");
  BOOST_TEST(messageClassName(MessageClass::kOptOutConfirmation) == "opt_out_confirmation");
}

BOOST_AUTO_TEST_SUITE_END()
