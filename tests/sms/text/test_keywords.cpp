#include <boost/test/unit_test.hpp>
#include <string>
#include <vector>

#include "sms/text/keywords.h"

using namespace atoms::sms;

namespace {

struct Fixture {
  KeywordParser parser;
  std::vector<std::string> open{"4821", "7390"};

  KeywordKind kind(std::string_view body) const { return parser.parse(body, open).kind; }
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(keywords, Fixture)

BOOST_AUTO_TEST_CASE(recognisesEveryCarrierOptOutKeyword) {
  for (const char* body : {"STOP", "stop", "StopAll", "STOP ALL", "UNSUBSCRIBE", "cancel", "END",
                           "quit", "OPTOUT", "opt-out", "Revoke", "REMOVE", "Arr\u00eat"}) {
    BOOST_TEST((kind(body) == KeywordKind::kOptOut), body);
  }
}

BOOST_AUTO_TEST_CASE(toleratesPunctuationSpacesAndPoliteWords) {
  for (const char* body : {"  Stop. ", "STOP!!!", "stop please", "Please STOP", "stop now",
                           "\"stop\"", "Stop, thank you", "\u200bSTOP"}) {
    BOOST_TEST((kind(body) == KeywordKind::kOptOut), body);
  }
}

BOOST_AUTO_TEST_CASE(recognisesSpanishKeywords) {
  BOOST_TEST((kind("ALTO") == KeywordKind::kOptOut));
  BOOST_TEST((kind("parar") == KeywordKind::kOptOut));
  BOOST_TEST((kind("Cancelar por favor") == KeywordKind::kOptOut));
  BOOST_TEST((kind("BAJA") == KeywordKind::kOptOut));
  BOOST_TEST((kind("Quiero darme de baja") == KeywordKind::kOptOut));
  BOOST_TEST((kind("No me manden mas mensajes") == KeywordKind::kOptOut));
  BOOST_TEST((kind("Ayuda") == KeywordKind::kHelp));
  BOOST_TEST((kind("\u00bfPor qu\u00e9?") == KeywordKind::kWhy));
}

BOOST_AUTO_TEST_CASE(recognisesOptOutSaidInWordsAnywhere) {
  for (const char* body :
       {"please stop texting me", "Unsubscribe me from this", "can you take me off the list",
        "remove me from your texts", "Don't text me again", "no more texts please", "opt me out"}) {
    BOOST_TEST((kind(body) == KeywordKind::kOptOut), body);
  }
}

BOOST_AUTO_TEST_CASE(doesNotReadOrdinarySentencesAsOptOut) {
  for (const char* body :
       {"can you stop by the walk-in", "my shift ends at 5", "I want to opt in",
        "take me off this shift please", "what time does it end?", "I'll quit early today"}) {
    BOOST_TEST((kind(body) != KeywordKind::kOptOut), body);
  }
}

BOOST_AUTO_TEST_CASE(optOutWinsOverAnOfferCodeInTheSameMessage) {
  BOOST_TEST((kind("4821 yes. also stop texting me at night") == KeywordKind::kOptOut));
}

BOOST_AUTO_TEST_CASE(recognisesOptInHelpAndWhy) {
  BOOST_TEST((kind("START") == KeywordKind::kOptIn));
  BOOST_TEST((kind("unstop") == KeywordKind::kOptIn));
  // Carriers treat a bare YES as re-subscribe; offers therefore never ask for YES.
  BOOST_TEST((kind("Yes") == KeywordKind::kOptIn));
  BOOST_TEST((kind("HELP") == KeywordKind::kHelp));
  BOOST_TEST((kind("info?") == KeywordKind::kHelp));
  BOOST_TEST((kind("Why?") == KeywordKind::kWhy));
  BOOST_TEST((kind("I need help with my schedule") == KeywordKind::kNone));
  BOOST_TEST((kind("why me") == KeywordKind::kNone));
}

BOOST_AUTO_TEST_CASE(takesAnOfferByItsCodeWithToleranceForWords) {
  for (const char* body :
       {"4821", "#4821", "4821!", " 4821 yes", "yes 4821", "4821 ok see you at 5",
        "Ok #4821, on my way", "no problem, 4821", "I'll take 4821"}) {
    const ParsedKeyword p = parser.parse(body, open);
    BOOST_TEST((p.kind == KeywordKind::kTakeOffer), body);
    BOOST_TEST(p.reference == "4821", body);
  }
}

BOOST_AUTO_TEST_CASE(declinesAnOfferWhenTheReplySaysNo) {
  for (const char* body : {"4821 no", "can't do 4821", "No 4821, sorry", "pass on #7390"}) {
    BOOST_TEST((kind(body) == KeywordKind::kDeclineOffer), body);
  }
}

BOOST_AUTO_TEST_CASE(asksAgainWhenAnOfferReplyIsAmbiguous) {
  BOOST_TEST((kind("4821 or 7390") == KeywordKind::kAmbiguousOffer));
  BOOST_TEST((kind("yes 4821, no wait, I can't") == KeywordKind::kAmbiguousOffer));
}

BOOST_AUTO_TEST_CASE(reportsACodeThatIsNotOpen) {
  const ParsedKeyword p = parser.parse("5512", open);
  BOOST_TEST((p.kind == KeywordKind::kUnknownOfferCode));
  BOOST_TEST(p.reference == "5512");
  // A time or a number inside a sentence is conversation, not a code.
  BOOST_TEST((kind("I can come at 1830") == KeywordKind::kNone));
  BOOST_TEST((kind("1830") == KeywordKind::kNone));
  BOOST_TEST((kind("12") == KeywordKind::kNone));
}

// A code offered to the sender that is closed now, in any form a reply to an open one takes,
// is an unknown offer code (the sender hears the shift is covered); an open code still wins, and
// a closed code that is not in the message matches nothing.
BOOST_AUTO_TEST_CASE(readsALateReplyToAClosedOfferInAnyReplyForm) {
  const std::vector<std::string> past{"2708"};
  for (const char* body : {"ok 2708 I can do it", "2708 yes I'll take it", "I can do 2708!"}) {
    const ParsedKeyword p = parser.parse(body, open, past);
    BOOST_TEST((p.kind == KeywordKind::kUnknownOfferCode), body);
    BOOST_TEST(p.reference == "2708", body);
  }
  BOOST_TEST((parser.parse("yes 4821", open, past).kind == KeywordKind::kTakeOffer));
  BOOST_TEST((parser.parse("ok I can do it", open, past).kind == KeywordKind::kNone));
  // Without the past codes the same words are conversation, as for any sender.
  BOOST_TEST((parser.parse("ok 2708 I can do it", open).kind == KeywordKind::kNone));
}

BOOST_AUTO_TEST_CASE(readsManagerApprovalsWithTheirNumberAndRemark) {
  const ParsedKeyword a = parser.parse("APPROVE 12", open);
  BOOST_TEST((a.kind == KeywordKind::kApprove));
  BOOST_TEST(a.reference == "12");
  BOOST_TEST(a.remark.empty());
  const ParsedKeyword d = parser.parse("deny #12: no budget this week.", open);
  BOOST_TEST((d.kind == KeywordKind::kDeny));
  BOOST_TEST(d.reference == "12");
  BOOST_TEST(d.remark == "no budget this week");
  const ParsedKeyword bare = parser.parse("Approved", open);
  BOOST_TEST((bare.kind == KeywordKind::kApprove));
  BOOST_TEST(bare.reference.empty());
  // "Decline 4821" is about the open offer, not a request number.
  BOOST_TEST((kind("Decline 4821") == KeywordKind::kDeclineOffer));
}

BOOST_AUTO_TEST_CASE(leavesConversationAlone) {
  for (const char* body :
       {"", "   ", "Jamal didn't show, I'm alone on the line", "thanks!", "ok", "\xFF\xFE"}) {
    BOOST_TEST((kind(body) == KeywordKind::kNone), body);
  }
}

BOOST_AUTO_TEST_CASE(namesEveryKind) {
  BOOST_TEST(keywordKindName(KeywordKind::kOptOut) == "opt_out");
  BOOST_TEST(keywordKindName(KeywordKind::kUnknownOfferCode) == "unknown_offer_code");
}

BOOST_AUTO_TEST_SUITE_END()
