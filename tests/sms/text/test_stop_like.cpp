#include <boost/test/unit_test.hpp>
#include <string>

#include "sms/text/keywords.h"
#include "sms/text/stop_like.h"

using namespace atoms::sms;

// The corpus of seed 001 EC-RISK-005: stop-like replies (true positives and sarcasm), clear
// opt-outs (keywords.h decides those, never this), and ordinary messages that must not pause
// anything.
BOOST_AUTO_TEST_SUITE(stop_like)

BOOST_AUTO_TEST_CASE(annoyanceAndSarcasmAreStopLikeBelowTheClearThreshold) {
  const StopLikeDetector detector;
  for (const char* body : {"oh please, message me MORE",
                           "ugh, enough texts",
                           "Enough with the messages!!",
                           "leave me alone",
                           "LEAVE ME ALONE.",
                           "quit bugging me",
                           "stop bothering me",
                           "too many texts today",
                           "so many messages omg",
                           "yay, more texts",
                           "great another message",
                           "text me more why don't you",
                           "go away",
                           "I'm sick of these texts",
                           "ya basta de mensajes",
                           "Ya basta",
                           "d\u00e9jame en paz",
                           "D\u00c9JENME EN PAZ",
                           "deja de molestarme",
                           "no me molestes",
                           "demasiados mensajes",
                           "estoy harta de los mensajes",
                           "m\u00e1ndame m\u00e1s mensajes"}) {
    const auto found = detector.check(body);
    BOOST_TEST_REQUIRE(found.has_value(), body);
    BOOST_TEST(found->confidence < kClearStopConfidence, body);
    BOOST_TEST(found->confidence > 0.0, body);
    BOOST_TEST(!found->words.empty(), body);
  }
}

BOOST_AUTO_TEST_CASE(sarcasmIsLessSureThanPlainAnnoyance) {
  const StopLikeDetector detector;
  BOOST_TEST(detector.check("oh please, message me MORE")->confidence <
             detector.check("ugh, enough texts")->confidence);
  BOOST_TEST(detector.check("oh please, message me MORE")->words == "message me more");
}

BOOST_AUTO_TEST_CASE(ordinaryMessagesAreNotStopLike) {
  const StopLikeDetector detector;
  for (const char* body : {"stop by the office",
                           "can't stop laughing",
                           "more hours please",
                           "message me if you need me",
                           "text me when you're here",
                           "I'll leave at 5",
                           "leave me on the schedule for friday",
                           "enough hours this week for me",
                           "that's enough for today, thanks",
                           "great, see you at 5",
                           "perfect, thanks",
                           "send me more shifts",
                           "4821",
                           "yes",
                           "running late, sorry",
                           "no me molesta, gracias",
                           "m\u00e1ndame el horario",
                           "gracias por el mensaje",
                           "can you text me the address",
                           "the message board is broken"}) {
    BOOST_TEST(!detector.check(body).has_value(), body);
  }
}

BOOST_AUTO_TEST_CASE(messageMeMoreIsSarcasmOnlyWhenMarkedSo) {
  const StopLikeDetector detector;
  // A lead-in, a taunt after it, or an emphatic MORE.
  for (const char* body :
       {"yeah right, text me more", "oh sure, message me more", "wow. text me more",
        "Text me MORE, sure", "text me more why dont you"}) {
    const auto found = detector.check(body);
    BOOST_TEST_REQUIRE(found.has_value(), body);
    BOOST_TEST(found->confidence < kClearStopConfidence, body);
  }
  // The same words as an ordinary request pause nothing.
  for (const char* body :
       {"can you text me more details about Saturday?", "text me more info",
        "Text me more info please", "message me more about the job", "send me more shifts",
        "sure, text me more details", "great, text me more about it", "TEXT ME MORE INFO",
        "could you msg me more about the training"}) {
    BOOST_TEST(!detector.check(body).has_value(), body);
  }
}

BOOST_AUTO_TEST_CASE(clearOptOutsAreTheKeywordParsersNotThis) {
  // These are decided as a clear opt-out before the detector is asked (conversation.h).
  const KeywordParser parser;
  for (const char* body : {"STOP", "stop texting me", "alto", "no me manden mensajes"}) {
    BOOST_TEST((parser.parse(body).kind == KeywordKind::kOptOut), body);
  }
  // And the stop-like corpus is not a clear opt-out.
  for (const char* body : {"oh please, message me MORE", "ugh, enough texts", "leave me alone",
                           "quit bugging me", "ya basta de mensajes", "d\u00e9jame en paz"}) {
    BOOST_TEST((parser.parse(body).kind == KeywordKind::kNone), body);
  }
}

BOOST_AUTO_TEST_CASE(offersOnIsTheWholeMessage) {
  const StopLikeDetector detector;
  for (const char* body : {"OFFERS ON", "offers on please", "Offer on", "ofertas s\u00ed",
                           "OFERTAS SI por favor", "ok offers on"}) {
    BOOST_TEST(detector.isResume(body), body);
  }
  for (const char* body : {"any offers on saturday?", "offers", "on", "yes", "START", ""}) {
    BOOST_TEST(!detector.isResume(body), body);
  }
}

BOOST_AUTO_TEST_SUITE_END()
