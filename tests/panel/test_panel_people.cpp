// The People page's resource served by the panel (GET /api/v1/people, daemon/api/people_resource.h)
// through serve's wiring: what an owner, a manager of record and a lead each see, and resuming
// paused offers through the page (a lead cannot; the manager of record can; opt-out stays).
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <string>

#include "base/canonical_json.h"
#include "base/writer_call.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "domain/site/site_model.h"
#include "store/site_store.h"
#include "tests/panel/panel_box.h"

namespace atoms::test {
namespace {

// `days` after the box's today (UTC) as "YYYY-MM-DD".
std::string dayFromToday(PanelBox& box, int days) {
  const auto today = std::chrono::floor<std::chrono::days>(box.clock.now());
  return site::formatDate(site::Date{today + std::chrono::days(days)});
}

void runSql(PanelBox& box, const std::string& sql) {
  auto done = callOnWriter(box.services->engine().engine(),
                           [&] { return box.services->store().store().db().exec(sql); });
  BOOST_TEST_REQUIRE(done.has_value());
  BOOST_TEST_REQUIRE(done->ok(), done->message());
}

// Everyone 30 but Carl: 16 years old today, a food handler card expiring in 10 days, opted out of
// texts, and his shift offers paused after a stop-like reply.
void makeCarlAMinorWithPausedOffers(PanelBox& box) {
  // The box's simulated clock starts in 1970: birth dates are set from its today.
  runSql(box, "UPDATE site_person SET birth_date = '" + dayFromToday(box, -(30 * 365)) +
                  "';"
                  "UPDATE site_person SET birth_date = '" +
                  dayFromToday(box, -(16 * 365)) +
                  "' WHERE id = 'p-carl';"
                  "INSERT INTO site_certification(id, position, name) VALUES('food', 0,"
                  " 'Food handler');"
                  "INSERT INTO site_person_certification(person_id, position, certification_id,"
                  " expires) VALUES('p-carl', 0, 'food', '" +
                  dayFromToday(box, 10) +
                  "');"
                  "INSERT INTO sms_contact_state(phone, opted_out, opted_out_at, opt_out_keyword,"
                  " opt_out_confirmed, unknown_reply_day) VALUES('+14155550104', 1, 0, 'STOP', 1,"
                  " '');"
                  "INSERT INTO sms_offers_paused(phone, paused_at, words) VALUES('+14155550104',"
                  " 0, 'no more');");
}

const json::Object& personIn(const json::Value& page, const std::string& id) {
  for (const json::Value& p : page.asObject().at("people").asArray()) {
    if (p.asObject().at("id").asString() == id) return p.asObject();
  }
  BOOST_FAIL("no " + id + " in the people page");
  throw std::logic_error("unreachable");
}

BOOST_AUTO_TEST_SUITE(panel_people)

BOOST_AUTO_TEST_CASE(anOwnerSeesEveryonesWholeRecordButNeverABirthDate) {
  PanelBox box;
  makeCarlAMinorWithPausedOffers(box);
  const PanelReply reply = box.call("GET", "/api/v1/people", box.signIn("p-olga"));
  const json::Value page = box.okJson(reply);
  BOOST_TEST(page.asObject().at("view").asString() == "manager");
  BOOST_TEST(page.asObject().at("people").asArray().size() == 4u);
  const json::Object& carl = personIn(page, "p-carl");
  BOOST_TEST(carl.at("name").asString() == "Carl Diaz");
  BOOST_TEST(carl.at("stations").asArray()[0].asObject().at("name").asString() == "line cook");
  BOOST_TEST(carl.at("minor").asBool());
  BOOST_TEST(!personIn(page, "p-leo").at("minor").asBool());
  const json::Object& card = carl.at("certifications").asArray().at(0).asObject();
  BOOST_TEST(card.at("name").asString() == "Food handler");
  BOOST_TEST(card.at("state").asString() == "expiring");
  BOOST_TEST(carl.at("phone").asString() == "+14155550104");
  BOOST_TEST(carl.at("sms").asObject().at("optedOut").asBool());
  BOOST_TEST(!carl.at("offersPaused").isNull());
  BOOST_TEST(carl.at("mayResume").asBool());
  BOOST_TEST(carl.at("managerOfRecord").asObject().at("name").asString() == "Maya Ortiz");
  BOOST_TEST(personIn(page, "p-olga").at("panelRole").asString() == "owner");
  BOOST_TEST(personIn(page, "p-maya").at("panelRole").asString() == "manager");
  BOOST_TEST(personIn(page, "p-leo").at("panelRole").asString() == "lead");
  BOOST_TEST(personIn(page, "p-olga").at("panelAccount").asString() == "active");
  BOOST_TEST(carl.at("panelRole").isNull());
  BOOST_TEST(reply.body.find("birth") == std::string::npos, reply.body);
  BOOST_TEST(reply.body.find(dayFromToday(box, -(16 * 365))) == std::string::npos, reply.body);
}

BOOST_AUTO_TEST_CASE(aManagerSeesWholeNumbersOnlyOfHerOwnPeople) {
  PanelBox box;
  const json::Value page = box.okJson(box.call("GET", "/api/v1/people", box.signIn("p-maya")));
  BOOST_TEST(page.asObject().at("view").asString() == "manager");
  BOOST_TEST(personIn(page, "p-carl").at("phone").asString() == "+14155550104");
  const std::string olgas = personIn(page, "p-olga").at("phone").asString();
  BOOST_TEST(olgas != "+14155550101");
  BOOST_TEST(olgas.find("0101") != std::string::npos, olgas);  // masked, the end kept
}

BOOST_AUTO_TEST_CASE(aLeadSeesNamesStationsAndTodayOnly) {
  PanelBox box;
  makeCarlAMinorWithPausedOffers(box);
  const PanelReply reply = box.call("GET", "/api/v1/people", box.signIn("p-leo"));
  const json::Value page = box.okJson(reply);
  BOOST_TEST(page.asObject().at("view").asString() == "lead");
  const json::Object& carl = personIn(page, "p-carl");
  BOOST_TEST(carl.at("name").asString() == "Carl Diaz");
  BOOST_TEST(carl.count("stations") == 1u);
  BOOST_TEST(carl.count("today") == 1u);
  for (const char* hidden :
       {"phone", "certifications", "minor", "sms", "offersPaused", "managerOfRecord"}) {
    BOOST_TEST(carl.count(hidden) == 0u, hidden);
  }
  BOOST_TEST(reply.body.find("555") == std::string::npos, reply.body);
}

BOOST_AUTO_TEST_CASE(pausedOffersAreResumedByTheManagerOfRecordNotByALeadAndOptOutStays) {
  PanelBox box;
  makeCarlAMinorWithPausedOffers(box);
  const PanelSignIn leo = box.signIn("p-leo");
  const PanelReply refused = box.call("POST", "/api/v1/people/p-carl/offers/resume", leo, "{}");
  BOOST_TEST(refused.status == 403, refused.body);
  const PanelSignIn maya = box.signIn("p-maya");
  BOOST_TEST(!personIn(box.okJson(box.call("GET", "/api/v1/people", maya)), "p-carl")
                  .at("offersPaused")
                  .isNull());
  const PanelReply bad = box.call("POST", "/api/v1/people/p-carl/offers/resume", maya, "[1]");
  BOOST_TEST(bad.status == 400, bad.body);
  const json::Value resumed =
      box.okJson(box.call("POST", "/api/v1/people/p-carl/offers/resume", maya, "{}"));
  BOOST_TEST(resumed.asObject().at("outcome").asString() == "resumed");
  const json::Value after = box.okJson(box.call("GET", "/api/v1/people", maya));
  const json::Object& carl = personIn(after, "p-carl");
  BOOST_TEST(carl.at("offersPaused").isNull());
  BOOST_TEST(carl.at("sms").asObject().at("optedOut").asBool());  // the person's own choice
  BOOST_TEST(box.entriesOf("sms.offers_resumed").find("p-maya") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::test
