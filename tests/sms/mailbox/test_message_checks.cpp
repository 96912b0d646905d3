#include <boost/test/unit_test.hpp>
#include <string>

#include "sms/mailbox/message_checks.h"
#include "sms/mailbox/retry_policy.h"

namespace atoms::sms::mailbox {
namespace {

std::string repeat(std::string_view piece, std::size_t times) {
  std::string out;
  for (std::size_t i = 0; i < times; ++i) out += piece;
  return out;
}

BOOST_AUTO_TEST_SUITE(message_checks)

BOOST_AUTO_TEST_CASE(acceptsBodiesUpToTheLimitCountingCharactersNotBytes) {
  BOOST_TEST(checkBody(repeat("a", kMaxBodyCharacters)).ok());
  // 1,600 emoji are 6,400 bytes and still 1,600 characters.
  const std::string emoji = repeat("\xF0\x9F\x98\x80", kMaxBodyCharacters);
  BOOST_TEST(checkBody(emoji).ok());
  BOOST_TEST(drivers::countCodePoints(emoji) == kMaxBodyCharacters);
  BOOST_TEST(checkBody("").ok());
}

BOOST_AUTO_TEST_CASE(refusesBodiesOverTheLimitWithTheCount) {
  Status s = checkBody(repeat("a", kMaxBodyCharacters + 1));
  BOOST_TEST(!s.ok());
  BOOST_TEST(s.message() == "body is " + std::to_string(kMaxBodyCharacters + 1) +
                                " characters, over the limit of " +
                                std::to_string(kMaxBodyCharacters));
  Status multi = checkBody(repeat("\xC3\xA9", kMaxBodyCharacters + 1));  // é, 2 bytes each
  BOOST_TEST(multi.message().find("over the limit") != std::string::npos, multi.message());
  Status huge = checkBody(std::string(100'000, 'x'));
  BOOST_TEST(huge.message().find("over the limit") != std::string::npos, huge.message());
}

BOOST_AUTO_TEST_CASE(refusesInvalidUtf8NamingTheByte) {
  struct Case {
    std::string body;
    std::size_t byte;
  };
  const Case cases[] = {
      {"ok \xC3(", 3},          // a lead byte without its continuation
      {"\xC0\xAF", 0},          // overlong '/'
      {"ab\xED\xA0\x80", 2},    // a UTF-16 surrogate encoded in UTF-8
      {"abc\xF0\x9F\x98", 3},   // truncated at the end
      {"\xF4\x90\x80\x80", 0},  // above U+10FFFF
      {"x\x80", 1},             // a lone continuation byte
  };
  for (const Case& c : cases) {
    Status s = checkBody(c.body);
    BOOST_TEST(s.message() == "body is not valid UTF-8 (at byte " + std::to_string(c.byte) + ")");
  }
}

BOOST_AUTO_TEST_CASE(refusesNulBytes) {
  Status s = checkBody(std::string("see\0you", 7));
  BOOST_TEST(s.message() == "body contains a NUL byte (at byte 3)");
}

BOOST_AUTO_TEST_CASE(acceptsEmojiAndMixedScripts) {
  const std::string body =
      "Can you cover 5pm? \xF0\x9F\x91\x8D Merci, se\xC3\xB1or \xE2\x80\x94 "
      "\xE4\xBD\xA0\xE5\xA5\xBD \xD9\x85\xD8\xB1\xD8\xAD\xD8\xA8\xD8\xA7 "
      "\xF0\x9F\x87\xBA\xF0\x9F\x87\xB8";
  BOOST_TEST(checkBody(body).ok());
  BOOST_TEST(drivers::countCodePoints("\xC3\xA9\xF0\x9F\x98\x80"
                                      "a") == 3u);
}

BOOST_AUTO_TEST_CASE(recognisesE164Numbers) {
  BOOST_TEST(isE164("+15551234567"));
  BOOST_TEST(isE164("+447700900123"));
  BOOST_TEST(!isE164("15551234567"));
  BOOST_TEST(!isE164("+05551234567"));
  BOOST_TEST(!isE164("+1555"));
  BOOST_TEST(!isE164("+1234567890123456"));
  BOOST_TEST(!isE164("+1555123456a"));
  BOOST_TEST(!isE164("+1 555 123 4567"));
}

BOOST_AUTO_TEST_CASE(masksNumbersToTheirLastFourCharacters) {
  BOOST_TEST(maskNumber("+15551234567") == "***4567");
  BOOST_TEST(maskNumber("") == "***");
  BOOST_TEST(maskNumber("+1 (555) 12-34") == "***1234");
  BOOST_TEST(maskNumber("\xFF\xFE"
                        "12") == "***12");
}

BOOST_AUTO_TEST_CASE(sanitisesDriverTextForStorageAndAudit) {
  BOOST_TEST(sanitizeLine("HTTP 503: try later") == "HTTP 503: try later");
  BOOST_TEST(sanitizeLine("modem: \xFF\x01+CMS ERROR\r\n") == "modem: ??+CMS ERROR??");
  BOOST_TEST(sanitizeLine("caf\xC3\xA9 \xF0\x9F\x98\x80") == "caf\xC3\xA9 \xF0\x9F\x98\x80");
  BOOST_TEST(sanitizeLine(std::string(1000, 'e'), 300).size() == 300u);
  // Cut at a character boundary, never inside one.
  BOOST_TEST(sanitizeLine("ab\xC3\xA9", 3) == "ab");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(retry_policy)

BOOST_AUTO_TEST_CASE(doublesFromTheInitialDelayUpToTheCap) {
  RetryPolicy p;  // 30 s doubling, capped at 30 min
  p.jitter = 0;
  using std::chrono::seconds;
  const seconds expected[] = {seconds(30),  seconds(60),  seconds(120),  seconds(240),
                              seconds(480), seconds(960), seconds(1800), seconds(1800)};
  for (int attempt = 1; attempt <= 8; ++attempt) {
    BOOST_TEST(retryDelay(p, attempt, 0.7).count() ==
               std::chrono::milliseconds(expected[attempt - 1]).count());
  }
  BOOST_TEST(retryDelay(p, 1000, 0.0) == p.maxDelay);
}

BOOST_AUTO_TEST_CASE(jitterShortensByAtMostItsFraction) {
  RetryPolicy p;
  p.jitter = 0.2;
  BOOST_TEST(retryDelay(p, 1, 0.0).count() == 30'000);
  BOOST_TEST(retryDelay(p, 1, 0.5).count() == 27'000);
  BOOST_TEST(retryDelay(p, 1, 0.999999).count() == 24'000);
  for (double u : {0.0, 0.25, 0.5, 0.75, 0.99}) {
    BOOST_TEST(retryDelay(p, 20, u) <= p.maxDelay);
    BOOST_TEST(retryDelay(p, 20, u).count() >= 24 * 60'000);
  }
}

BOOST_AUTO_TEST_CASE(refusesNonsensePolicies) {
  RetryPolicy p;
  BOOST_TEST(validatePolicy(p).ok());
  p.maxAttempts = 0;
  BOOST_TEST(validatePolicy(p).message() == "retry max attempts must be at least 1");
  p = RetryPolicy{};
  p.maxDelay = std::chrono::milliseconds(1);
  BOOST_TEST(!validatePolicy(p).ok());
  p = RetryPolicy{};
  p.jitter = 1.5;
  BOOST_TEST(!validatePolicy(p).ok());
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::sms::mailbox
