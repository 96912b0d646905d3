#include <boost/test/unit_test.hpp>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "base/canonical_json.h"

namespace json = atoms::json;

namespace {

bool rejects(std::string_view text) { return !json::parse(text).ok(); }

std::string canon(std::string_view text) {
  auto v = json::parse(text);
  BOOST_REQUIRE_MESSAGE(v.ok(), "parse failed: " << text << ": " << (v.ok() ? "" : v.message()));
  return json::canonical(*v);
}

std::string nested(char open, char close, int depth) {
  return std::string(static_cast<std::size_t>(depth), open) +
         std::string(static_cast<std::size_t>(depth), close);
}

std::string nestedObjects(int depth) {
  std::string s;
  for (int i = 0; i < depth; ++i) s += "{\"a\":";
  s += "1";
  s += std::string(static_cast<std::size_t>(depth), '}');
  return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(canonical_json)

BOOST_AUTO_TEST_CASE(parsesEveryValueKind) {
  auto v = json::parse(R"({"n":null,"t":true,"f":false,"i":-42,"s":"x","a":[1,"y"],"o":{}})");
  BOOST_REQUIRE(v.ok());
  BOOST_TEST(v->isObject());
  BOOST_TEST(v->find("n")->isNull());
  BOOST_TEST(v->find("t")->asBool() == true);
  BOOST_TEST(v->find("f")->asBool() == false);
  BOOST_TEST(v->find("i")->asInt() == -42);
  BOOST_TEST(v->find("s")->asString() == "x");
  BOOST_TEST(v->find("a")->asArray().size() == 2u);
  BOOST_TEST(v->find("a")->asArray()[1].asString() == "y");
  BOOST_TEST(v->find("o")->asObject().empty());
  BOOST_TEST(v->find("missing") == nullptr);
  BOOST_TEST(json::Value(3).find("a") == nullptr);
}

BOOST_AUTO_TEST_CASE(scalarsAtTopLevelAreAccepted) {
  BOOST_TEST(json::parse("null")->isNull());
  BOOST_TEST(json::parse("7")->asInt() == 7);
  BOOST_TEST(json::parse("\"s\"")->asString() == "s");
  BOOST_TEST(json::parse("[]")->asArray().empty());
}

BOOST_AUTO_TEST_CASE(insignificantWhitespaceIsAcceptedAndDropped) {
  BOOST_TEST(canon(" \t\n\r{ \"b\" : [ 1 , 2 ] ,\n\"a\" : { } }\r\n ") == R"({"a":{},"b":[1,2]})");
}

BOOST_AUTO_TEST_CASE(canonicalSortsKeysByCodePoint) {
  // "\uff21" (U+FF21) sorts before the astral U+1F600 by code point; RFC 8785's UTF-16 order
  // would put the astral key first. DESIGN.md asks for code point order.
  const std::string text =
      "{\"\xF0\x9F\x98\x80\":1,\"z\":2,\"\xEF\xBC\xA1\":3,\"\xC3\xA9\":4,\"A\":5,\"a\":6,\"\":7,"
      "\"\xE4\xB8\xAD\":8,\"ab\":9}";
  const std::string expected =
      "{\"\":7,\"A\":5,\"a\":6,\"ab\":9,\"z\":2,\"\xC3\xA9\":4,\"\xE4\xB8\xAD\":8,"
      "\"\xEF\xBC\xA1\":3,\"\xF0\x9F\x98\x80\":1}";
  BOOST_TEST(canon(text) == expected);
  BOOST_TEST(json::parseCanonical(expected).ok());
  BOOST_TEST(!json::parseCanonical(text).ok());
}

BOOST_AUTO_TEST_CASE(canonicalEscapesOnlyQuoteBackslashAndControls) {
  BOOST_TEST(canon(R"(["\"","\\","\b","\f","\n","\r","\t"])") ==
             R"(["\"","\\","\b","\f","\n","\r","\t"])");
  BOOST_TEST(canon(R"(["\u0000","\u0001","\u001F","\u000b","\u001e"])") ==
             R"(["\u0000","\u0001","\u001f","\u000b","\u001e"])");
  // Solidus, DEL, non-ASCII and U+2028 are written literally.
  BOOST_TEST(canon(R"(["\/","\u007f","\u00e9","\u2028","\u0041"])") ==
             "[\"/\",\"\x7F\",\"\xC3\xA9\",\"\xE2\x80\xA8\",\"A\"]");
}

