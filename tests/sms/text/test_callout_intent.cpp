#include <boost/test/unit_test.hpp>

// The call-out intent parser (sms/text/callout_intent.h) on a corpus of what staff text a site:
// English and Spanish, lowercase, no punctuation, typos, emoji, "cant", "b there in 10". Each line
// pins the kind, the confidence (and the question when low), the people a no-show names and the
// minutes of a late arrival.
#include <optional>
#include <string>
#include <vector>

#include "sms/text/callout_intent.h"

namespace atoms::sms {
namespace {

BOOST_AUTO_TEST_SUITE(callout_intent)

const std::vector<NameCandidate> kRoster = {
    {"p-jamal", "Jamal Reed"}, {"p-maria", "María López"}, {"p-jose", "José Ramírez"},
    {"p-ana", "Ana Torres"},   {"p-dee", "Dee Wong"},      {"p-will", "Will Carter"},
};

struct Case {
  std::string text;
  std::string kind;
  std::string question;  // "" = high confidence
  std::vector<std::string> people = {};
  std::optional<int> minutes = std::nullopt;
};

void checkCorpus(const std::vector<Case>& corpus, const std::vector<NameCandidate>& roster) {
  const CallOutIntentParser parser;
  for (const Case& c : corpus) {
    BOOST_TEST_CONTEXT(c.text) {
      const CallOutIntent intent = parser.parse(c.text, roster);
      BOOST_TEST(callOutIntentKindName(intent.kind) == c.kind);
      BOOST_TEST(intent.question == c.question);
      BOOST_TEST((intent.confidence == IntentConfidence::kLow) == !c.question.empty());
      BOOST_TEST(intent.personIds == c.people, boost::test_tools::per_element());
      BOOST_TEST(intent.minutesLate.has_value() == c.minutes.has_value());
      if (intent.minutesLate && c.minutes) BOOST_TEST(*intent.minutesLate == *c.minutes);
      for (const std::string& m : intent.matched) {
        BOOST_TEST(c.text.find(m) != std::string::npos, m);  // as written, from the text
      }
      BOOST_TEST(intent.matched.empty() == (c.kind == "none" || c.question == "confirm"));
    }
  }
}

const std::vector<std::string> kJamal = {"p-jamal"};

BOOST_AUTO_TEST_CASE(readsACoworkerNoShowAndWhoItIs) {
  checkCorpus(
      {
          {"Jamal didn't show, I'm alone on the line", "coworker_no_show", "", kJamal},
          {"jamal no show", "coworker_no_show", "", kJamal},
          {"Jamal isnt here yet and its 5:10", "coworker_no_show", "", kJamal},
          {"Jamal hasn't shown up", "coworker_no_show", "", kJamal},
          {"Jamal hasn’t shown up", "coworker_no_show", "", kJamal},  // curly apostrophe
          {"still no jamal", "coworker_no_show", "", kJamal},
          {"Jamal called out", "coworker_no_show", "", kJamal},
          {"Jamal called in sick", "coworker_no_show", "", kJamal},
          {"Jamal no vino", "coworker_no_show", "", kJamal},
          {"Jamal no llegó", "coworker_no_show", "", kJamal},
          {"falta Jamal", "coworker_no_show", "", kJamal},
          {"Jamal no se presentó", "coworker_no_show", "", kJamal},
          {"no ha llegado Jamal", "coworker_no_show", "", kJamal},
          {"Jamall didnt show up", "coworker_no_show", "", kJamal},  // one typo, 5+ letters
          {"JAMAL REED NO SHOW", "coworker_no_show", "", kJamal},
          {"jamal's not here", "coworker_no_show", "", kJamal},
          {"Jamal never showed up and we're slammed 😩", "coworker_no_show", "", kJamal},
          {"jamal didnt come in today", "coworker_no_show", "", kJamal},
          {"Jamal cant make it today", "coworker_no_show", "", kJamal},
          {"Jamal said he can't come in", "coworker_no_show", "", kJamal},
          {"jamal reed didn't show up for his shift", "coworker_no_show", "", kJamal},
          {"Jamal's a no-show again", "coworker_no_show", "", kJamal},
          {"Jamal no ha venido", "coworker_no_show", "", kJamal},
          {"Jamal is out today", "coworker_no_show", "", kJamal},
          {"jamal out sick", "coworker_no_show", "", kJamal},
          {"Jamal wont be in", "coworker_no_show", "", kJamal},
          {"jamal ncns", "coworker_no_show", "", kJamal},
          {"Jamal hasn't clocked in", "coworker_no_show", "", kJamal},
          {"Maria no vino hoy", "coworker_no_show", "", {"p-maria"}},
          {"MARÍA no show", "coworker_no_show", "", {"p-maria"}},
          {"maria lopez no llego", "coworker_no_show", "", {"p-maria"}},
          {"jose didnt show up again", "coworker_no_show", "", {"p-jose"}},
          {"Ana still hasn't shown up", "coworker_no_show", "", {"p-ana"}},
          {"still no sign of Dee", "coworker_no_show", "", {"p-dee"}},
          {"todavía no llega José", "coworker_no_show", "", {"p-jose"}},
          {"Dee called off", "coworker_no_show", "", {"p-dee"}},
          {"Looks like Will didn't show up", "coworker_no_show", "", {"p-will"}},
          {"i'm here, Jamal didn't show", "coworker_no_show", "", kJamal},
      },
      kRoster);
}

BOOST_AUTO_TEST_CASE(asksWhoWhenANoShowDoesNotNameExactlyOnePerson) {
  checkCorpus(
      {
          {"nobody came in for dish", "coworker_no_show", "who"},
          {"no one showed up for close", "coworker_no_show", "who"},
          {"nadie vino a lavar platos", "coworker_no_show", "who"},
          {"the new guy didn't show", "coworker_no_show", "who"},
          {"Marcus didn't show", "coworker_no_show", "who"},  // not on the roster
          {"he called out", "coworker_no_show", "who"},
          {"Jmal didnt show", "coworker_no_show", "who"},      // a typo in a 4-letter word
          {"Will didn't show up", "coworker_no_show", "who"},  // "Will" opening a sentence
          {"Jamal and Maria didn't show", "coworker_no_show", "who", {"p-jamal", "p-maria"}},
          {"Jamal, Dee didn't show", "coworker_no_show", "who", {"p-jamal", "p-dee"}},
      },
      kRoster);
}

BOOST_AUTO_TEST_CASE(asksWhoWhenTwoPeopleShareTheFirstName) {
  std::vector<NameCandidate> roster = kRoster;
  roster.push_back({"p-jamal2", "Jamal Brooks"});
  checkCorpus(
      {
          {"Jamal didn't show", "coworker_no_show", "who", {"p-jamal", "p-jamal2"}},
          {"jamal no vino", "coworker_no_show", "who", {"p-jamal", "p-jamal2"}},
          {"Jamal Brooks didn't show", "coworker_no_show", "", {"p-jamal2"}},
          {"jamal reed no show", "coworker_no_show", "", {"p-jamal"}},
      },
      roster);
}

BOOST_AUTO_TEST_CASE(readsTheSenderCallingOut) {
  checkCorpus(
      {
          {"sick, can't come in", "self_call_out", ""},
          {"I can't make it today", "self_call_out", ""},
          {"I won't be in tonight", "self_call_out", ""},
          {"cant come in today sorry", "self_call_out", ""},
          {"family emergency, can't work my shift", "self_call_out", ""},
          {"I need to call out", "self_call_out", ""},
          {"estoy enfermo no puedo ir", "self_call_out", ""},
          {"no puedo ir hoy", "self_call_out", ""},
          {"no voy a poder ir", "self_call_out", ""},
          {"me siento mal no voy", "self_call_out", ""},
          {"wont make it today, sorry boss", "self_call_out", ""},
          {"im not coming in", "self_call_out", ""},
          {"not gonna make it tonight 😷", "self_call_out", ""},
          {"calling out today", "self_call_out", ""},
          {"I have a fever, I can't work today", "self_call_out", ""},
          {"cnt make my shift", "self_call_out", ""},
          {"can't come in, my kid is sick", "self_call_out", ""},
          {"Sorry I won't be able to make it tonight", "self_call_out", ""},
          {"i cant work tmrw", "self_call_out", ""},
          {"hoy no voy a ir, tengo fiebre", "self_call_out", ""},
          {"no podré trabajar hoy", "self_call_out", ""},
          {"tengo que faltar hoy", "self_call_out", ""},
          {"im out today", "self_call_out", ""},
          {"I have to miss my shift tonight", "self_call_out", ""},
          {"taking a sick day", "self_call_out", ""},
          {"ur gonna have to find someone, i cant come in", "self_call_out", ""},
          {"Will, I can't make it today", "self_call_out", ""},
          {"I'm not feeling well, won't be in", "self_call_out", ""},
          {"CANT COME IN!!!", "self_call_out", ""},
          {"i called in sick", "self_call_out", ""},
          {"Jamal I can't make it tonight", "self_call_out", ""},  // writing to Jamal
          {"i wont be able to come", "self_call_out", ""},
          {"I cant go in tomorrow", "self_call_out", ""},
          {"Yo no voy hoy", "self_call_out", ""},
          {"es que estoy enfermo y no voy a poder llegar", "self_call_out", ""},
          {"My daughter is sick, I can't make it in", "self_call_out", ""},
          {"dee said shes not coming", "coworker_no_show", "", {"p-dee"}},
      },
      kRoster);
}

BOOST_AUTO_TEST_CASE(asksToConfirmWhenOnlyAHealthOrFamilyWordIsThere) {
  checkCorpus(
      {
          {"I'm sick", "self_call_out", "confirm"},
          {"feeling awful today", "self_call_out", "confirm"},
          {"estoy enferma", "self_call_out", "confirm"},
          {"family emergency", "self_call_out", "confirm"},
          {"Jamal is sick", "coworker_no_show", "confirm", kJamal},
      },
      kRoster);
}

BOOST_AUTO_TEST_CASE(readsRunningLateAndTheMinutesWhenStated) {
  checkCorpus(
      {
          {"running late", "running_late", ""},
          {"running 10 min late", "running_late", "", {}, 10},
          {"be there in 15", "running_late", "", {}, 15},
          {"stuck in traffic", "running_late", ""},
          {"bus is late, there by 5:20", "running_late", ""},
          {"llego tarde", "running_late", ""},
          {"voy tarde", "running_late", ""},
          {"llego en 20 minutos", "running_late", "", {}, 20},
          {"b there in 10", "running_late", "", {}, 10},
          {"sorry gonna be like 5 min late", "running_late", "", {}, 5},
          {"omw, 10 mins", "running_late", "", {}, 10},
          {"running behind, there in a few", "running_late", ""},
          {"missed my bus, will be there asap", "running_late", ""},
          {"my car broke down, gonna be late", "running_late", ""},
          {"15min late sorry", "running_late", "", {}, 15},
          {"I'll be there in half an hour", "running_late", "", {}, 30},
          {"running late, be there in an hour", "running_late", "", {}, 60},
          {"voy a llegar tarde, como 15 minutos", "running_late", "", {}, 15},
          {"llego en 10", "running_late", "", {}, 10},
          {"almost there", "running_late", ""},
          {"traffic is crazy, running late 😬", "running_late", ""},
          {"5 min away", "running_late", "", {}, 5},
          {"RUNNING LATE!!", "running_late", ""},
          {"runnin l8 b there in 20", "running_late", "", {}, 20},
          {"se me hizo tarde, llego en 15", "running_late", "", {}, 15},
          {"ya voy, llego en 5 min", "running_late", "", {}, 5},
          {"can't make it by 5, be there at 5:30", "running_late", ""},
          {"I won't be there till 6", "running_late", ""},
          {"Sorry, I'm late", "running_late", ""},
          {"will be there in 10", "running_late", "", {}, 10},
          {"tell Jamal running late", "running_late", ""},
          {"running ten minutes late", "running_late", "", {}, 10},
          {"be there in like 20", "running_late", "", {}, 20},
          {"i'll be 20 late", "running_late", "", {}, 20},
          {"I'm coming in 10 minutes late", "running_late", "", {}, 10},
          {"mi carro no arranca, llego tarde", "running_late", ""},
          {"el camion se retraso, llego en 15 min", "running_late", "", {}, 15},
          {"hay mucho trafico llego en 10", "running_late", "", {}, 10},
          {"running late 1 hour", "running_late", "", {}, 60},
          {"Dee no vino, y Maria llego tarde", "coworker_no_show", "", {"p-dee"}},
      },
      kRoster);
}

BOOST_AUTO_TEST_CASE(readsTheSenderArriving) {
  checkCorpus(
      {
          {"I'm here", "arrived", ""},
          {"im here now", "arrived", ""},
          {"just got here", "arrived", ""},
          {"clocked in", "arrived", ""},
          {"ya llegué", "arrived", ""},
          {"estoy aquí", "arrived", ""},
          {"ya estoy aqui", "arrived", ""},
          {"here", "arrived", ""},
          {"Here!", "arrived", ""},
          {"made it 👍", "arrived", ""},
          {"im here now sorry i was running late", "arrived", ""},
          {"acabo de llegar", "arrived", ""},
          {"just clocked in", "arrived", ""},
          {"I am here", "arrived", ""},
          {"Im outside", "arrived", ""},
          {"ya estoy afuera", "arrived", ""},
          {"hola ya llegue 👋", "arrived", ""},
      },
      kRoster);
}

BOOST_AUTO_TEST_CASE(asksWhichWhenTwoIntentsConflict) {
  checkCorpus(
      {
          {"I'm running late and might not make it", "running_late", "which"},
          {"Jamal didn't show and I can't come in either", "coworker_no_show", "which", kJamal},
          {"running late, might have to call out", "running_late", "which"},
          {"llego tarde o no voy, no sé", "running_late", "which"},
          {"cant come in, or maybe be there in 30", "self_call_out", "which", {}, 30},
      },
      kRoster);
}

BOOST_AUTO_TEST_CASE(leavesEverythingElseAlone) {
  checkCorpus(
      {
          {"did Jamal show you the new menu?", "none", ""},
          {"thanks!", "none", ""},
          {"what time do I work tomorrow", "none", ""},
          {"Jamal is here", "none", ""},  // someone else arriving is not the sender's intent
          {"Jamal is running late", "none", ""},  // nor someone else's lateness
          {"I'll be there", "none", ""},
          {"not sick, just checking the schedule", "none", ""},  // negated: none
          {"I'm not running late, I'm on time", "none", ""},
          {"I'm not calling out", "none", ""},
          {"ok", "none", ""},
          {"can I swap my saturday shift?", "none", ""},
          {"who's closing tonight?", "none", ""},
          {"I work the late shift tomorrow", "none", ""},
          {"is the schedule out today?", "none", ""},
          {"can't wait to see everyone", "none", ""},
          {"Hola, a qué hora entro mañana?", "none", ""},
          {"buenas tardes", "none", ""},
          {"my paycheck didn't show up", "none", ""},
          {"I'll be there in the morning", "none", ""},
          {"Jamal", "none", ""},  // a name alone is no no-show
          {"omw", "none", ""},    // coming, no lateness stated
          {"see you at 5", "none", ""},
          {"", "none", ""},
          {"🙏🙏", "none", ""},
          {"i can come in early if you need", "none", ""},
          {"Can't come in early tomorrow", "none", ""},
          {"sorry I was late yesterday", "none", ""},
          {"Jamal showed me how to close", "none", ""},
          {"I'm sick of this weather lol", "none", ""},
          {"what's the number for the emergency contact", "none", ""},
          {"trabajo en la tarde", "none", ""},
          {"gracias!!", "none", ""},
          {"how do I clock in on the app", "none", ""},
          {"Jamal just got here", "none", ""},
          {"I haven't clocked in yet, the app is down", "none", ""},
          {"did jamal call out?", "none", ""},
          {"who called out today", "none", ""},
          {"I can be there in 20 if you need someone", "none", ""},
          {"i got called in to cover for jamal", "none", ""},
          {"can i come in late tomorrow?", "none", ""},
          {"I left my phone at home, sorry for the late reply", "none", ""},
          {"I'm off today right?", "none", ""},
          {"Jamal is covering for me", "none", ""},
          {"I can cover for Jamal if he doesnt show", "none", ""},
          {"no problem I can come in", "none", ""},
          {"sorry i missed your call", "none", ""},
      },
      kRoster);
}

BOOST_AUTO_TEST_CASE(neverAuditsHealthOrFamilyWords) {
  const CallOutIntentParser parser;
  const auto matched = [&](const std::string& text) { return parser.parse(text, kRoster).matched; };
  BOOST_TEST(matched("Jamal called in sick") == std::vector<std::string>{"called in"},
             boost::test_tools::per_element());
  BOOST_TEST(matched("sick, can't come in") == std::vector<std::string>{"can't come in"},
             boost::test_tools::per_element());
  BOOST_TEST(matched("out sick today") == (std::vector<std::string>{"out", "today"}),
             boost::test_tools::per_element());
  BOOST_TEST(matched("family emergency, can't work my shift") ==
                 std::vector<std::string>{"can't work my shift"},
             boost::test_tools::per_element());
  BOOST_TEST(matched("I'm sick").empty());
  const std::vector<std::string> health = {"sick",   "fever",     "enfermo", "enferma", "fiebre",
                                           "family", "emergency", "flu",     "mal",     "vomit"};
  for (const char* text :
       {"I have a fever, I can't work today", "estoy enfermo no puedo ir",
        "can't come in sick with the flu", "cant come in throwing up all night",
        "me siento mal no voy", "hoy no voy a ir, tengo fiebre", "Jamal out sick today",
        "family emergency cant come in", "i'm out sick", "feeling sick, running late"}) {
    for (const std::string& m : matched(text)) {
      for (const std::string& word : health) {
        BOOST_TEST(m.find(word) == std::string::npos, text << ": " << m);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(acceptsAnyBytesAndAnyRoster) {
  const CallOutIntentParser parser;
  std::string all;
  for (int b = 0; b < 256; ++b) all.push_back(static_cast<char>(b));
  std::string longText;
  for (int i = 0; i < 2000; ++i) longText += "jamal didnt show ";
  const std::vector<NameCandidate> odd = {{"", ""},
                                          {"p-x", "   "},
                                          {"p-y", "😀"},
                                          {"p-z", std::string("\xff\xfe", 2)},
                                          {"p-j", "Jamal"}};
  const std::vector<std::string> texts = {all, longText, std::string("\xc3", 1),
                                          std::string(1, '\0'),
                                          std::string("Jamal\0didn't show", 17)};
  for (const std::string& text : texts) {
    (void)parser.parse(text, odd);
    (void)parser.parse(text, {});
    const CallOutIntent intent = parser.parse(text, kRoster);
    for (const std::string& m : intent.matched) BOOST_TEST(text.find(m) != std::string::npos);
  }
  BOOST_TEST(parser.parse(longText, kRoster).personIds == kJamal, boost::test_tools::per_element());
  // A roster without last names, with repeated ids.
  const std::vector<NameCandidate> firstOnly = {{"a", "Dee"}, {"a", "Dee"}};
  const CallOutIntent dee = parser.parse("dee no show", firstOnly);
  BOOST_TEST(dee.personIds == std::vector<std::string>{"a"}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(namesEveryKind) {
  BOOST_TEST(callOutIntentKindName(CallOutIntentKind::kNone) == "none");
  BOOST_TEST(callOutIntentKindName(CallOutIntentKind::kCoworkerNoShow) == "coworker_no_show");
  BOOST_TEST(callOutIntentKindName(CallOutIntentKind::kSelfCallOut) == "self_call_out");
  BOOST_TEST(callOutIntentKindName(CallOutIntentKind::kRunningLate) == "running_late");
  BOOST_TEST(callOutIntentKindName(CallOutIntentKind::kArrived) == "arrived");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::sms
