#include <boost/test/unit_test.hpp>
#include <string>

#include "drivers/sms/encoding/segmentation.h"
#include "sms/conversation/outreach.h"
#include "tests/sms/conversation/conversation_fixture.h"
#include "tests/support/fields.h"

namespace atoms::sms::conversation {
namespace {

using testing::ConversationFixture;
using testing::kAna;
using testing::kNoConsent;

using atoms::testing::field;

using atoms::testing::intField;

bool hasSource(const json::Value& receipt, std::string_view kind, std::string_view ref) {
  for (const json::Value& s : receipt.find("sources")->asArray()) {
    if (field(s, "kind") == kind && field(s, "ref") == ref) return true;
  }
  return false;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(outreach)

BOOST_FIXTURE_TEST_CASE(queuesANoticeWithASignedReceiptThatKnowsSegmentsAndEncoding,
                        ConversationFixture) {
  auto sent = outreach->send(request("notice-1", kAna, MessageClass::kNotice));
  BOOST_TEST_REQUIRE(sent.ok(), sent.message());
  BOOST_TEST((sent->outcome == OutreachOutcome::kQueued));
  BOOST_TEST(sent->segments == 1);
  BOOST_TEST((sent->encoding == drivers::SmsEncoding::kGsm7));
  BOOST_TEST_REQUIRE(outboxTo(kAna).size() == 1u);
  BOOST_TEST(outboxTo(kAna)[0].id == "notice-1");

  const json::Value receipt = receiptAt(*sent->receiptSeq);
  BOOST_TEST(field(receipt, "outcome") == "queued");
  BOOST_TEST(field(receipt, "encoding") == "GSM-7");
  BOOST_TEST(intField(receipt, "segments") == 1);
  BOOST_TEST(field(receipt, "reason") == "outreach.allowed");
  BOOST_TEST(field(receipt, "personId") == "p-ana");
  BOOST_TEST(hasSource(receipt, "policy", "outreach.allowed"));
  BOOST_TEST(hasSource(receipt, "org", "roster:p-ana"));
  BOOST_TEST(field(receipt, "recipient") == "***0001");

  // UCS-2 and several segments are known before sending too.
  std::string spanish;
  for (int i = 0; i < 10; ++i) spanish += "Turno del sábado disponible. ";
  auto ucs2 = outreach->send(request("notice-2", kAna, MessageClass::kNotice, spanish));
  BOOST_TEST_REQUIRE(ucs2.ok(), ucs2.message());
  auto planned = drivers::countSegments(spanish);
  BOOST_TEST(ucs2->segments == *planned);
  BOOST_TEST(ucs2->segments > 1);
  const json::Value second = receiptAt(*ucs2->receiptSeq);
  BOOST_TEST(field(second, "encoding") == "UCS-2");
  BOOST_TEST(intField(second, "segments") == *planned);
}

BOOST_FIXTURE_TEST_CASE(lintRefusalIsAnErrorWithAReceiptAndQueuesNothing, ConversationFixture) {
  const std::size_t receiptsBefore = entries("receipt").size();
  auto sent = outreach->send(
      request("bad-1", kAna, MessageClass::kNotice, "You were written up for being late."));
  BOOST_TEST_REQUIRE(!sent.ok());
  BOOST_TEST(sent.message().find("bad-1") != std::string::npos, sent.message());
  BOOST_TEST(sent.message().find("discipline") != std::string::npos, sent.message());
  BOOST_TEST(outboxTo(kAna).empty());
  BOOST_TEST(entries("sms.out").empty());
  const auto receipts = entries("receipt");
  BOOST_TEST_REQUIRE(receipts.size() == receiptsBefore + 1);
  BOOST_TEST(field(receipts.back().body, "outcome") == "refused");
  BOOST_TEST(field(receipts.back().body, "reason") == "sms.content_lint");
  auto row = outreach->find("bad-1");
  BOOST_TEST_REQUIRE(row.ok());
  BOOST_TEST(!row->has_value());
}

BOOST_FIXTURE_TEST_CASE(invalidRequestIsAnErrorThatChangesNothing, ConversationFixture) {
  auto notE164 = outreach->send(request("x-1", "555-1234", MessageClass::kNotice));
  BOOST_TEST(!notE164.ok());
  BOOST_TEST(notE164.message().find("E.164") != std::string::npos, notE164.message());
  auto noId = outreach->send(request("", kAna, MessageClass::kNotice));
  BOOST_TEST(!noId.ok());
  auto empty = outreach->send(request("x-2", kAna, MessageClass::kNotice, ""));
  BOOST_TEST(!empty.ok());
  auto badSource = request("x-3", kAna, MessageClass::kNotice);
  badSource.sources.push_back({"rumour", "r", "?"});
  auto bad = outreach->send(badSource);
  BOOST_TEST(!bad.ok());
  BOOST_TEST(bad.message().find("sources[0].kind") != std::string::npos, bad.message());
  BOOST_TEST(entries("receipt").empty());
  BOOST_TEST(outboxTo(kAna).empty());
}

BOOST_FIXTURE_TEST_CASE(sameIdTwiceDecidesOnce, ConversationFixture) {
  auto first = outreach->send(request("n-1", kAna, MessageClass::kNotice));
  BOOST_TEST_REQUIRE(first.ok());
  auto again = outreach->send(request("n-1", kAna, MessageClass::kNotice));
  BOOST_TEST_REQUIRE(again.ok(), again.message());
  BOOST_TEST(again->repeated);
  BOOST_TEST((again->outcome == OutreachOutcome::kQueued));
  BOOST_TEST(outboxTo(kAna).size() == 1u);
  BOOST_TEST(entries("receipt").size() == 1u);
  auto different = outreach->send(request("n-1", kAna, MessageClass::kNotice, "Other text."));
  BOOST_TEST(!different.ok());
}

BOOST_FIXTURE_TEST_CASE(quietHoursHoldUntilMorningAndTheTimerReleases, ConversationFixture) {
  setLocal(0, 22);
  auto sent = outreach->send(request("late-1", kAna, MessageClass::kNotice));
  BOOST_TEST_REQUIRE(sent.ok(), sent.message());
  BOOST_TEST((sent->outcome == OutreachOutcome::kHeld));
  BOOST_TEST(sent->reason == "outreach.quiet_hours");
  BOOST_TEST_REQUIRE(sent->holdUntil.has_value());
  BOOST_TEST((*sent->holdUntil == localTime(1, 8)));
  BOOST_TEST(outboxTo(kAna).empty());
  auto next = outreach->nextRelease();
  BOOST_TEST_REQUIRE(next.ok());
  BOOST_TEST((**next == localTime(1, 8)));

  setLocal(1, 7, 59);
  auto early = outreach->releaseDue(clock.now());
  BOOST_TEST_REQUIRE(early.ok(), early.message());
  BOOST_TEST(early->queued == 0);
  BOOST_TEST(outboxTo(kAna).empty());

  setLocal(1, 8);
  auto morning = outreach->releaseDue(clock.now());
  BOOST_TEST_REQUIRE(morning.ok(), morning.message());
  BOOST_TEST(morning->queued == 1);
  BOOST_TEST_REQUIRE(outboxTo(kAna).size() == 1u);
  auto row = outreach->find("late-1");
  BOOST_TEST_REQUIRE(row.ok());
  BOOST_TEST_REQUIRE(row->has_value());
  BOOST_TEST(((*row)->state == LedgerState::kQueued));
  const json::Value receipt = receiptAt(static_cast<std::uint64_t>(*(*row)->receiptSeq));
  BOOST_TEST(field(receipt, "outcome") == "queued");
  BOOST_TEST(hasSource(receipt, "decision", "outreach.quiet_hours"));
  BOOST_TEST(intField(receipt, "previousReceipt") == static_cast<std::int64_t>(*sent->receiptSeq));
  auto none = outreach->nextRelease();
  BOOST_TEST_REQUIRE(none.ok());
  BOOST_TEST(!none->has_value());
}

BOOST_FIXTURE_TEST_CASE(releaseDecidesAgainAndRefusesAfterAnOptOut, ConversationFixture) {
  setLocal(0, 23);
  auto sent = outreach->send(request("late-2", kAna, MessageClass::kNotice));
  BOOST_TEST_REQUIRE(sent.ok());
  BOOST_TEST((sent->outcome == OutreachOutcome::kHeld));
  setLocal(1, 6);
  text(kAna, "STOP");  // the confirmation goes; the held notice must not
  setLocal(1, 8);
  auto released = outreach->releaseDue(clock.now());
  BOOST_TEST_REQUIRE(released.ok(), released.message());
  BOOST_TEST(released->refused == 1);
  const auto rows = outboxTo(kAna);
  BOOST_TEST_REQUIRE(rows.size() == 1u);
  BOOST_TEST(rows[0].id != "late-2");
}

BOOST_FIXTURE_TEST_CASE(pausedOffersRefuseNoticesAndOffersAlsoOnesHeldBeforeThePause,
                        ConversationFixture) {
  setLocal(0, 23);
  auto held = outreach->send(request("late-offer", kAna, MessageClass::kOffer));
  BOOST_TEST_REQUIRE(held.ok(), held.message());
  BOOST_TEST((held->outcome == OutreachOutcome::kHeld));
  setLocal(1, 6);
  text(kAna, "ugh, enough texts");  // pauses her offers; the in-thread question still goes
  BOOST_TEST(entries("sms.offers_paused").size() == 1u);
  BOOST_TEST_REQUIRE(outboxTo(kAna).size() == 1u);

  setLocal(1, 9);
  auto notice = outreach->send(request("checklist-reminder", kAna, MessageClass::kNotice));
  BOOST_TEST_REQUIRE(notice.ok(), notice.message());
  BOOST_TEST((notice->outcome == OutreachOutcome::kRefused));
  BOOST_TEST(notice->reason == "outreach.offers_paused");
  const json::Value receipt = receiptAt(*notice->receiptSeq);
  BOOST_TEST(field(receipt, "outcome") == "refused");
  BOOST_TEST(field(receipt, "reason") == "outreach.offers_paused");
  auto offer = outreach->send(request("offer-1", kAna, MessageClass::kOffer));
  BOOST_TEST_REQUIRE(offer.ok(), offer.message());
  BOOST_TEST(offer->reason == "outreach.offers_paused");
  auto released = outreach->releaseDue(clock.now());
  BOOST_TEST_REQUIRE(released.ok(), released.message());
  BOOST_TEST(released->refused == 1);
  BOOST_TEST(released->queued == 0);
  auto late = outreach->find("late-offer");
  BOOST_TEST_REQUIRE(late.ok());
  BOOST_TEST_REQUIRE(late->has_value());
  BOOST_TEST(((*late)->state == LedgerState::kRefused));
  BOOST_TEST((*late)->reason == "outreach.offers_paused");
  BOOST_TEST(outboxTo(kAna).size() == 1u);  // only the question

  // Escalations and safety alerts still reach her; OFFERS ON lets notices through again.
  auto escalation = outreach->send(request("esc-1", kAna, MessageClass::kEscalation));
  BOOST_TEST_REQUIRE(escalation.ok(), escalation.message());
  BOOST_TEST((escalation->outcome == OutreachOutcome::kQueued));
  text(kAna, "OFFERS ON");
  auto after = outreach->send(request("notice-after", kAna, MessageClass::kNotice));
  BOOST_TEST_REQUIRE(after.ok(), after.message());
  BOOST_TEST((after->outcome == OutreachOutcome::kQueued));
}

BOOST_FIXTURE_TEST_CASE(dailyCapHoldsTheSeventhUntilTomorrow, ConversationFixture) {
  for (int i = 1; i <= settings.outreach.dailyCap; ++i) {
    auto sent = outreach->send(request("cap-" + std::to_string(i), kAna, MessageClass::kOffer));
    BOOST_TEST_REQUIRE(sent.ok(), sent.message());
    BOOST_TEST((sent->outcome == OutreachOutcome::kQueued));
  }
  auto seventh = outreach->send(request("cap-7", kAna, MessageClass::kOffer));
  BOOST_TEST_REQUIRE(seventh.ok());
  BOOST_TEST((seventh->outcome == OutreachOutcome::kHeld));
  BOOST_TEST(seventh->reason == "outreach.daily_cap");
  BOOST_TEST((*seventh->holdUntil == localTime(1, 8)));
  BOOST_TEST(outboxTo(kAna).size() == static_cast<std::size_t>(settings.outreach.dailyCap));
  // A thread reply is not capped.
  text(kAna, "HELP");
  BOOST_TEST(outboxTo(kAna).size() == static_cast<std::size_t>(settings.outreach.dailyCap) + 1);

  setLocal(1, 8);
  auto released = outreach->releaseDue(clock.now());
  BOOST_TEST_REQUIRE(released.ok());
  BOOST_TEST(released->queued == 1);
  BOOST_TEST(outboxTo(kAna).back().id == "cap-7");
}

BOOST_FIXTURE_TEST_CASE(freezeHoldsNoticesButPassesThreadRepliesAndSafetyAlerts,
                        ConversationFixture) {
  outreach->setOutreachFrozen(true);
  auto notice = outreach->send(request("f-notice", kAna, MessageClass::kNotice));
  BOOST_TEST_REQUIRE(notice.ok());
  BOOST_TEST((notice->outcome == OutreachOutcome::kHeld));
  BOOST_TEST(notice->reason == "outreach.frozen");
  BOOST_TEST(!notice->holdUntil.has_value());
  auto alert = outreach->send(request("f-safety", kAna, MessageClass::kSafetyAlert,
                                      "Slip hazard by the dish pit: please use the side door."));
  BOOST_TEST_REQUIRE(alert.ok());
  BOOST_TEST((alert->outcome == OutreachOutcome::kQueued));
  text(kAna, "HELP");  // a reply in her own thread passes
  const auto rows = outboxTo(kAna);
  BOOST_TEST_REQUIRE(rows.size() == 2u);
  BOOST_TEST(rows[0].id == "f-safety");
  BOOST_TEST((rows[0].messageClass == mailbox::MessageClass::kSafety));
  BOOST_TEST((rows[1].messageClass == mailbox::MessageClass::kReply));

  // Still frozen: the timer releases nothing; lifted: the notice goes.
  auto stillFrozen = outreach->releaseDue(clock.now());
  BOOST_TEST_REQUIRE(stillFrozen.ok());
  BOOST_TEST(stillFrozen->queued == 0);
  outreach->setOutreachFrozen(false);
  auto released = outreach->releaseDue(clock.now());
  BOOST_TEST_REQUIRE(released.ok());
  BOOST_TEST(released->queued == 1);
  BOOST_TEST(outboxTo(kAna).back().id == "f-notice");
}

BOOST_FIXTURE_TEST_CASE(freezeHeldTooLongIsWithdrawnOnRelease, ConversationFixture) {
  outreach->setOutreachFrozen(true);
  auto notice = outreach->send(request("old-notice", kAna, MessageClass::kNotice));
  BOOST_TEST_REQUIRE(notice.ok());
  clock.advance(std::chrono::hours(49));
  outreach->setOutreachFrozen(false);
  auto released = outreach->releaseDue(clock.now());
  BOOST_TEST_REQUIRE(released.ok(), released.message());
  BOOST_TEST(released->withdrawn == 1);
  BOOST_TEST(outboxTo(kAna).empty());
  auto row = outreach->find("old-notice");
  BOOST_TEST_REQUIRE(row.ok());
  BOOST_TEST(((*row)->state == LedgerState::kWithdrawn));
  receiptAt(static_cast<std::uint64_t>(*(*row)->receiptSeq));  // signed and verifies
}

BOOST_FIXTURE_TEST_CASE(noConsentRefusesOffersButAnswersTheThread, ConversationFixture) {
  auto offer = outreach->send(request("o-1", kNoConsent, MessageClass::kOffer));
  BOOST_TEST_REQUIRE(offer.ok());
  BOOST_TEST((offer->outcome == OutreachOutcome::kRefused));
  BOOST_TEST(offer->reason == "outreach.no_consent");
  text(kNoConsent, "HELP");
  BOOST_TEST(outboxTo(kNoConsent).size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::sms::conversation