BOOST_AUTO_TEST_CASE(everyControlCharacterRoundTrips) {
  for (int c = 0; c < 0x20; ++c) {
    const json::Value v(std::string(1, static_cast<char>(c)));
    const std::string text = json::canonical(v);
    auto back = json::parseCanonical(text);
    BOOST_REQUIRE_MESSAGE(back.ok(), "control " << c << ": " << text);
    BOOST_TEST((*back == v));
  }
}

BOOST_AUTO_TEST_CASE(bmpAndAstralCharactersDecode) {
  BOOST_TEST(json::parse(R"("\u00e9\u4e2d")")->asString() == "\xC3\xA9\xE4\xB8\xAD");
  // A surrogate pair is one astral code point, in either hex case.
  BOOST_TEST(json::parse(R"("\ud83d\ude00")")->asString() == "\xF0\x9F\x98\x80");
  BOOST_TEST(json::parse(R"("\uD83D\uDE00")")->asString() == "\xF0\x9F\x98\x80");
  BOOST_TEST(json::parse(R"("\udbff\udfff")")->asString() == "\xF4\x8F\xBF\xBF");
  BOOST_TEST(json::parse(R"("\ud800\udc00")")->asString() == "\xF0\x90\x80\x80");
  // Literal astral UTF-8 is accepted and kept literal.
  BOOST_TEST(canon("\"\xF0\x9F\x98\x80\"") == "\"\xF0\x9F\x98\x80\"");
}

BOOST_AUTO_TEST_CASE(loneSurrogateEscapesAreRejected) {
  BOOST_TEST(rejects(R"("\ud83d")"));
  BOOST_TEST(rejects(R"("\ude00")"));
  BOOST_TEST(rejects(R"("\ud83d\u0041")"));
  BOOST_TEST(rejects(R"("\ud83dx")"));
  BOOST_TEST(rejects(R"("\ud83d\ud83d")"));
  BOOST_TEST(rejects(R"("\ude00\ud83d")"));
  BOOST_TEST(rejects(R"("\ud83d\n")"));
}

BOOST_AUTO_TEST_CASE(malformedEscapesAreRejected) {
  BOOST_TEST(rejects(R"("\x")"));
  BOOST_TEST(rejects(R"("\u12")"));
  BOOST_TEST(rejects(R"("\u12g4")"));
  BOOST_TEST(rejects(R"("\U0041")"));
  BOOST_TEST(rejects("\"\\"));
  BOOST_TEST(rejects("\"abc"));
}

BOOST_AUTO_TEST_CASE(integerBoundsAreTheIJsonSafeRange) {
  BOOST_TEST(json::parse("9007199254740991")->asInt() == json::kMaxSafeInteger);
  BOOST_TEST(json::parse("-9007199254740991")->asInt() == -json::kMaxSafeInteger);
  BOOST_TEST(rejects("9007199254740992"));
  BOOST_TEST(rejects("-9007199254740992"));
  BOOST_TEST(rejects("99999999999999999999999999999999"));
  BOOST_TEST(rejects("-99999999999999999999999999999999"));
  BOOST_TEST(canon("[0,-1,1,9007199254740991]") == "[0,-1,1,9007199254740991]");
}

