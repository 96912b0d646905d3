#include <boost/test/unit_test.hpp>
#include <string>

#include "drivers/sms/encoding/segmentation.h"

using namespace atoms::drivers;

namespace {

std::string repeat(std::string_view piece, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += piece;
  return out;
}

const std::string kEuro = "\u20ac";
const std::string kCedilla = "\u00e7";  // ç: not in GSM-7, forces UCS-2
const std::string kEmoji = "\U0001F600";

SegmentPlan plan(const std::string& text) {
  auto r = planSegments(text);
  BOOST_REQUIRE_MESSAGE(r.ok(), r.message());
  const auto count = countSegments(text);
  BOOST_REQUIRE(count.ok());
  BOOST_TEST(*count == static_cast<int>(r->segments.size()));
  std::string joined;
  for (const auto& s : r->segments) joined += s.text;
  BOOST_TEST(joined == text);
  return std::move(*r);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(segmentation)

BOOST_AUTO_TEST_CASE(fitsOneGsm7MessageUpTo160Septets) {
  const SegmentPlan p = plan(repeat("a", 160));
  BOOST_TEST((p.encoding == SmsEncoding::kGsm7));
  BOOST_REQUIRE(p.segments.size() == 1u);
  BOOST_TEST(p.segments[0].units == 160);
}

BOOST_AUTO_TEST_CASE(splits161SeptetsInto153AndTheRest) {
  const SegmentPlan p = plan(repeat("a", 161));
  BOOST_REQUIRE(p.segments.size() == 2u);
  BOOST_TEST(p.segments[0].units == 153);
  BOOST_TEST(p.segments[1].units == 8);
  BOOST_TEST(plan(repeat("a", 306)).segments.size() == 2u);
  BOOST_TEST(plan(repeat("a", 307)).segments.size() == 3u);
}

BOOST_AUTO_TEST_CASE(countsExtensionCharactersTwice) {
  const SegmentPlan fits = plan(repeat("a", 158) + kEuro);
  BOOST_TEST(fits.segments.size() == 1u);
  BOOST_TEST(fits.segments[0].units == 160);
  BOOST_TEST(plan(repeat("a", 159) + kEuro).segments.size() == 2u);
  BOOST_TEST(plan(repeat("[", 80)).segments.size() == 1u);
  BOOST_TEST(plan(repeat("[", 81)).segments.size() == 2u);
}

BOOST_AUTO_TEST_CASE(neverSplitsAnEscapeAtThe153Boundary) {
  // 152 septets, then the euro sign (2) would end at 154: it moves whole to the next part.
  const SegmentPlan p = plan(repeat("a", 152) + kEuro + repeat("b", 10));
  BOOST_REQUIRE(p.segments.size() == 2u);
  BOOST_TEST(p.segments[0].text == repeat("a", 152));
  BOOST_TEST(p.segments[0].units == 152);
  BOOST_TEST(p.segments[1].text == kEuro + repeat("b", 10));
  BOOST_TEST(p.segments[1].units == 12);
  // At 151 it ends exactly on the boundary and stays.
  const SegmentPlan q = plan(repeat("a", 151) + kEuro + repeat("b", 10));
  BOOST_TEST(q.segments[0].units == 153);
  BOOST_TEST(q.segments[0].text == repeat("a", 151) + kEuro);
}

BOOST_AUTO_TEST_CASE(keepsGsm7ForItsAccentedAndGreekLetters) {
  const SegmentPlan p = plan("\u00c7a va? \u00c9t\u00e9 \u00e0 M\u00fcnchen, \u0394 \u00a3 \u00bf");
  BOOST_TEST((p.encoding == SmsEncoding::kGsm7));
}

BOOST_AUTO_TEST_CASE(usesUcs2WhenAnyCharacterIsNotGsm7) {
  const std::string texts[] = {"Fran" + kCedilla + "ois", "Shift at 5 " + kEmoji,
                               "Hola Jos\u00e9, \u4f60\u597d", "it\u2019s covered", "tab\there"};
  for (const std::string& text : texts) {
    const SegmentPlan p = plan(text);
    BOOST_TEST((p.encoding == SmsEncoding::kUcs2), text);
  }
}

BOOST_AUTO_TEST_CASE(fitsOneUcs2MessageUpTo70Units) {
  BOOST_TEST(plan(repeat(kCedilla, 70)).segments.size() == 1u);
  const SegmentPlan p = plan(repeat(kCedilla, 71));
  BOOST_REQUIRE(p.segments.size() == 2u);
  BOOST_TEST(p.segments[0].units == 67);
  BOOST_TEST(p.segments[1].units == 4);
  BOOST_TEST(plan(repeat(kEmoji, 35)).segments.size() == 1u);
  BOOST_TEST(plan(repeat(kEmoji, 36)).segments.size() == 2u);
}

BOOST_AUTO_TEST_CASE(neverSplitsASurrogatePairAtThe67Boundary) {
  // 66 units then an emoji (2) would end at 68: the pair moves whole to the next part.
  const SegmentPlan p = plan(repeat(kCedilla, 66) + kEmoji + repeat(kCedilla, 5));
  BOOST_REQUIRE(p.segments.size() == 2u);
  BOOST_TEST(p.segments[0].units == 66);
  BOOST_TEST(p.segments[0].text == repeat(kCedilla, 66));
  BOOST_TEST(p.segments[1].text == kEmoji + repeat(kCedilla, 5));
  BOOST_TEST(p.segments[1].units == 7);
  // 65 units then the pair ends exactly at 67 and stays.
  const SegmentPlan q = plan(repeat(kCedilla, 65) + kEmoji + repeat(kCedilla, 10));
  BOOST_TEST(q.segments[0].units == 67);
  BOOST_TEST(q.segments[0].text == repeat(kCedilla, 65) + kEmoji);
}

BOOST_AUTO_TEST_CASE(refusesEmptyNulAndInvalidText) {
  const auto empty = planSegments("");
  BOOST_TEST(!empty.ok());
  BOOST_TEST(empty.message().find("empty") != std::string::npos, empty.message());
  const auto nul = planSegments(std::string("ab\0c", 4));
  BOOST_TEST(!nul.ok());
  BOOST_TEST(nul.message().find("NUL byte (at byte 2)") != std::string::npos, nul.message());
  const auto invalid = planSegments("caf\xC3");
  BOOST_TEST(!invalid.ok());
  BOOST_TEST(invalid.message().find("UTF-8 (at byte 3)") != std::string::npos, invalid.message());
  BOOST_TEST(!countSegments("").ok());
  BOOST_TEST(!countSegments("\xFF").ok());
}

BOOST_AUTO_TEST_CASE(refusesMorePartsThanAConcatenationReferenceNumbers) {
  const std::string most = repeat("a", kMaxSegments * kGsm7PartSeptets);
  BOOST_TEST(plan(most).segments.size() == static_cast<std::size_t>(kMaxSegments));
  const auto tooLong = planSegments(most + "a");
  BOOST_TEST(!tooLong.ok());
  BOOST_TEST(tooLong.message().find("more than 255") != std::string::npos, tooLong.message());
  BOOST_TEST(!countSegments(most + "a").ok());
  // Escapes pushed across boundaries can add a part the plain count does not predict.
  const std::string shifted = repeat(repeat("a", 152) + kEuro, kMaxSegments - 1);
  BOOST_TEST(!planSegments(shifted + repeat("a", 400)).ok());
}

BOOST_AUTO_TEST_SUITE_END()
