#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <string>

#include "base/bytes.h"
#include "base/secret.h"

using namespace atoms;

namespace {

Bytes sequence(std::size_t n) {
  Bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(i * 37 + 11);
  return b;
}

Bytes text(std::string_view s) { return Bytes(s.begin(), s.end()); }

}  // namespace

BOOST_AUTO_TEST_SUITE(bytes)

BOOST_AUTO_TEST_CASE(hexRoundTripsEveryByteValue) {
  Bytes all(256);
  for (int i = 0; i < 256; ++i) all[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(i);
  const std::string hex = toHex(all);
  BOOST_TEST(hex.size() == 512u);
  BOOST_TEST(hex.substr(0, 8) == "00010203");
  BOOST_TEST(hex.substr(504) == "fcfdfeff");  // lowercase
  auto back = fromHex(hex);
  BOOST_REQUIRE(back.has_value());
  BOOST_TEST(*back == all);
}

BOOST_AUTO_TEST_CASE(hexOfEmptyIsEmpty) {
  BOOST_TEST(toHex(Bytes{}).empty());
  auto back = fromHex("");
  BOOST_REQUIRE(back.has_value());
  BOOST_TEST(back->empty());
}

BOOST_AUTO_TEST_CASE(fromHexAcceptsUppercase) {
  auto b = fromHex("DEADbeef");
  BOOST_REQUIRE(b.has_value());
  BOOST_TEST(*b == (Bytes{0xde, 0xad, 0xbe, 0xef}));
}

BOOST_AUTO_TEST_CASE(fromHexRejectsOddLengthAndNonHex) {
  BOOST_TEST(!fromHex("abc").has_value());
  BOOST_TEST(!fromHex("zz").has_value());
  BOOST_TEST(!fromHex("0g").has_value());
  BOOST_TEST(!fromHex("00 11").has_value());
  BOOST_TEST(!fromHex("0011 ").has_value());
}

BOOST_AUTO_TEST_CASE(base64MatchesRfc4648Vectors) {
  const std::pair<const char*, const char*> vectors[] = {
      {"", ""},
      {"f", "Zg=="},
      {"fo", "Zm8="},
      {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="},
      {"fooba", "Zm9vYmE="},
      {"foobar", "Zm9vYmFy"},
  };
  for (const auto& [plain, encoded] : vectors) {
    BOOST_TEST(toBase64(text(plain)) == encoded);
    auto back = fromBase64(encoded);
    BOOST_REQUIRE_MESSAGE(back.has_value(), encoded);
    BOOST_TEST(*back == text(plain));
  }
}

BOOST_AUTO_TEST_CASE(base64RoundTripsEveryLength) {
  for (std::size_t n = 0; n <= 70; ++n) {
    const Bytes b = sequence(n);
    const std::string enc = toBase64(b);
    BOOST_TEST(enc.size() % 4 == 0u);
    auto back = fromBase64(enc);
    BOOST_REQUIRE(back.has_value());
    BOOST_TEST(*back == b);
  }
}

BOOST_AUTO_TEST_CASE(strictBase64RejectsBadPadding) {
  BOOST_TEST(!fromBase64("Zg").has_value());        // padding missing
  BOOST_TEST(!fromBase64("Zg=").has_value());       // padding short
  BOOST_TEST(!fromBase64("Zg===").has_value());     // padding long
  BOOST_TEST(!fromBase64("Zm9vY").has_value());     // not a multiple of 4
  BOOST_TEST(!fromBase64("Zg==Zg==").has_value());  // padding in the middle
  BOOST_TEST(!fromBase64("====").has_value());
}

BOOST_AUTO_TEST_CASE(strictBase64RejectsWhitespaceAndForeignCharacters) {
  BOOST_TEST(!fromBase64("Zm9v\n").has_value());
  BOOST_TEST(!fromBase64(" Zm9v").has_value());
  BOOST_TEST(!fromBase64("Zm 9v").has_value());
  BOOST_TEST(!fromBase64("Zm9v\r\nYmFy").has_value());
  BOOST_TEST(!fromBase64("Zm9-").has_value());  // URL-safe alphabet is not accepted
  BOOST_TEST(!fromBase64("Zm9_").has_value());
}

BOOST_AUTO_TEST_CASE(strictBase64RejectsNonCanonicalLastCharacter) {
  // "Zg==" is 'f'; "Zh==" decodes to the same byte with stray low bits set.
  BOOST_TEST(fromBase64("Zg==").has_value());
  BOOST_TEST(!fromBase64("Zh==").has_value());
  // "Zm8=" is "fo"; "Zm9=" carries stray bits in its last character.
  BOOST_TEST(fromBase64("Zm8=").has_value());
  BOOST_TEST(!fromBase64("Zm9=").has_value());
}

BOOST_AUTO_TEST_CASE(sha256KnownAnswers) {
  BOOST_TEST(toHex(sha256(asBytes("abc"))) ==
             "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  BOOST_TEST(toHex(sha256(asBytes(""))) ==
             "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  BOOST_TEST(toHex(sha256(asBytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))) ==
             "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(secret)

BOOST_AUTO_TEST_CASE(secretBytesCopiesInputAndClonesEqual) {
  BOOST_REQUIRE(initSodium());
  Bytes plain = sequence(48);
  SecretBytes s(plain);
  plain[0] ^= 0xff;  // the secret holds its own copy
  BOOST_TEST(s.size() == 48u);
  BOOST_TEST(s.data()[0] == sequence(1)[0]);
  SecretBytes c = s.clone();
  BOOST_TEST(c.data() != s.data());
  BOOST_TEST(Bytes(c.view().begin(), c.view().end()) == Bytes(s.view().begin(), s.view().end()));
}

BOOST_AUTO_TEST_CASE(secretBytesStartsZeroed) {
  SecretBytes s(32);
  for (std::uint8_t b : s.view()) BOOST_TEST(b == 0);
}

BOOST_AUTO_TEST_CASE(secretBytesMoveLeavesSourceEmpty) {
  SecretBytes a(sequence(16));
  const std::uint8_t* p = a.data();
  SecretBytes b(std::move(a));
  BOOST_TEST(a.empty());  // NOLINT(bugprone-use-after-move): the moved-from state is the contract
  BOOST_TEST(a.data() == nullptr);
  BOOST_TEST(b.data() == p);
  SecretBytes c(4);
  c = std::move(b);
  BOOST_TEST(c.data() == p);
  BOOST_TEST(c.size() == 16u);
}

BOOST_AUTO_TEST_CASE(emptySecretBytesHasNoStorage) {
  SecretBytes s;
  BOOST_TEST(s.empty());
  BOOST_TEST(s.data() == nullptr);
  SecretBytes z(std::size_t{0});
  BOOST_TEST(z.empty());
  BOOST_TEST(z.view().empty());
}

BOOST_AUTO_TEST_SUITE_END()
