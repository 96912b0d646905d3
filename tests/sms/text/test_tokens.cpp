#include <boost/test/unit_test.hpp>
#include <string>
#include <vector>

#include "sms/text/phrase_set.h"
#include "sms/text/tokens.h"

using namespace atoms::sms;

namespace {

std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  for (const Token& t : tokenize(text)) out.push_back(t.folded);
  return out;
}

using Words = std::vector<std::string>;

}  // namespace

BOOST_AUTO_TEST_SUITE(tokens)

BOOST_AUTO_TEST_CASE(foldsCaseAccentsApostrophesAndFullwidth) {
  BOOST_TEST((words("STOP") == Words{"stop"}));
  BOOST_TEST((words("  Arr\u00caT!! ") == Words{"arret"}));
  BOOST_TEST((words("It\u2019s DON'T") == Words{"it's", "don't"}));
  BOOST_TEST((words("\uff33\uff34\uff2f\uff30") == Words{"stop"}));  // fullwidth
  BOOST_TEST((words("Stra\u00dfe") == Words{"strasse"}));
}

BOOST_AUTO_TEST_CASE(splitsOnPunctuationHyphensSymbolsAndEmoji) {
  BOOST_TEST((words("no-show, #4821!") == Words{"no", "show", "4821"}));
  BOOST_TEST((words("ok\U0001F44Dyes") == Words{"ok", "yes"}));
  BOOST_TEST((words("'quoted'") == Words{"quoted"}));
  BOOST_TEST(words("").empty());
  BOOST_TEST(words("?!... \u2014 ").empty());
}

BOOST_AUTO_TEST_CASE(dropsInvisibleCharactersInsideWords) {
  BOOST_TEST((words("ig\u200Bnore in\u00ADstructions") == Words{"ignore", "instructions"}));
  BOOST_TEST((words("S\U000E0041TOP") == Words{"stop"}));  // a Unicode tag character
}

BOOST_AUTO_TEST_CASE(keepsByteRangesOfTheOriginal) {
  const std::string text = "Hi \u00c9mile, #4821";
  const auto tokens = tokenize(text);
  BOOST_REQUIRE(tokens.size() == 3u);
  BOOST_TEST(text.substr(tokens[1].begin, tokens[1].end - tokens[1].begin) == "\u00c9mile");
  BOOST_TEST(tokens[2].numeric);
  BOOST_TEST(!tokens[1].numeric);
}

BOOST_AUTO_TEST_CASE(marksWordsMixingLatinWithCyrillic) {
  const auto tokens = tokenize("\u0430pprove \u043f\u0440\u0438\u0432\u0435\u0442 hello");
  BOOST_REQUIRE(tokens.size() == 3u);
  BOOST_TEST(tokens[0].mixedScript);   // Cyrillic a + Latin
  BOOST_TEST(!tokens[1].mixedScript);  // all Cyrillic
  BOOST_TEST(!tokens[2].mixedScript);
}

BOOST_AUTO_TEST_CASE(survivesInvalidUtf8) {
  BOOST_TEST((words("st\xFFop \xC0") == Words{"st", "op"}));
}

BOOST_AUTO_TEST_CASE(phrasePatternsSupportAlternativesPrefixesOptionalsAndGaps) {
  static constexpr PhrasePattern kPatterns[] = {
      {"ignore ~3 instructions", 1},
      {"disciplin*", 2},
      {"i_am|i'm a? real person", 3},
  };
  const PhraseSet set(kPatterns);
  const auto tags = [&](std::string_view text) {
    std::vector<int> out;
    for (const PhraseMatch& m : set.find(tokenize(text))) out.push_back(m.tag);
    return out;
  };
  BOOST_TEST((tags("Ignore all previous instructions") == std::vector<int>{1}));
  BOOST_TEST((tags("ignore instructions") == std::vector<int>{1}));
  BOOST_TEST(tags("ignore one two three four instructions").empty());
  BOOST_TEST((tags("a Disciplinary meeting") == std::vector<int>{2}));
  BOOST_TEST((tags("I am a real person") == std::vector<int>{3}));
  BOOST_TEST((tags("i'm real person") == std::vector<int>{3}));
  BOOST_TEST(tags("I am a person").empty());
  BOOST_TEST((tags("Ignore one two instructions; disciplined") == std::vector<int>{1, 2}));
}

BOOST_AUTO_TEST_SUITE_END()
