#include <boost/test/unit_test.hpp>

#include "drivers/sms/twilio/form_body.h"

namespace atoms::drivers::twilio {
namespace {

FormFields mustParse(std::string_view body) {
  Result<FormFields> r = parseForm(body);
  BOOST_TEST_REQUIRE(r.ok(), r.message());
  return *r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(form_body)

BOOST_AUTO_TEST_CASE(decodesPlusAsSpaceAndPercentEscapes) {
  const FormFields f = mustParse("Body=Can%27t+make+it%2C+sorry+%F0%9F%98%9E&From=%2B15551230001");
  BOOST_TEST(f.size() == 2u);
  BOOST_TEST(f[0].name == "Body");
  BOOST_TEST(f[0].value == "Can't make it, sorry \xF0\x9F\x98\x9E");
  BOOST_TEST(f[1].value == "+15551230001");
}

BOOST_AUTO_TEST_CASE(keepsDuplicateNamesInOrder) {
  const FormFields f = mustParse("a=1&b=2&a=3");
  BOOST_TEST(f.size() == 3u);
  BOOST_TEST(countField(f, "a") == 2u);
  BOOST_TEST(*findField(f, "a") == "1");
  BOOST_TEST(f[2].value == "3");
  BOOST_TEST(findField(f, "c") == nullptr);
}

BOOST_AUTO_TEST_CASE(skipsEmptyPiecesAndReadsABareNameAsAnEmptyValue) {
  const FormFields f = mustParse("&a=1&&flag&b=&");
  BOOST_TEST(f.size() == 3u);
  BOOST_TEST(f[1].name == "flag");
  BOOST_TEST(f[1].value == "");
  BOOST_TEST(f[2].name == "b");
  BOOST_TEST(f[2].value == "");
  BOOST_TEST(mustParse("").empty());
}

BOOST_AUTO_TEST_CASE(keepsEqualsSignsInsideValues) {
  const FormFields f = mustParse("k=a=b");
  BOOST_TEST(f[0].value == "a=b");
}

BOOST_AUTO_TEST_CASE(refusesBrokenPercentEscapesNamingTheByte) {
  for (const auto& [body, offset] : std::vector<std::pair<std::string, std::string>>{
           {"a=%", "2"}, {"a=%4", "2"}, {"a=%zz", "2"}, {"Body=ok&x=%G1", "10"}, {"%=1", "0"}}) {
    Result<FormFields> r = parseForm(body);
    BOOST_TEST_REQUIRE(!r.ok(), body);
    BOOST_TEST(r.message() == "invalid percent-encoding at byte " + offset, body);
  }
}

BOOST_AUTO_TEST_CASE(refusesAnEmptyFieldName) {
  Result<FormFields> r = parseForm("a=1&=2");
  BOOST_TEST_REQUIRE(!r.ok());
  BOOST_TEST(r.message() == "empty field name at byte 4");
}

BOOST_AUTO_TEST_CASE(enforcesTheByteAndFieldLimits) {
  Result<FormFields> big = parseForm(std::string(101, 'a'), FormLimits{100, 10});
  BOOST_TEST_REQUIRE(!big.ok());
  BOOST_TEST(big.message() == "form body is 101 bytes, over the limit of 100");
  Result<FormFields> many = parseForm("a&b&c&d", FormLimits{100, 3});
  BOOST_TEST_REQUIRE(!many.ok());
  BOOST_TEST(many.message() == "form body has more than 3 fields");
  BOOST_TEST(parseForm("a&b&c", FormLimits{100, 3}).ok());
}

BOOST_AUTO_TEST_CASE(returnsNulAndInvalidUtf8AsTheBytesSent) {
  const FormFields f = mustParse("Body=a%00b%FF");
  BOOST_TEST(f[0].value == std::string("a\0b\xFF", 4));
}

BOOST_AUTO_TEST_CASE(encodesSpacesAsPlusAndOtherBytesAsUppercaseHex) {
  BOOST_TEST(encodeForm({{"To", "+1 555"}, {"Body", "a&b=c~%"}}) ==
             "To=%2B1+555&Body=a%26b%3Dc%7E%25");
  BOOST_TEST(formEncode("*-._AZaz09") == "*-._AZaz09");
}

BOOST_AUTO_TEST_CASE(encodeThenParseGivesTheFieldsBack) {
  std::string allBytes;
  for (int c = 0; c < 256; ++c) allBytes.push_back(static_cast<char>(c));
  const FormFields fields{{"Body", "Héllo wörld ✓ 😀 + & = % ?"},
                          {"Body", ""},
                          {"bin", allBytes},
                          {"k", "x y+z"},
                          {"\xF0\x9F\x98\x80", "emoji name"}};
  BOOST_TEST((mustParse(encodeForm(fields)) == fields));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::drivers::twilio