BOOST_AUTO_TEST_CASE(nonCanonicalNumbersAreRejected) {
  BOOST_TEST(rejects("-0"));
  BOOST_TEST(rejects("[-0]"));
  BOOST_TEST(rejects("01"));
  BOOST_TEST(rejects("-01"));
  BOOST_TEST(rejects("00"));
  BOOST_TEST(rejects("1.0"));
  BOOST_TEST(rejects("1.5"));
  BOOST_TEST(rejects("1e5"));
  BOOST_TEST(rejects("1E5"));
  BOOST_TEST(rejects("0e0"));
  BOOST_TEST(rejects("-"));
  BOOST_TEST(rejects("+1"));
  BOOST_TEST(rejects(".5"));
  BOOST_TEST(rejects("0x10"));
}

BOOST_AUTO_TEST_CASE(duplicateKeysAreRejected) {
  BOOST_TEST(rejects(R"({"a":1,"a":2})"));
  BOOST_TEST(rejects(R"({"a":1,"a":1})"));
  // Equal after unescaping is still a duplicate.
  BOOST_TEST(rejects(R"({"a":1,"\u0061":2})"));
  BOOST_TEST(rejects(R"({"x":{"b":1,"c":2,"b":3}})"));
  // The same key in different objects is fine.
  BOOST_TEST(json::parse(R"({"a":{"a":1},"b":[{"a":1},{"a":2}]})").ok());
}

