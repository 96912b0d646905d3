#include <boost/test/unit_test.hpp>

// The safety-report detector (sms/text/safety_report.h) on a corpus of what people text in a hurry,
// in English and Spanish, typos and shouting included, and on the everyday texts it must leave
// alone. It errs toward reporting: the "alone" list is short and specific.
#include <string>
#include <vector>

#include "sms/text/safety_report.h"

namespace atoms::sms {
namespace {

struct Reported {
  std::string text;
  std::string category;
};

BOOST_AUTO_TEST_CASE(reportsEachKindOfDangerInBothLanguages) {
  const SafetyDetector detector;
  const std::vector<Reported> corpus = {
      {"Maria cut her hand real deep on the slicer", "injury"},
      {"someone fell off the ladder in the back", "injury"},
      {"Jose is bleeding a lot", "injury"},
      {"guy collapsed at table 6, calling 911", "injury"},
      {"Dave burned his arm on the flat top", "injury"},
      {"she's not breathing!!", "injury"},
      {"FIRE IN THE KITCHEN", "fire"},
      {"theres smoke coming out of the hood", "fire"},
      {"the fryer is on fire", "equipment"},  // the fryer pattern comes first
      {"fire alarm going off, evacuating", "fire"},
      {"smells like gas in the back", "gas"},
      {"I think there's a gas leak by the range", "gas"},
      {"CO alarm is beeping", "gas"},
      {"two customers fighting in the lot", "violence"},
      {"a man has a gun at the counter", "violence"},
      {"customer threatening staff at register", "violence"},
      {"he pulled a knife", "violence"},
      {"got shocked by the dish machine", "equipment"},
      {"exposed wire behind the walk-in, sparking", "equipment"},
      {"the slicer guard is broken", "equipment"},
      {"grease overflowing on the floor by fryer", "equipment"},
      {"SAFETY walk-in door latch stuck from inside", "keyword"},
      {"safety: wet floor no signs", "keyword"},
      {"Hay fuego en la cocina", "fire"},
      {"huele a gas en la parte de atras", "gas"},
      {"Ana esta herida, se cayo", "injury"},
      {"un cliente esta amenazando a la cajera", "violence"},
      {"salen chispas del enchufe", "equipment"},
      {"SEGURIDAD puerta de emergencia bloqueada", "keyword"},
      {"FIRE!!! in the back", "fire"},
  };
  for (const Reported& r : corpus) {
    BOOST_TEST_CONTEXT(r.text) {
      const auto report = detector.check(r.text);
      BOOST_REQUIRE(report.has_value());
      BOOST_TEST(safetyCategoryName(report->category) == r.category);
      BOOST_TEST(!report->matched.empty());
      for (const std::string& m : report->matched) {
        BOOST_TEST(r.text.find(m) != std::string::npos, m);  // as written, from the text
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(leavesEverydayTextsAlone) {
  const SafetyDetector detector;
  const std::vector<std::string> everyday = {
      "running 10 min late, sorry",
      "can someone cover my Sunday?",
      "fire up the grill when you get in",
      "did they get fired?",
      "stopping at the gas station, be there in 5",
      "going for a smoke break",
      "we're killing it tonight",
      "they cut my hours again",
      "4821",
      "STOP",
      "",
      "Puedo cambiar mi turno del sabado?",
  };
  for (const std::string& text : everyday) {
    BOOST_TEST_CONTEXT(text) {
      const auto report = detector.check(text);
      BOOST_TEST(!report.has_value(), (report ? report->matched.front() : std::string()));
    }
  }
}

BOOST_AUTO_TEST_CASE(theKeywordGivesWayToTheDangerItNames) {
  const SafetyDetector detector;
  const auto report = detector.check("SAFETY someone is hurt in the freezer");
  BOOST_REQUIRE(report.has_value());
  BOOST_TEST(safetyCategoryName(report->category) == "injury");
  BOOST_TEST(report->matched.front() == "SAFETY");
  // Only as the first word: a text that mentions safety later is judged on its words.
  BOOST_TEST(!detector.check("thanks for the safety training").has_value());
}

}  // namespace
}  // namespace atoms::sms
