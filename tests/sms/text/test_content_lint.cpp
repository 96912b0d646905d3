#include <boost/test/unit_test.hpp>
#include <string>

#include "sms/text/content_lint.h"

using namespace atoms::sms;

namespace {

struct LintFixture {
  ContentLint lint;
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(content_lint, LintFixture)

BOOST_AUTO_TEST_CASE(passesTheTemplatesTheBoxSends) {
  const char* templates[] = {
      // Offers.
      "Hi Ana, a line cook shift at Harbor Table needs cover today 17:00-23:00. Reply 4821 to "
      "take it. No rush, and no need to reply if you can't. Reply HELP for a person, STOP to opt "
      "out.",
      "Hola Ana, se necesita cubrir un turno hoy 17:00-23:00. Responde 4821 para tomarlo.",
      // Confirmations and cover.
      "Thanks Marco, the 17:00-23:00 line shift is yours. Rosa knows you're coming.",
      "Thanks Ana, that shift is already covered. Nothing to do.",
      "Rosa, Marco is covering the line from 17:00. Reply WHY for sources.",
      "Ana can't make her 17:00 shift today. Looking for cover now.",
      "Jamal is out until the 14th.",
      // HELP and keyword replies.
      "Harbor Table scheduling assistant (automated). To reach a person, call Kwame Mensah at "
      "+1 555 0100. Reply STOP to opt out.",
      "This is an automated message from Harbor Table scheduling.",
      "You're opted out and won't get more texts from Harbor Table. Reply START to opt back in.",
      "That code isn't open anymore: the shift may already be covered. Reply HELP for a person.",
      // Safety alerts and escalations.
      "Safety alert: the walk-in cooler is at 9\u00b0C. Move dairy to the reach-in and tell the "
      "shift lead.",
      "Safety alert: wet floor by the dish pit. Use the side door until it's dry. Don't let "
      "anyone carry hot oil through.",
      "Electrical fault at the dish machine: don't use it until it's checked.",
      "Kwame: no cover found yet for tonight's 17:00-23:00 line shift. Reply APPROVE 12 to "
      "approve 2h overtime for Marco, or DENY 12.",
      "Your schedule for next week is posted. Reply WHY for sources.",
  };
  for (const char* text : templates) {
    const auto findings = lint.check(text);
    BOOST_TEST(findings.empty(), text << " -> " << ContentLint::describe(findings));
  }
}

BOOST_AUTO_TEST_CASE(flagsEachForbiddenCategory) {
  struct Case {
    const char* text;
    LintCategory category;
    const char* matched;
  };
  const Case cases[] = {
      {"Jamal was a no-show again, can you cover?", LintCategory::kDiscipline, "no-show"},
      {"Reminder: missed shifts lead to a write-up.", LintCategory::kDiscipline, "write-up"},
      {"You will be WRITTEN UP if this happens again", LintCategory::kDiscipline, "WRITTEN UP"},
      {"Final warning about Saturday.", LintCategory::kDiscipline, "Final warning"},
      {"He got fired last week", LintCategory::kDiscipline, "fired"},
      {"This is a disciplinary matter", LintCategory::kDiscipline, "disciplinary"},
      {"Jamal didn't show up", LintCategory::kDiscipline, "didn't show"},
      {"A penalty applies", LintCategory::kDiscipline, "penalty"},
      {"Jamal is out sick today", LintCategory::kHealth, "sick"},
      {"Ana is off for surgery until the 14th", LintCategory::kHealth, "surgery"},
      {"She is pregnant", LintCategory::kHealth, "pregnant"},
      {"Marco injured his hand", LintCategory::kHealth, "injured"},
      {"He has a doctor's appointment", LintCategory::kHealth, "doctor's"},
      {"Jamal est\u00e1 enfermo", LintCategory::kHealth, "enfermo"},
      {"Jamal has a family emergency", LintCategory::kPrivateLife, "family emergency"},
      {"Congrats, you're our top performer!", LintCategory::kRanking, "top performer"},
      {"Marco is more reliable", LintCategory::kRanking, "more reliable"},
      {"Weekly ranking of the line cooks", LintCategory::kRanking, "ranking"},
      {"Ana is likely to quit", LintCategory::kPrediction, "likely to quit"},
      {"Don't worry, I'm a real person.", LintCategory::kHumanClaim, "I'm a real person"},
      {"This is not an automated message", LintCategory::kHumanClaim, "not an automated"},
      {"I'm not a bot", LintCategory::kHumanClaim, "not a bot"},
      {"Keep this between us", LintCategory::kSecrecy, "Keep this between us"},
      {"Please don't tell your manager", LintCategory::kSecrecy, "don't tell your manager"},
  };
  for (const Case& c : cases) {
    const auto findings = lint.check(c.text);
    BOOST_REQUIRE_MESSAGE(!findings.empty(), c.text);
    BOOST_TEST((findings.front().category == c.category), c.text);
    BOOST_TEST(findings.front().matched == c.matched, c.text);
    const std::string text = c.text;
    BOOST_TEST(text.substr(findings.front().begin, findings.front().length) == c.matched);
    BOOST_TEST(!findings.front().rule.empty());
  }
}

BOOST_AUTO_TEST_CASE(cannotBeEvadedWithInvisibleCharactersOrAccents) {
  const auto findings = lint.check("you're f\u200Bired");
  BOOST_REQUIRE(findings.size() == 1u);
  BOOST_TEST(findings[0].matched == "f\u200Bired");
  BOOST_TEST(!lint.check("DISCIPL\u00cdNARY").empty());
}

BOOST_AUTO_TEST_CASE(reportsEveryFindingInTextOrder) {
  const auto findings = lint.check("Jamal is sick and was a no-show; Marco is the best worker.");
  BOOST_REQUIRE(findings.size() == 3u);
  BOOST_TEST((findings[0].category == LintCategory::kHealth));
  BOOST_TEST((findings[1].category == LintCategory::kDiscipline));
  BOOST_TEST((findings[2].category == LintCategory::kRanking));
  BOOST_TEST(ContentLint::describe(findings) ==
             "health: \"sick\"; discipline: \"no-show\"; ranking: \"best worker\"");
}

BOOST_AUTO_TEST_CASE(acceptsAnyBytes) {
  BOOST_TEST(lint.check("").empty());
  BOOST_TEST(lint.check(std::string("\xFF\x00\xC0sick", 7)).size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