BOOST_AUTO_TEST_CASE(errorsNameTheByteOffset) {
  auto dup = json::parse(R"({"a":1,"a":2})");
  BOOST_REQUIRE(!dup.ok());
  BOOST_TEST(dup.message() == "invalid JSON at byte 7: duplicate key \"a\"");
  // A key that is not printable ASCII is not quoted: the error is answered and logged as it is.
  auto oddDup = json::parse("{\"a\x7f\":1,\"a\x7f\":2}");
  BOOST_REQUIRE(!oddDup.ok());
  BOOST_TEST(oddDup.message() == "invalid JSON at byte 8: duplicate key");
  auto trailing = json::parse("[1] x");
  BOOST_REQUIRE(!trailing.ok());
  BOOST_TEST(trailing.message().find("at byte 4") != std::string::npos);
  auto badUtf8 = json::parse("\"ab\xC0\x80\"");
  BOOST_REQUIRE(!badUtf8.ok());
  BOOST_TEST(badUtf8.message().find("at byte 3") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(nestingIsLimitedTo64) {
  BOOST_TEST(json::parse(nested('[', ']', json::kMaxDepth)).ok());
  BOOST_TEST(rejects(nested('[', ']', json::kMaxDepth + 1)));
  BOOST_TEST(json::parse(nestedObjects(json::kMaxDepth)).ok());
  BOOST_TEST(rejects(nestedObjects(json::kMaxDepth + 1)));
  // Far deeper input fails fast instead of exhausting the stack.
  BOOST_TEST(rejects(std::string(1'000'000, '[')));
  BOOST_TEST(rejects(nested('[', ']', 100'000)));
}

BOOST_AUTO_TEST_CASE(invalidUtf8IsRejected) {
  const std::vector<std::string> bad = {
      "\xC0\x80",          // overlong NUL
      "\xC1\xBF",          // overlong
      "\xE0\x80\x80",      // overlong 3-byte
      "\xE0\x9F\xBF",      // overlong 3-byte (U+07FF)
      "\xF0\x80\x80\x80",  // overlong 4-byte
      "\xF0\x8F\xBF\xBF",  // overlong 4-byte (U+FFFF)
      "\xED\xA0\x80",      // UTF-8-encoded high surrogate U+D800
      "\xED\xBF\xBF",      // UTF-8-encoded low surrogate U+DFFF
      "\xF4\x90\x80\x80",  // U+110000
      "\xF5\x80\x80\x80",  // beyond Unicode
      "\xFF",              // never valid
      "\x80",              // lone continuation
      "\xE2\x82",          // truncated
      "\xE2\x28\xA1",      // bad continuation
  };
  for (const std::string& b : bad) {
    BOOST_TEST(rejects("\"" + b + "\""), "accepted " << b.size() << " bytes");
    BOOST_TEST(!json::isValidUtf8(b));
    // Outside strings too.
    BOOST_TEST(rejects("[" + b + "]"));
  }
  const std::vector<std::string> good = {"\xF4\x8F\xBF\xBF", "\xEF\xBF\xBF", "\xED\x9F\xBF",
                                         "\xEE\x80\x80",     "\xC2\x80",     "\xE0\xA0\x80",
                                         "\xF0\x90\x80\x80"};
  for (const std::string& g : good) {
    BOOST_TEST(json::parse("\"" + g + "\"").ok());
    BOOST_TEST(json::isValidUtf8(g));
  }
}

BOOST_AUTO_TEST_CASE(unescapedControlCharactersAreRejected) {
  BOOST_TEST(rejects("\"a\nb\""));
  BOOST_TEST(rejects("\"a\tb\""));
  BOOST_TEST(rejects(std::string("\"a\0b\"", 5)));
  BOOST_TEST(rejects("\"\x1F\""));
  BOOST_TEST(json::parse("\"\x7F\"").ok());  // DEL is not a JSON control character
}

BOOST_AUTO_TEST_CASE(syntaxErrorsAreRejected) {
  for (const char* text :
       {"",         " ",          "[1,]",           "[,1]",  "{,}",   "{\"a\"}",
        "{\"a\":}", "{\"a\":1,}", "{a:1}",          "['a']", "[1 2]", "{\"a\":1 \"b\":2}",
        "tru",      "nul",        "falsey",         "True",  "[",     "]",
        "{",        "}",          "\xEF\xBB\xBF{}", "1 2",   "{}x",   "nullx",
        "[]]",      "\"a\"\"b\""}) {
    BOOST_TEST(rejects(text), "accepted: " << text);
  }
}

BOOST_AUTO_TEST_CASE(parseCanonicalAcceptsOnlyTheCanonicalText) {
  BOOST_TEST(json::parseCanonical(R"({"a":[1,true,null],"b":"x"})").ok());
  for (const char* text : {R"({"b":1,"a":2})", R"({"a": 1})", " {}", "{}\n", R"(["\/"])",
                           R"(["\u00e9"])", R"(["\u001F"])", R"(["\u0041"])", R"(["\u000a"])"}) {
    auto r = json::parseCanonical(text);
    BOOST_REQUIRE_MESSAGE(!r.ok(), "accepted: " << text);
    BOOST_TEST(r.message() == "not canonical JSON");
  }
  // Text that is not JSON at all reports the parse error, not "not canonical".
  BOOST_TEST(json::parseCanonical("[1,]").message().find("invalid JSON") == 0u);
}

BOOST_AUTO_TEST_CASE(builtValuesSerialiseCanonically) {
  const json::Value v = json::Object{
      {"seq", 3},
      {"kind", "sms.in"},
      {"body", json::Object{{"text", "Jamal didn't show\n"}, {"n", std::int64_t{-5}}}},
      {"tags", json::Array{true, nullptr, "x"}},
  };
  BOOST_TEST(json::canonical(v) ==
             R"({"body":{"n":-5,"text":"Jamal didn't show\n"},"kind":"sms.in","seq":3,)"
             R"("tags":[true,null,"x"]})");
  BOOST_TEST(json::validate(v).ok());
  auto back = json::parseCanonical(json::canonical(v));
  BOOST_REQUIRE(back.ok());
  BOOST_TEST((*back == v));
  BOOST_TEST(!(json::Value(1) == json::Value("1")));
}

// Conversions that would silently change meaning do not compile.
static_assert(!std::is_constructible_v<json::Value, double>);
static_assert(!std::is_constructible_v<json::Value, std::uint64_t>);
static_assert(!std::is_constructible_v<json::Value, const json::Value*>);
static_assert(!std::is_constructible_v<json::Value, char>);
static_assert(std::is_constructible_v<json::Value, std::uint32_t>);
static_assert(std::is_constructible_v<json::Value, char*>);

BOOST_AUTO_TEST_CASE(validateFindsUnrepresentableValues) {
  BOOST_TEST(!json::validate(json::Value(std::int64_t{1} << 53)).ok());
  BOOST_TEST(!json::validate(json::Value(-(std::int64_t{1} << 53))).ok());
  BOOST_TEST(json::validate(json::Value(json::kMaxSafeInteger)).ok());
  BOOST_TEST(!json::validate(json::Value(std::string("\xC0\x80"))).ok());
  BOOST_TEST(!json::validate(json::Object{{std::string("\xFF"), 1}}).ok());
  json::Value deep = json::Array{};
  for (int i = 1; i < json::kMaxDepth; ++i) deep = json::Array{deep};
  BOOST_TEST(json::validate(deep).ok());
  deep = json::Array{deep};
  BOOST_TEST(!json::validate(deep).ok());
}

// Random bytes and random mutations of a valid document: parse never crashes, and whatever it
// accepts serialises to a text that parses back to the same value.
BOOST_AUTO_TEST_CASE(parseSurvivesRandomInput) {
  std::mt19937 rng(20240611);
  const std::string seed =
      R"({"a":[1,-2,{"b":"\u00e9\ud83d\ude00\n"}],"c":null,"d":true,"e":"x\"y","f":9007199254740991})";
  const std::string alphabet =
      "{}[]:,\"\\u0123456789abcdefABCDEF-+.eEtrunlsx \n\t\x7F\xC3\xA9\xED\xF0";
  int accepted = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    std::string s = seed;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t pos = rng() % (s.size() + 1);
      const char c =
          (rng() % 4 == 0) ? static_cast<char>(rng() % 256) : alphabet[rng() % alphabet.size()];
      switch (rng() % 3) {
        case 0:
          s.insert(pos, 1, c);
          break;
        case 1:
          if (pos < s.size()) s.erase(pos, 1);
          break;
        default:
          if (pos < s.size()) s[pos] = c;
      }
    }
    auto v = json::parse(s);
    if (!v.ok()) continue;
    ++accepted;
    BOOST_TEST(json::validate(*v).ok());
    const std::string text = json::canonical(*v);
    auto back = json::parseCanonical(text);
    BOOST_REQUIRE_MESSAGE(back.ok(), "canonical text does not parse back: " << text);
    BOOST_TEST((*back == *v));
  }
  BOOST_TEST(accepted > 0);
  for (int iter = 0; iter < 5000; ++iter) {
    std::string s(rng() % 40, '\0');
    for (char& c : s) c = static_cast<char>(rng() % 256);
    (void)json::parse(s);
  }
}

namespace {

// What the one-pass reader says of a whole text: a single canonical value and nothing after it.
bool readsAsOneCanonicalValue(std::string_view text) {
  json::CanonicalReader reader(text);
  return reader.skipValue(0) && reader.atEnd();
}

}  // namespace

// The one pass (CanonicalReader, and parseCanonical's first try) accepts exactly the texts that
// parse() accepts and canonical() writes back byte for byte: on random edits of a canonical
// document with every kind of escape, key order and number in it.
BOOST_AUTO_TEST_CASE(theOnePassAcceptsExactlyTheCanonicalTexts) {
  std::mt19937 rng(20261205);
  const std::string seed =
      R"({"":0,"a":[1,-2,{"b":"\u00e9\n\t\"\\\u001f\u0000\b\f\r"}],"c":null,"d":true,)"
      R"("e":"x\"y","f":9007199254740991,"\u0001":[],"\u00e9":{},"\u00e8":")"
      "\xF0\x9F\x98\x80\x7F\"}";
  BOOST_REQUIRE(json::parse(seed).ok());
  const std::string canonicalSeed = json::canonical(*json::parse(seed));
  BOOST_REQUIRE(readsAsOneCanonicalValue(canonicalSeed));
  const std::string alphabet = "{}[]:,\"\\u0123456789abcdefABCDEF-.e \n\x7F\xC3\xA9";
  int canonicalCount = 0;
  for (int iter = 0; iter < 30000; ++iter) {
    std::string s = canonicalSeed;
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) {
      const std::size_t pos = rng() % (s.size() + 1);
      const char c = alphabet[rng() % alphabet.size()];
      switch (rng() % 3) {
        case 0:
          s.insert(pos, 1, c);
          break;
        case 1:
          if (pos < s.size()) s.erase(pos, 1);
          break;
        default:
          if (pos < s.size()) s[pos] = c;
      }
    }
    auto v = json::parse(s);
    const bool isCanonical = v.ok() && json::canonical(*v) == s;
    canonicalCount += isCanonical ? 1 : 0;
    BOOST_REQUIRE_MESSAGE(readsAsOneCanonicalValue(s) == isCanonical, "disagree on: " << s);
    auto c = json::parseCanonical(s);
    BOOST_REQUIRE(c.ok() == isCanonical);
    if (isCanonical) BOOST_TEST((*c == *v));
  }
  BOOST_TEST(canonicalCount > 100);
}

