// The modem's reopen backoff (drivers/sms/modem/reconnect_backoff.h): doubling waits with jitter
// drawn from the randomness it is given.
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <memory>
#include <random>

#include "drivers/sms/modem/reconnect_backoff.h"

using namespace atoms;
using namespace atoms::drivers::modem;
using namespace std::chrono_literals;

namespace {

UnitRandom seeded(unsigned seed) {
  auto engine = std::make_shared<std::minstd_rand>(seed);
  return [engine] { return std::uniform_real_distribution<double>(0.0, 1.0)(*engine); };
}

}  // namespace

BOOST_AUTO_TEST_SUITE(reconnect_backoff)

BOOST_AUTO_TEST_CASE(doublesUpToTheMaximumWithinTwentyPercentAndStartsAgainAfterReset) {
  ReconnectBackoff middle(1000ms, 8000ms, [] { return 0.5; });  // no jitter at all
  for (auto nominal : {1000ms, 2000ms, 4000ms, 8000ms, 8000ms})
    BOOST_TEST(middle.next() == nominal);
  middle.reset();
  BOOST_TEST(middle.next() == 1000ms);
  ReconnectBackoff low(1000ms, 8000ms, [] { return 0.0; });
  BOOST_TEST(low.next() == 800ms);
  BOOST_TEST(low.next() == 1600ms);
  ReconnectBackoff random(1000ms, 8000ms, seeded(7));
  for (auto nominal : {1000ms, 2000ms, 4000ms, 8000ms}) {
    const auto wait = random.next();
    BOOST_TEST(wait.count() >= nominal.count() * 8 / 10);
    BOOST_TEST(wait.count() <= nominal.count() * 12 / 10);
  }
}

BOOST_AUTO_TEST_CASE(theSameRandomnessGivesTheSameWaits) {
  ReconnectBackoff a(20ms, 60000ms, seeded(99));
  ReconnectBackoff b(20ms, 60000ms, seeded(99));
  for (int i = 0; i < 16; ++i) BOOST_TEST(a.next().count() == b.next().count());
}

BOOST_AUTO_TEST_SUITE_END()
