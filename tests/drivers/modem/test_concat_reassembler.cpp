#include <boost/test/unit_test.hpp>
#include <chrono>
#include <string>

#include "drivers/sms/modem/concat_reassembler.h"

using namespace atoms::drivers;
using namespace atoms::drivers::modem;
using std::chrono::minutes;

namespace {

const SmsClock::time_point kT0 = SmsClock::time_point(std::chrono::hours(24 * 365 * 54));

ReceivedPart part(std::uint8_t seq, std::uint8_t total, std::string text, int index = -1,
                  std::uint16_t ref = 7) {
  ReceivedPart p;
  p.originator = "+15551230000";
  p.concat = ConcatInfo{ref, total, seq, false};
  p.text = std::move(text);
  p.timestamp = SmscTime{2024, 1, 2, 3, 4, seq, 0};
  if (index >= 0) p.location = StoredLocation{"SM", index};
  return p;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(concat_reassembler)

BOOST_AUTO_TEST_CASE(completesASinglePartAtOnce) {
  ConcatReassembler r(minutes(10));
  ReceivedPart p;
  p.originator = "+1555";
  p.text = "hi";
  p.location = StoredLocation{"SM", 4};
  const auto m = r.add(p, kT0);
  BOOST_TEST_REQUIRE(m.has_value());
  BOOST_TEST(m->text == "hi");
  BOOST_TEST(m->locations.size() == 1u);
  BOOST_TEST(m->missingParts == 0);
  BOOST_TEST(r.waiting() == 0u);
}

BOOST_AUTO_TEST_CASE(joinsPartsInSequenceOrderWhateverTheArrivalOrder) {
  ConcatReassembler r(minutes(10));
  BOOST_TEST(!r.add(part(3, 3, "C", 2), kT0).has_value());
  BOOST_TEST(!r.add(part(1, 3, "A", 0), kT0).has_value());
  BOOST_TEST(r.holds(StoredLocation{"SM", 2}));
  const auto m = r.add(part(2, 3, "B", 1), kT0);
  BOOST_TEST_REQUIRE(m.has_value());
  BOOST_TEST(m->text == "ABC");
  BOOST_TEST(m->locations.size() == 3u);
  BOOST_TEST(m->firstTimestamp.second == 1);
  BOOST_TEST(!r.holds(StoredLocation{"SM", 2}));

  ConcatReassembler other(minutes(10));
  (void)other.add(part(1, 3, "A", 0), kT0);
  (void)other.add(part(2, 3, "B", 1), kT0);
  BOOST_TEST(other.add(part(3, 3, "C", 2), kT0)->identity == m->identity);
}

BOOST_AUTO_TEST_CASE(keepsMessagesWithDifferentReferencesApart) {
  ConcatReassembler r(minutes(10));
  (void)r.add(part(1, 2, "a", -1, 1), kT0);
  (void)r.add(part(1, 2, "x", -1, 2), kT0);
  BOOST_TEST(r.waiting() == 2u);
  BOOST_TEST(r.add(part(2, 2, "y", -1, 2), kT0)->text == "xy");
}

BOOST_AUTO_TEST_CASE(deletesEveryCopyOfAPartReadTwice) {
  ConcatReassembler r(minutes(10));
  (void)r.add(part(1, 2, "A", 0), kT0);
  (void)r.add(part(1, 2, "A again", 5), kT0);
  const auto m = r.add(part(2, 2, "B", 1), kT0);
  BOOST_TEST(m->text == "AB");
  BOOST_TEST(m->locations.size() == 3u);
}

BOOST_AUTO_TEST_CASE(releasesAnIncompleteMessageWhenItsTimeIsUp) {
  ConcatReassembler r(minutes(10));
  (void)r.add(part(1, 3, "A", 0), kT0);
  (void)r.add(part(3, 3, "C", 2), kT0 + minutes(5));
  BOOST_CHECK(r.nextDeadline().value() == kT0 + minutes(10));
  BOOST_TEST(r.expire(kT0 + minutes(9)).empty());
  const auto released = r.expire(kT0 + minutes(10));
  BOOST_TEST_REQUIRE(released.size() == 1u);
  BOOST_TEST(released[0].text == "A[…]C");
  BOOST_TEST(released[0].missingParts == 1);
  BOOST_TEST(released[0].locations.size() == 2u);
  BOOST_TEST(!r.nextDeadline().has_value());
}

BOOST_AUTO_TEST_CASE(releasesTheOldestWhenTooManyAreWaiting) {
  ConcatReassembler r(minutes(10), 2);
  (void)r.add(part(1, 2, "old", -1, 1), kT0);
  (void)r.add(part(1, 2, "mid", -1, 2), kT0);
  (void)r.add(part(1, 2, "new", -1, 3), kT0);
  const auto released = r.expire(kT0);
  BOOST_TEST_REQUIRE(released.size() == 1u);
  BOOST_TEST(released[0].text == "old[…]");
  BOOST_TEST(r.waiting() == 2u);
}

BOOST_AUTO_TEST_CASE(forgetsStoredPartsButKeepsDirectOnes) {
  ConcatReassembler r(minutes(10));
  (void)r.add(part(1, 2, "stored", 0, 1), kT0);
  (void)r.add(part(1, 2, "direct", -1, 2), kT0);
  r.dropStored();
  BOOST_TEST(r.waiting() == 1u);
  BOOST_TEST(!r.holds(StoredLocation{"SM", 0}));
  BOOST_TEST(r.add(part(2, 2, "!", -1, 2), kT0)->text == "direct!");
}

BOOST_AUTO_TEST_CASE(dropsAPartOfAHandledMessageThatComesAgainAndNeverReleasesIt) {
  ConcatReassembler r(minutes(10));
  (void)r.add(part(1, 2, "A", 0), kT0);
  const auto m = r.add(part(2, 2, "B", 1), kT0);
  BOOST_TEST_REQUIRE(m.has_value());
  BOOST_TEST(m->parts.size() == 2u);
  r.remember(*m, kT0);  // the inbox committed it

  // The network delivers part 1 again (same sender, reference, number and time stamp).
  const auto later = kT0 + minutes(3);
  BOOST_CHECK(r.repeatOf(part(1, 2, "A", 5), later) == ConcatReassembler::Repeat::kFirst);
  BOOST_CHECK(r.repeatOf(part(1, 2, "A", 6), later) == ConcatReassembler::Repeat::kAgain);
  BOOST_TEST(!r.add(part(1, 2, "A", 5), later).has_value());  // not held either
  BOOST_TEST(r.waiting() == 0u);
  BOOST_TEST(r.expire(later + minutes(30)).empty());
  BOOST_TEST(r.repeatsDropped() == 2u);

  // Another message under the same reference (a new time stamp) is a new message.
  ReceivedPart fresh = part(1, 2, "X", 7);
  fresh.timestamp.minute = 44;
  BOOST_CHECK(r.repeatOf(fresh, later) == ConcatReassembler::Repeat::kNo);
  // Remembered for six windows, then forgotten.
  const auto past = kT0 + minutes(10) * ConcatReassembler::kRememberWindows;
  BOOST_CHECK(r.repeatOf(part(2, 2, "B", 8), past - minutes(1)) ==
              ConcatReassembler::Repeat::kFirst);
  BOOST_CHECK(r.repeatOf(part(2, 2, "B", 8), past) == ConcatReassembler::Repeat::kNo);
  BOOST_TEST(r.remembered() == 0u);
}

BOOST_AUTO_TEST_CASE(remembersABoundedNumberOfParts) {
  ConcatReassembler r(minutes(10), 256, /*maxRemembered=*/4);
  for (std::uint16_t ref = 1; ref <= 3; ++ref) {
    (void)r.add(part(1, 2, "A", -1, ref), kT0);
    const auto m = r.add(part(2, 2, "B", -1, ref), kT0);
    BOOST_TEST_REQUIRE(m.has_value());
    r.remember(*m, kT0);
  }
  BOOST_TEST(r.remembered() == 4u);  // the oldest message's parts went first
  BOOST_CHECK(r.repeatOf(part(1, 2, "A", -1, 1), kT0) == ConcatReassembler::Repeat::kNo);
  BOOST_CHECK(r.repeatOf(part(1, 2, "A", -1, 3), kT0) == ConcatReassembler::Repeat::kFirst);
}

BOOST_AUTO_TEST_SUITE_END()