BOOST_AUTO_TEST_CASE(theReaderReadsFieldsInPlace) {
  const std::string text = R"({"a":"x\ny","b":[1,{"c":2}],"n":-42})";
  json::CanonicalReader r(text);
  std::string a;
  std::int64_t n = 0;
  json::Value b;
  BOOST_TEST(!r.expect(R"({"b")"));
  BOOST_TEST(r.position() == 0u);
  BOOST_TEST(r.expect(R"({"a":)"));
  BOOST_TEST(r.readString(a));
  BOOST_TEST(a == "x\ny");
  BOOST_TEST(r.expect(R"(,"b":)"));
  BOOST_TEST(!r.readString(a));  // an array is there; nothing moves
  BOOST_TEST(r.peek() == '[');
  BOOST_TEST(r.readValue(b, 1));
  BOOST_TEST((b == json::Value(json::Array{1, json::Object{{"c", 2}}})));
  BOOST_TEST(r.expect(R"(,"n":)"));
  BOOST_TEST(r.readInteger(n));
  BOOST_TEST(n == -42);
  BOOST_TEST(r.expect("}"));
  BOOST_TEST(r.atEnd());
  // A plain string is read as a view; one with an escape or non-ASCII is not plain.
  const std::string plain = R"(["ab12","a\"b","é",7,"open)";
  json::CanonicalReader p(plain);
  std::string_view view;
  BOOST_TEST(p.expect("["));
  BOOST_TEST(p.readPlainString(view));
  BOOST_TEST(view == "ab12");
  BOOST_TEST(p.expect(","));
  BOOST_TEST(!p.readPlainString(view));
  BOOST_TEST(p.readString(a));
  BOOST_TEST(a == "a\"b");
  BOOST_TEST(p.expect(","));
  BOOST_TEST(!p.readPlainString(view));
  BOOST_TEST(p.readString(a));
  BOOST_TEST(p.expect(","));
  BOOST_TEST(!p.readPlainString(view));  // a number
  BOOST_TEST(p.readInteger(n));
  BOOST_TEST(p.expect(","));
  BOOST_TEST(!p.readPlainString(view));  // unterminated
  // Nesting counts from the depth given: a value at depth 64 may not open another container.
  json::CanonicalReader deep("[[]]");
  BOOST_TEST(!deep.skipValue(json::kMaxDepth - 1));
  BOOST_TEST(deep.skipValue(json::kMaxDepth - 2));
}

BOOST_AUTO_TEST_SUITE_END()
