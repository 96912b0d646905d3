#include <boost/test/unit_test.hpp>
#include <chrono>
#include <fstream>
#include <string>

#include "drivers/sms/modem/send_journal.h"
#include "tests/support/temp_dir.h"

using namespace atoms::drivers;
using namespace atoms::drivers::modem;
using Kind = ReconcileResult::Kind;
using std::chrono::hours;

namespace {

const SmsClock::time_point kJournalT0 = SmsClock::time_point(std::chrono::hours(24 * 365 * 54));
const hours kRetention(24 * 7);

std::unique_ptr<SendJournal> openAt(const std::string& path, SmsClock::time_point now) {
  auto j = SendJournal::open(path, now, kRetention);
  BOOST_TEST_REQUIRE(j.ok(), j.message());
  return std::move(*j);
}

JournalSend sendOf(const std::string& id, std::vector<int> refs, SmsClock::time_point at) {
  JournalSend s;
  s.providerId = id;
  s.to = "+15551234567";
  s.references = std::move(refs);
  s.partStates.resize(s.references.size());
  s.at = at;
  return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(send_journal)

BOOST_AUTO_TEST_CASE(answersFromWhatItRecordedAlsoAfterReopening) {
  atoms::testing::TempDir dir;
  const std::string path = dir.file("sends.jsonl");
  {
    auto j = openAt(path, kJournalT0);
    BOOST_TEST(j->recordAttempt("accepted", kJournalT0).ok());
    BOOST_TEST(j->recordAccepted("accepted", sendOf("mr:4@1", {4}, kJournalT0)).ok());
    BOOST_TEST(j->recordAttempt("refused", kJournalT0).ok());
    BOOST_TEST(j->recordRefused("refused", kJournalT0).ok());
    BOOST_TEST(j->recordAttempt("uncertain", kJournalT0).ok());
    BOOST_TEST(j->recordUncertain("uncertain", kJournalT0).ok());
    BOOST_TEST(j->recordAttempt("crashed", kJournalT0).ok());  // no outcome: a crash during AT+CMGS
  }
  auto j = openAt(path, kJournalT0 + hours(1));
  const auto accepted = j->reconcile("accepted", kJournalT0);
  BOOST_CHECK(accepted.kind == Kind::kAccepted);
  BOOST_TEST(accepted.providerId == "mr:4@1");
  BOOST_CHECK(j->reconcile("refused", kJournalT0).kind == Kind::kNotFound);
  BOOST_CHECK(j->reconcile("uncertain", kJournalT0).kind == Kind::kUnknown);
  BOOST_CHECK(j->reconcile("crashed", kJournalT0).kind == Kind::kUnknown);
  BOOST_CHECK(j->reconcile("never", kJournalT0).kind == Kind::kNotFound);
  // Handed to send() before the journal existed: it cannot know.
  BOOST_CHECK(j->reconcile("never", kJournalT0 - hours(1)).kind == Kind::kUnknown);
}

BOOST_AUTO_TEST_CASE(anUnansweredAttemptStaysUncertainAfterALaterRefusal) {
  atoms::testing::TempDir dir;
  auto j = openAt(dir.file("j"), kJournalT0);
  BOOST_TEST(j->recordAttempt("k", kJournalT0).ok());
  BOOST_TEST(j->recordAttempt("k", kJournalT0).ok());  // the first never got an answer
  BOOST_TEST(j->recordRefused("k", kJournalT0).ok());
  BOOST_CHECK(j->reconcile("k", kJournalT0).kind == Kind::kUnknown);
}

BOOST_AUTO_TEST_CASE(aLongTextStoppedBeforeItsLastPartIsSafeToSendAgain) {
  atoms::testing::TempDir dir;
  const std::string path = dir.file("j");
  {
    auto j = openAt(path, kJournalT0);
    const JournalAttempt threeParts{3, 77, 78};
    // A crash after part 1 or 2 was typed: the last part never was.
    BOOST_TEST(j->recordAttempt("crashed-early", kJournalT0, threeParts).ok());
    // A crash once the last part was being typed: the whole text may be out.
    BOOST_TEST(j->recordAttempt("crashed-late", kJournalT0, threeParts).ok());
    BOOST_TEST(j->recordLastPart("crashed-late", kJournalT0).ok());
    // Part 2 refused or unanswered in a running process.
    BOOST_TEST(j->recordAttempt("partial", kJournalT0, threeParts).ok());
    BOOST_TEST(j->recordPartial("partial", kJournalT0).ok());
    // One part: once it is typed nobody knows.
    BOOST_TEST(j->recordAttempt("single", kJournalT0, JournalAttempt{1, -1, 79}).ok());
  }
  auto j = openAt(path, kJournalT0 + hours(1));
  BOOST_CHECK(j->reconcile("crashed-early", kJournalT0).kind == Kind::kNotFound);
  BOOST_CHECK(j->reconcile("crashed-late", kJournalT0).kind == Kind::kUnknown);
  BOOST_CHECK(j->reconcile("partial", kJournalT0).kind == Kind::kNotFound);
  BOOST_CHECK(j->reconcile("single", kJournalT0).kind == Kind::kUnknown);
  // The early crash sent again, then accepted: a second crash before it does not make it unsure.
  BOOST_TEST(j->recordAttempt("crashed-early", kJournalT0, JournalAttempt{3, 80, 81}).ok());
  BOOST_CHECK(j->reconcile("crashed-early", kJournalT0).kind == Kind::kNotFound);
  BOOST_TEST(j->recordLastPart("crashed-early", kJournalT0).ok());
  BOOST_CHECK(j->reconcile("crashed-early", kJournalT0).kind == Kind::kUnknown);
}

BOOST_AUTO_TEST_CASE(keepsTheNextConcatenationReferenceAcrossRestartsAndRewrites) {
  atoms::testing::TempDir dir;
  const std::string path = dir.file("j");
  BOOST_TEST(!openAt(path, kJournalT0)->nextReference().has_value());
  {
    auto j = openAt(path, kJournalT0);
    BOOST_TEST(j->recordAttempt("a", kJournalT0, JournalAttempt{2, 254, 255}).ok());
    BOOST_TEST(j->recordAttempt("b", kJournalT0, JournalAttempt{2, 255, 0}).ok());
    BOOST_TEST(j->nextReference().value_or(-1) == 0);
  }
  BOOST_TEST(openAt(path, kJournalT0 + hours(1))->nextReference().value_or(-1) == 0);
  // Every record past the retention is dropped; the reference stays, in the first line.
  BOOST_TEST(openAt(path, kJournalT0 + kRetention + hours(1))->nextReference().value_or(-1) == 0);
  BOOST_TEST(openAt(path, kJournalT0 + kRetention + hours(2))->nextReference().value_or(-1) == 0);
}

BOOST_AUTO_TEST_CASE(ignoresATornLastLine) {
  atoms::testing::TempDir dir;
  const std::string path = dir.file("j");
  {
    auto j = openAt(path, kJournalT0);
    BOOST_TEST(j->recordAttempt("k", kJournalT0).ok());
    BOOST_TEST(j->recordAccepted("k", sendOf("mr:1@1", {1}, kJournalT0)).ok());
  }
  std::ofstream(path, std::ios::app) << "{\"k\":\"acc";  // power cut mid-write
  auto j = openAt(path, kJournalT0);
  BOOST_CHECK(j->reconcile("k", kJournalT0).kind == Kind::kAccepted);
  BOOST_TEST(j->recordAttempt("k2", kJournalT0).ok());
  auto again = openAt(path, kJournalT0);
  BOOST_CHECK(again->reconcile("k2", kJournalT0).kind == Kind::kUnknown);
}

BOOST_AUTO_TEST_CASE(keepsPartStatesForReportsAfterARestart) {
  atoms::testing::TempDir dir;
  const std::string path = dir.file("j");
  {
    auto j = openAt(path, kJournalT0);
    BOOST_TEST(j->recordAccepted("k", sendOf("mr:7,8@1", {7, 8}, kJournalT0)).ok());
    BOOST_TEST(j->recordPartState("mr:7,8@1", 0, DeliveryState::kDelivered, kJournalT0).ok());
    BOOST_TEST(
        j->recordPartState("mr:7,8@1", 5, DeliveryState::kDelivered, kJournalT0).ok());  // ignored
  }
  auto j = openAt(path, kJournalT0);
  const auto sends = j->acceptedSends();
  BOOST_TEST_REQUIRE(sends.size() == 1u);
  BOOST_TEST(sends[0].references == (std::vector<int>{7, 8}), boost::test_tools::per_element());
  BOOST_CHECK(sends[0].partStates[0] == DeliveryState::kDelivered);
  BOOST_CHECK(!sends[0].partStates[1].has_value());
}

BOOST_AUTO_TEST_CASE(dropsRecordsPastTheRetentionAndSaysSo) {
  atoms::testing::TempDir dir;
  const std::string path = dir.file("j");
  {
    auto j = openAt(path, kJournalT0);
    BOOST_TEST(j->recordAttempt("old", kJournalT0).ok());
    BOOST_TEST(j->recordRefused("old", kJournalT0).ok());
  }
  const auto later = kJournalT0 + kRetention + hours(1);
  auto j = openAt(path, later);
  // The refusal is gone; for a message handed over back then, the journal cannot tell.
  BOOST_CHECK(j->reconcile("old", kJournalT0).kind == Kind::kUnknown);
  BOOST_CHECK(j->reconcile("new", later).kind == Kind::kNotFound);
  BOOST_TEST(j->acceptedSends().empty());
}

BOOST_AUTO_TEST_CASE(namesThePathWhenItCannotOpen) {
  auto j = SendJournal::open("/nonexistent-dir/j", kJournalT0, kRetention);
  BOOST_TEST(!j.ok());
  BOOST_TEST(j.message().find("/nonexistent-dir/j") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
