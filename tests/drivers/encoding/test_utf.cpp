#include <boost/test/unit_test.hpp>
#include <string>

#include "drivers/sms/encoding/utf.h"

using namespace atoms::drivers;

BOOST_AUTO_TEST_SUITE(utf)

BOOST_AUTO_TEST_CASE(convertsAcrossAllSequenceLengths) {
  const std::string text = "a\u00e9\u20ac\U0001F600";  // 1, 2, 3 and 4 bytes
  const auto wide = utf8ToUtf16(text);
  BOOST_REQUIRE_MESSAGE(wide.ok(), wide.message());
  BOOST_TEST((*wide == u"a\u00e9\u20ac\U0001F600"));
  BOOST_TEST(wide->size() == 5u);  // the emoji is a surrogate pair
  const auto back = utf16ToUtf8(*wide);
  BOOST_REQUIRE_MESSAGE(back.ok(), back.message());
  BOOST_TEST(*back == text);
}

BOOST_AUTO_TEST_CASE(refusesMalformedUtf8NamingTheByte) {
  struct Case {
    std::string text;
    std::size_t badByte;
  };
  const Case cases[] = {
      {"ok\xC0\xAF", 2},        // overlong '/'
      {"\xE0\x80\xAF", 0},      // overlong, three bytes
      {"x\xED\xA0\x80", 1},     // a surrogate encoded in UTF-8 (CESU-8)
      {"\xF4\x90\x80\x80", 0},  // above U+10FFFF
      {"ab\xE2\x82", 2},        // truncated euro sign
      {"\x80", 0},              // lone continuation byte
      {"abc\xFF", 3},           // never valid
      {"\xC3\x28", 0},          // lead byte followed by a non-continuation
  };
  for (const Case& c : cases) {
    const auto r = utf8ToUtf16(c.text);
    BOOST_TEST(!r.ok());
    BOOST_TEST(r.message().find("byte " + std::to_string(c.badByte)) != std::string::npos,
               r.message());
    BOOST_TEST(!validateUtf8(c.text).ok());
  }
}

BOOST_AUTO_TEST_CASE(acceptsBoundaryScalars) {
  for (const char* text : {"\x7F", "\xC2\x80", "\xEF\xBF\xBF", "\xED\x9F\xBF", "\xEE\x80\x80",
                           "\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF"}) {
    BOOST_TEST(validateUtf8(text).ok());
  }
}

BOOST_AUTO_TEST_CASE(refusesUnpairedSurrogates) {
  const std::u16string lonelyHigh = u"a" + std::u16string(1, char16_t{0xD83D}) + u"b";
  const std::u16string lonelyLow = std::u16string(1, char16_t{0xDE00});
  const std::u16string highAtEnd = u"ab" + std::u16string(1, char16_t{0xD83D});
  const auto r1 = utf16ToUtf8(lonelyHigh);
  BOOST_TEST(!r1.ok());
  BOOST_TEST(r1.message().find("code unit 1") != std::string::npos, r1.message());
  BOOST_TEST(!utf16ToUtf8(lonelyLow).ok());
  BOOST_TEST(!utf16ToUtf8(highAtEnd).ok());
}

BOOST_AUTO_TEST_CASE(decodesEachCodePointWithItsLength) {
  const std::string text = "\xE2\x82\xAC!";
  const auto first = decodeUtf8At(text, 0);
  BOOST_REQUIRE(first.has_value());
  BOOST_TEST(static_cast<unsigned>(first->value) == 0x20ACu);
  BOOST_TEST(first->bytes == 3u);
  BOOST_TEST(!decodeUtf8At(text, 1).has_value());  // inside the sequence
  BOOST_TEST(!decodeUtf8At(text, 4).has_value());  // past the end
}

BOOST_AUTO_TEST_SUITE_END()
