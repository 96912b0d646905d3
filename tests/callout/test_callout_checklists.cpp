#include <boost/test/unit_test.hpp>

// Checklists in serve's wiring (docs/checklists.md): the checklist file named by
// sms.checklists.file, texts through the Twilio path, the overdue timer on the engine, and a
// temperature out of range raised as a food-safety alert to the manager of record; nothing sent
// twice across a restart. ServedSite (served_site.h) on a simulated clock from 16:55 local.
#include <string>
#include <vector>

#include "tests/callout/callout_fixture.h"
#include "tests/callout/served_site.h"
#include "tests/support/text_checks.h"

using namespace atoms;
using namespace atoms::callout::testing;
using namespace std::chrono_literals;

namespace {

constexpr char kChecklists[] = R"({"version": 1, "checklists": [
  {"id": "line-check", "name": "Line check", "due": "17:00", "graceMinutes": 5,
   "owner": {"person": "p-ana"}},
  {"id": "walk-in", "name": "Walk-in cooler", "due": "22:00", "graceMinutes": 30,
   "owner": {"station": "line"}, "temperature": {"unit": "F", "min": 33, "max": 41}}]})";

using atoms::testing::contains;

}  // namespace

BOOST_AUTO_TEST_SUITE(callout_checklists)

BOOST_AUTO_TEST_CASE(serveChasesALateChecklistOnceAndTakesDoneAndTemperatureTexts) {
  ServedSite site;
  site.setChecklists(kChecklists);
  const std::size_t anaBefore = site.textsTo(kAna).size();
  const std::size_t kwameBefore = site.textsTo(kKwame).size();

  site.advance(10min);  // 17:05: the line check is 5 minutes past its grace
  BOOST_REQUIRE_EQUAL(site.textsTo(kAna).size(), anaBefore + 1);
  BOOST_TEST(contains(site.lastTo(kAna),
                      "Line check was due at 17:00 and is not marked yet. When "
                      "it is done, reply DONE line-check."),
             site.lastTo(kAna));
  site.close();
  site.open();
  site.advance(5min);  // 17:10: the manager, once; the owner not again after the restart
  BOOST_TEST(site.textsTo(kAna).size() == anaBefore + 1);
  BOOST_REQUIRE_EQUAL(site.textsTo(kKwame).size(), kwameBefore + 1);
  BOOST_TEST(contains(site.lastTo(kKwame), "Line check was due at 17:00 and is not marked yet"));

  site.text(kAna, "DONE line check");
  BOOST_TEST(site.lastTo(kAna) == "Thanks, Line check is marked done for today.");
  site.text(kAna, "TEMP walk-in 45F");
  BOOST_TEST(contains(site.lastTo(kAna),
                      "Logged: Walk-in cooler at 45F, outside the safe range "
                      "33F-41F. If anyone is in danger, call 911 now."),
             site.lastTo(kAna));
  BOOST_TEST(contains(site.lastTo(kKwame), "reported a food-safety temperature out of range"),
             site.lastTo(kKwame));
  BOOST_TEST(site.entries("checklist.completed").size() == 2u);
  BOOST_TEST(site.entries("checklist.overdue").size() == 2u);
  BOOST_TEST(site.entries("safety.packet").size() == 1u);
}

BOOST_AUTO_TEST_CASE(aStationChecklistGoesToWhoeverACallOutPutOnTheShift) {
  ServedSite site;
  site.setChecklists(R"({"version": 1, "checklists": [
    {"id": "line-check", "name": "Line check", "due": "17:30", "graceMinutes": 5,
     "owner": {"station": "line"}}]})");
  site.text(kRosa, "Jamal didn't show, I'm alone on the line");
  site.text(kAna, site.codeFor(kAna));
  BOOST_REQUIRE(site.storedAssignee("s-jamal") == "p-ana");
  const std::size_t anaBefore = site.textsTo(kAna).size();
  const std::size_t jamalBefore = site.textsTo(kJamal).size();

  site.advance(45min);  // 17:40: the line check is past its grace; Ana works the line now
  const auto reminded = [](const std::vector<std::string>& texts, std::size_t from) {
    int n = 0;
    for (std::size_t i = from; i < texts.size(); ++i) {
      n += contains(texts[i], "Line check was due at 17:30 and is not marked yet") ? 1 : 0;
    }
    return n;
  };
  BOOST_TEST(reminded(site.textsTo(kAna), anaBefore) == 1);
  BOOST_TEST(reminded(site.textsTo(kJamal), jamalBefore) == 0);  // he called out
}

BOOST_AUTO_TEST_SUITE_END()
