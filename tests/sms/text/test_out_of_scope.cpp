#include <boost/test/unit_test.hpp>
#include <string>

#include "sms/text/out_of_scope.h"

using namespace atoms::sms;

// What the assistant does not do (the issue "Call-outs and texts", defect 5): asks to rank or
// compare people, asks for someone else's number; and ordinary texts that share their words.
BOOST_AUTO_TEST_SUITE(out_of_scope)

BOOST_AUTO_TEST_CASE(asksToRankOrCompareAreRanking) {
  const OutOfScopeDetector detector;
  for (const char* body :
       {"who's the laziest cook?", "Who is the best server here", "who works the slowest",
        "rank the staff for me", "can you rate my team", "compare Ana and Ben", "who should I fire",
        "who is better, Ana or Ben?", "best employee this month?", "quién es el mejor mesero",
        "compara a los empleados", "a quién debo despedir"}) {
    BOOST_TEST(outOfScopeKindName(detector.check(body)) == "ranking", body);
  }
}

BOOST_AUTO_TEST_CASE(asksForSomeoneElsesDetailsAreContact) {
  const OutOfScopeDetector detector;
  for (const char* body :
       {"what's Ana's number", "whats ben's cell?", "can you send me Ana's phone number",
        "can I get Ben's number", "give me the number for Cleo", "I need Ana's address",
        "number of the new guy?", "dame el número de Ana", "me pasas el celular de Ben?",
        "cuál es el teléfono de Cleo"}) {
    BOOST_TEST(outOfScopeKindName(detector.check(body)) == "contact", body);
  }
}

BOOST_AUTO_TEST_CASE(ordinaryTextsWithTheSameWordsAreNone) {
  const OutOfScopeDetector detector;
  for (const char* body :
       {"", "👍", "I have a new number", "text me at this number", "this is my new phone",
        "can you send me my schedule", "what's the pay rate for Saturday",
        "I'm feeling better today", "which shift is better for you", "a number of us are here",
        "compare schedules", "thanks!", "what time do I start", "mi número nuevo es este"}) {
    BOOST_TEST(outOfScopeKindName(detector.check(body)) == "none", body);
  }
}

BOOST_AUTO_TEST_SUITE_END()
