#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "sms/text/offer_code.h"

using namespace atoms::sms;

namespace {

// A deterministic source (xorshift32), so tests are repeatable.
RandomSource sequence(std::uint32_t seed) {
  return [state = seed]() mutable {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state;
  };
}

}  // namespace

BOOST_AUTO_TEST_SUITE(offer_code)

BOOST_AUTO_TEST_CASE(makesFourDigitCodesThatReadAsNothingElse) {
  const RandomSource random = sequence(12345);
  std::set<std::string> seen;
  for (int i = 0; i < 2000; ++i) {
    const auto code = makeOfferCode(random, {});
    BOOST_REQUIRE_MESSAGE(code.ok(), code.message());
    BOOST_TEST(isUsableOfferCode(*code), *code);
    const int n = std::stoi(*code);
    BOOST_TEST(!(n / 100 < 24 && n % 100 < 60), *code);  // not a 24-hour time
    BOOST_TEST(!(n >= 1900 && n <= 2099), *code);        // not a year
    seen.insert(*code);
  }
  BOOST_TEST(seen.size() > 1000u);  // spread over the space, not stuck
}

BOOST_AUTO_TEST_CASE(refusesTimesYearsPatternsAndMalformedCodes) {
  for (const char* code : {"1830", "0930", "2359", "2024", "1999", "5555", "9999", "3456", "6543",
                           "0481", "482", "48210", "48a1", ""}) {
    BOOST_TEST(!isUsableOfferCode(code), code);
  }
  for (const char* code : {"4821", "7390", "2400", "9998"}) {
    BOOST_TEST(isUsableOfferCode(code), code);
  }
}

BOOST_AUTO_TEST_CASE(avoidsTheCallersCodes) {
  // Avoid every usable code but one: that one must come back.
  std::vector<std::string> avoid;
  std::string left;
  for (int n = 1000; n <= 9999; ++n) {
    const std::string code = std::to_string(n);
    if (!isUsableOfferCode(code)) continue;
    if (left.empty()) {
      left = code;
    } else {
      avoid.push_back(code);
    }
  }
  const auto code = makeOfferCode(sequence(7), avoid);
  BOOST_REQUIRE(code.ok());
  BOOST_TEST(*code == left);
  avoid.push_back(left);
  BOOST_TEST(!makeOfferCode(sequence(7), avoid).ok());
}

BOOST_AUTO_TEST_CASE(endsEvenWithABrokenRandomSource) {
  const RandomSource stuck = [] { return UINT32_MAX; };
  const auto code = makeOfferCode(stuck, {});
  BOOST_REQUIRE(code.ok());
  BOOST_TEST(isUsableOfferCode(*code));
}

BOOST_AUTO_TEST_SUITE_END()
