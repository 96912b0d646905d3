#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "drivers/sms/encoding/gsm7.h"

using namespace atoms::drivers;
using Septets = std::vector<std::uint8_t>;

BOOST_AUTO_TEST_SUITE(gsm7)

BOOST_AUTO_TEST_CASE(encodesKnownVectors) {
  struct Case {
    std::string text;
    Septets septets;
  };
  const Case cases[] = {
      {"Hi!", {0x48, 0x69, 0x21}},
      {"@", {0x00}},
      {"\u00a3$\u00a5", {0x01, 0x02, 0x03}},
      {"\u00c7", {0x09}},                     // Ç
      {"\u00e0", {0x7F}},                     // à
      {"\u0394_\u03a9", {0x10, 0x11, 0x15}},  // Δ _ Ω
      {"\u00a1\u00bf", {0x40, 0x60}},         // ¡ ¿
      {"a\nb\rc", {0x61, 0x0A, 0x62, 0x0D, 0x63}},
      {"\u20ac", {0x1B, 0x65}},  // €
      {"[", {0x1B, 0x3C}},
      {"{}\\^~]|",
       {0x1B, 0x28, 0x1B, 0x29, 0x1B, 0x2F, 0x1B, 0x14, 0x1B, 0x3D, 0x1B, 0x3E, 0x1B, 0x40}},
      {"\f", {0x1B, 0x0A}},
  };
  for (const Case& c : cases) {
    const auto encoded = encodeGsm7(c.text);
    BOOST_REQUIRE_MESSAGE(encoded.has_value(), c.text);
    BOOST_TEST(*encoded == c.septets, c.text);
    const auto decoded = decodeGsm7(*encoded);
    BOOST_REQUIRE_MESSAGE(decoded.ok(), decoded.message());
    BOOST_TEST(*decoded == c.text);
  }
}

BOOST_AUTO_TEST_CASE(refusesCharactersOutsideTheAlphabet) {
  // ç is not Ç; curly quotes, tab, NUL, the escape itself and emoji are not GSM-7.
  const std::string texts[] = {"\u00e7", "\u2019",     "\t",     std::string(1, '\0'),
                               "\x1B",   "\U0001F600", "\u00e1", "`"};
  for (const std::string& text : texts) {
    BOOST_TEST(!encodeGsm7(text).has_value(), text);
    BOOST_TEST(!encodeGsm7("ok " + text).has_value(), text);
  }
  BOOST_TEST(!encodeGsm7("bad \xC0\xAF utf8").has_value());
}

BOOST_AUTO_TEST_CASE(countsSeptetsPerCharacter) {
  BOOST_TEST(gsm7Septets(U'a') == 1);
  BOOST_TEST(gsm7Septets(U'\u00e9') == 1);
  BOOST_TEST(gsm7Septets(U'\u20ac') == 2);
  BOOST_TEST(gsm7Septets(U'|') == 2);
  BOOST_TEST(gsm7Septets(U'\u00e7') == 0);
  BOOST_TEST(gsm7Septets(U'\x1B') == 0);
}

BOOST_AUTO_TEST_CASE(everyDefaultAndExtensionCodeRoundTrips) {
  for (std::uint8_t code = 0; code < 0x80; ++code) {
    if (code == kGsm7Escape) continue;
    const auto text = decodeGsm7(Septets{code});
    BOOST_REQUIRE(text.ok());
    const auto again = encodeGsm7(*text);
    BOOST_REQUIRE_MESSAGE(again.has_value(), int(code));
    BOOST_TEST(*again == Septets{code});
  }
}

BOOST_AUTO_TEST_CASE(decodesUndefinedEscapesAsTheSpecDirects) {
  // ESC + an undefined code shows the default character; ESC ESC and a trailing ESC show a space.
  const auto undefinedEscape = decodeGsm7(Septets{0x1B, 0x41});
  BOOST_REQUIRE(undefinedEscape.ok());
  BOOST_TEST(*undefinedEscape == "A");
  const auto doubleEscape = decodeGsm7(Septets{0x61, 0x1B, 0x1B, 0x62});
  BOOST_REQUIRE(doubleEscape.ok());
  BOOST_TEST(*doubleEscape == "a b");
  const auto trailing = decodeGsm7(Septets{0x61, 0x1B});
  BOOST_REQUIRE(trailing.ok());
  BOOST_TEST(*trailing == "a ");
}

BOOST_AUTO_TEST_CASE(refusesValuesThatAreNotSeptets) {
  const auto r = decodeGsm7(Septets{0x41, 0x80});
  BOOST_TEST(!r.ok());
  BOOST_TEST(r.message().find("septet 1") != std::string::npos, r.message());
  BOOST_TEST(!decodeGsm7(Septets{0x1B, 0xFF}).ok());
  const auto empty = decodeGsm7(Septets{});
  BOOST_REQUIRE(empty.ok());
  BOOST_TEST(empty->empty());
}

BOOST_AUTO_TEST_SUITE_END()
