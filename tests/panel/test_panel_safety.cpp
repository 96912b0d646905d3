// The Safety page's resource served by the panel (daemon/api/safety_resource.h) through serve's
// wiring with the SMS layer running (the simulated driver): the incidents as a lead sees them,
// and an ACK from the panel by a lead who was not texted, through the SMS desk's own path: the
// incident closes, the reporter and the person alerted are texted who is on it, and it is audited
// as coming from the panel. A bad body or a second ACK changes nothing. Today's checklists with
// their state.
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <fstream>
#include <map>
#include <string>

#include "base/canonical_json.h"
#include "base/writer_call.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "store/site_store.h"
#include "tests/panel/panel_box.h"

namespace atoms::test {
namespace {

// Carl reported a fire; Maya (his manager of record) was texted the alert.
void openCarlsFireReport(PanelBox& box) {
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(box.clock.now().time_since_epoch())
          .count();
  const std::string sql =
      "INSERT INTO safety_incident(id, opened_at, inbox_id, reporter, person_id, category, state,"
      " rounds, next_alert_at, recipients, acknowledged_by, acknowledged_at) VALUES(7, " +
      std::to_string(ms) + ", 0, '+14155550104', 'p-carl', 'fire', 'open', 1, " +
      std::to_string(ms + 300000) + ", '+14155550102', '', NULL)";
  auto done = callOnWriter(box.services->engine().engine(),
                           [&] { return box.services->store().store().db().exec(sql); });
  BOOST_TEST_REQUIRE(done.has_value());
  BOOST_TEST_REQUIRE(done->ok(), done->message());
}

// How many texts to `to` are in the outbox whose body holds `words`.
std::int64_t textsTo(PanelBox& box, const std::string& to, const std::string& words) {
  auto count = callOnWriter(box.services->engine().engine(), [&]() -> Result<std::int64_t> {
    auto stmt = box.services->store().store().db().prepare(
        "SELECT COUNT(*) FROM sms_outbox WHERE to_number = ? AND instr(body, ?) > 0");
    if (!stmt) return stmt.error();
    stmt->bind(1, to).bind(2, words);
    auto row = stmt->step();
    if (!row) return row.error();
    return stmt->columnInt64(0);
  });
  BOOST_TEST_REQUIRE(count.has_value());
  BOOST_TEST_REQUIRE(count->ok(), count->message());
  return **count;
}

const json::Object& incident(const json::Value& page) {
  return page.asObject().at("incidents").asArray().at(0).asObject();
}

BOOST_AUTO_TEST_SUITE(panel_safety)

BOOST_AUTO_TEST_CASE(aLeadWhoWasNotTextedAcknowledgesThroughTheDesksPath) {
  PanelBox box(std::map<std::string, std::string>{{"sms.driver", "simulated"}});
  openCarlsFireReport(box);
  const PanelSignIn leo = box.signIn("p-leo");
  const json::Value before = box.okJson(box.call("GET", "/api/v1/safety", leo));
  BOOST_TEST(incident(before).at("state").asString() == "open");
  BOOST_TEST(incident(before).at("category").asString() == "fire");
  BOOST_TEST(incident(before).at("reporter").asObject().at("name").asString() == "Carl Diaz");
  BOOST_TEST(incident(before).at("alerted").asArray().at(0).asObject().at("name").asString() ==
             "Maya Ortiz");

  const PanelReply bad = box.call("POST", "/api/v1/safety/incidents/7/ack", leo, "{\"x\":1}");
  BOOST_TEST(bad.status == 400, bad.body);
  const PanelReply forged = box.call("POST", "/api/v1/safety/incidents/7/ack", leo, "{}", false);
  BOOST_TEST(forged.status == 403, forged.body);
  BOOST_TEST(incident(box.okJson(box.call("GET", "/api/v1/safety", leo))).at("state").asString() ==
             "open");

  const PanelReply doneReply = box.call("POST", "/api/v1/safety/incidents/7/ack", leo, "{}");
  BOOST_TEST_REQUIRE(doneReply.status == 200, box.entriesOf("api.refused"));
  const json::Value done = box.okJson(doneReply);
  BOOST_TEST(done.asObject().at("outcome").asString() == "acknowledged");
  const json::Value after = box.okJson(box.call("GET", "/api/v1/safety", leo));
  BOOST_TEST(incident(after).at("state").asString() == "acknowledged");
  BOOST_TEST(incident(after).at("acknowledgedBy").asObject().at("name").asString() == "Leo Park");
  BOOST_TEST(textsTo(box, "+14155550104", "Leo Park is handling it") == 1);
  BOOST_TEST(textsTo(box, "+14155550102", "handled by Leo Park") == 1);
  const std::string audit = box.entriesOf("safety.acknowledge");
  BOOST_TEST(audit.find("\"via\":\"panel\"") != std::string::npos, audit);
  BOOST_TEST(audit.find("panel:p-leo") != std::string::npos, audit);
  BOOST_TEST(audit.find("\"alerted\":false") != std::string::npos, audit);

  const PanelReply again = box.call("POST", "/api/v1/safety/incidents/7/ack", leo, "{}");
  BOOST_TEST(again.status == 409, again.body);
  BOOST_TEST(textsTo(box, "+14155550104", "Leo Park is handling it") == 1);
  BOOST_TEST(box.call("POST", "/api/v1/safety/incidents/99/ack", leo, "{}").status == 404);
}

BOOST_AUTO_TEST_CASE(withoutTheSmsDeskTheAckIsRefusedAndTheIncidentStaysOpen) {
  PanelBox box;  // sms.driver = off
  openCarlsFireReport(box);
  const PanelSignIn maya = box.signIn("p-maya");
  const PanelReply refused = box.call("POST", "/api/v1/safety/incidents/7/ack", maya, "{}");
  BOOST_TEST(refused.status == 503, refused.body);
  BOOST_TEST(refused.body.find("ACK 7") != std::string::npos, refused.body);
  BOOST_TEST(incident(box.okJson(box.call("GET", "/api/v1/safety", maya))).at("state").asString() ==
             "open");
}

// The box's clock starts at 1970-01-01T00:00Z: 16:00 on 31 December in the site's Los Angeles.
BOOST_AUTO_TEST_CASE(todaysChecklistsShowWhatIsDoneLateAndLaterToday) {
  atoms::testing::TempDir files;
  const std::string book = files.file("checklists.json");
  {
    std::ofstream out(book);
    out << R"({"version": 1, "checklists": [
      {"id": "opening", "name": "Opening checklist", "due": "10:00", "graceMinutes": 30,
       "owner": {"person": "p-leo"}},
      {"id": "walk-in", "name": "Walk-in cooler temperature", "due": "15:00", "graceMinutes": 30,
       "owner": {"person": "p-leo"}, "temperature": {"unit": "F", "min": 33, "max": 41}},
      {"id": "closing", "name": "Closing checklist", "due": "23:00", "graceMinutes": 30,
       "owner": {"station": "lead"}}]})";
  }
  PanelBox box(std::map<std::string, std::string>{{"sms.driver", "simulated"},
                                                  {"sms.checklists.file", book}});
  auto logged = callOnWriter(box.services->engine().engine(), [&] {
    return box.services->store().store().db().exec(
        "INSERT INTO checklist_entry(checklist_id, local_day, at, by_phone, person_id, channel,"
        " temperature_tenths_f, in_range) VALUES('walk-in', '1969-12-31', -3000000,"
        " '+14155550103', 'p-leo', 'sms', 380, 1)");
  });
  BOOST_TEST_REQUIRE(logged.has_value());
  BOOST_TEST_REQUIRE(logged->ok(), logged->message());
  const json::Value page = box.okJson(box.call("GET", "/api/v1/safety", box.signIn("p-leo")));
  const json::Array& lists = page.asObject().at("checklists").asArray();
  BOOST_TEST_REQUIRE(lists.size() == 3u);
  const json::Object& opening = lists[0].asObject();
  BOOST_TEST(opening.at("id").asString() == "opening");
  BOOST_TEST(opening.at("state").asString() == "overdue");
  BOOST_TEST(opening.at("dueAt").asString() == "1969-12-31T18:00:00.000Z");
  const json::Object& walkIn = lists[1].asObject();
  BOOST_TEST(walkIn.at("state").asString() == "done");
  BOOST_TEST(walkIn.at("done").asObject().at("by").asObject().at("name").asString() == "Leo Park");
  BOOST_TEST(walkIn.at("done").asObject().at("readingTenthsF").asInt() == 380);
  const json::Object& closing = lists[2].asObject();
  BOOST_TEST(closing.at("state").asString() == "upcoming");
  BOOST_TEST(closing.at("owner").asObject().at("station").asString() == "lead");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::test
