// Requests by text (domain/requests/, docs/requests.md) through the real inbound SMS pipeline: a
// worker's text stored by the simulated gateway, classified by the conversation layer, read by the
// requests desk in front of the call-out flow, confirmed, told to the manager of record, decided
// by APPROVE Rn / DENY Rn or on the API, and written to the site's time off and availability.
// In-process (CalloutFixture) and through the real service wiring (ServedSite: webhook in,
// provider out, the JSON API on loopback). The fixture's day: Wednesday 2026-03-04, 16:55 in Los
// Angeles; Kwame is everyone's manager of record; Ana works tomorrow 08:00-12:00.
#include <boost/test/unit_test.hpp>
#include <optional>
#include <string>

#include "daemon/api/api_resource.h"
#include "daemon/api/requests_resource.h"
#include "domain/requests/request_book.h"
#include "domain/requests/request_store.h"
#include "domain/site/site_repository.h"
#include "tests/callout/callout_fixture.h"
#include "tests/callout/served_site.h"
#include "tests/support/api_client.h"
#include "tests/support/fields.h"
#include "tests/support/text_checks.h"

using namespace atoms;
using namespace atoms::callout::testing;

namespace {

using atoms::testing::contains;
using atoms::testing::field;
using requests::RequestRow;
using requests::RequestState;

std::optional<RequestRow> requestRow(atoms::StoreRunner& runner, std::int64_t id) {
  std::optional<RequestRow> out;
  Status s = runner.run([&](SiteStore& store) -> Status {
    auto row = requests::RequestStore(store.db()).get(id);
    if (!row) return row.error();
    out = *row;
    return Status::success();
  });
  BOOST_TEST_REQUIRE(s.ok(), s.message());
  return out;
}

site::Person storedPerson(atoms::StoreRunner& runner, const std::string& id) {
  site::Person out;
  Status s = runner.run([&](SiteStore& store) -> Status {
    auto model = site::loadSite(store.db());
    if (!model) return model.error();
    for (const site::Person& p : model->people) {
      if (p.id == id) out = p;
    }
    return Status::success();
  });
  BOOST_TEST_REQUIRE(s.ok(), s.message());
  return out;
}

std::string stateOf(atoms::StoreRunner& runner, std::int64_t id) {
  auto row = requestRow(runner, id);
  return row ? std::string(requests::requestStateName(row->state)) : "none";
}

// Ana's shift tomorrow, 08:00-12:00 (the fixture's "tomorrow morning").
std::string anasShiftTomorrow(const site::SiteModel& model) {
  for (const site::Shift& s : model.shifts) {
    if (s.assignee == "p-ana" &&
        s.start.local > site::LocalTime{std::chrono::local_days{std::chrono::year{2026} / 3 / 5}}) {
      return s.id;
    }
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(requests_flow)

BOOST_AUTO_TEST_CASE(aTimeOffTextBecomesARequestTheManagerApprovesByText) {
  CalloutFixture f;
  const std::string shift = anasShiftTomorrow(f.model);
  BOOST_TEST_REQUIRE(!shift.empty());
  f.text(kAna, "Hi, can I have tomorrow off? I have a doctor thing");

  BOOST_TEST(contains(f.lastTo(kAna), "Got it: you asked for Thu Mar 5 off (request R1)"),
             f.lastTo(kAna));
  BOOST_TEST(contains(f.lastTo(kAna), "No need to give a reason"));
  const std::string toKwame = f.lastTo(kKwame);
  BOOST_TEST(contains(toKwame, "Ana asks for Thu Mar 5 off (R1)"), toKwame);
  BOOST_TEST(contains(toKwame, "touches 1 assigned shift"), toKwame);
  BOOST_TEST(contains(toKwame, "APPROVE R1"), toKwame);
  BOOST_TEST(stateOf(*f.runner, 1) == "pending");
  auto received = f.entries("request.received");
  BOOST_REQUIRE_EQUAL(received.size(), 1u);
  BOOST_TEST(field(received[0], "from") == "2026-03-05");
  BOOST_TEST(field(received[0], "approver") == "p-kwame");
  const std::string entryText =
      received[0].body.isObject() ? json::canonical(received[0].body) : std::string();
  BOOST_TEST(!contains(entryText, "doctor"), entryText);  // never the reason
  BOOST_TEST(contains(entryText, shift), entryText);      // the shift it touches

  f.text(kKwame, "APPROVE R1");
  BOOST_TEST(contains(f.lastTo(kKwame), "Approved: request R1"), f.lastTo(kKwame));
  BOOST_TEST(contains(f.lastTo(kKwame), "still on 1 shift"), f.lastTo(kKwame));
  BOOST_TEST(contains(f.lastTo(kAna), "Good news: your request (Thu Mar 5 off) is approved"),
             f.lastTo(kAna));
  BOOST_TEST(stateOf(*f.runner, 1) == "approved");
  const site::Person ana = storedPerson(*f.runner, "p-ana");
  BOOST_REQUIRE_EQUAL(ana.timeOff.size(), 1u);
  BOOST_TEST(site::formatLocal(ana.timeOff[0].start.local) == "2026-03-05T00:00:00");
  BOOST_TEST(site::formatLocal(ana.timeOff[0].end.local) == "2026-03-06T00:00:00");
  BOOST_TEST(f.storedAssignee(shift) == "p-ana");  // never unassigned by a request
  auto decided = f.entries("request.decided");
  BOOST_REQUIRE_EQUAL(decided.size(), 1u);
  BOOST_TEST(field(decided[0], "decision") == "approved");
  BOOST_TEST(field(decided[0], "via") == "sms");
}

BOOST_AUTO_TEST_CASE(theCallOutDeskSeesApprovedTimeOffWhenItLooksForCover) {
  CalloutFixture f;
  f.settings.waveSize = 10;
  f.close();
  f.open();
  // Ben asks for the rest of this week off and it is approved; when Jamal does not show tonight,
  // Ben is not offered the shift.
  f.text(kBen, "can I get this week off");
  BOOST_TEST_REQUIRE(contains(f.lastTo(kBen), "request R1"), f.lastTo(kBen));
  f.text(kKwame, "approve r1");
  BOOST_TEST_REQUIRE(stateOf(*f.runner, 1) == "approved");
  f.text(kRosa, "Jamal didn't show");
  BOOST_TEST(f.codeFor(kBen).empty());  // on time off: no offer
  BOOST_TEST(!f.codeFor(kAna).empty());
}

BOOST_AUTO_TEST_CASE(aSpanishAvailabilityChangeDeniedByTextChangesNothing) {
  CalloutFixture f;
  f.text(kBen, "ya no puedo en las mañanas");
  // Answered in the language he wrote in; Kwame in his own.
  BOOST_TEST(contains(f.lastTo(kBen), "Recibido: pediste sin mañanas (solicitud R1)"),
             f.lastTo(kBen));
  BOOST_TEST(contains(f.lastTo(kKwame), "no mornings (R1)"), f.lastTo(kKwame));
  f.text(kKwame, "DENY R1 we need you on brunch");
  BOOST_TEST(contains(f.lastTo(kKwame), "Denied: request R1"));
  BOOST_TEST(contains(f.lastTo(kBen), "couldn't be approved this time"), f.lastTo(kBen));
  BOOST_TEST(!contains(f.lastTo(kBen), "brunch"));  // the manager's words stay on the panel
  auto row = requestRow(*f.runner, 1);
  BOOST_REQUIRE(row.has_value());
  BOOST_TEST(requests::requestStateName(row->state) == "denied");
  BOOST_TEST(row->remark == "we need you on brunch");
  BOOST_TEST(storedPerson(*f.runner, "p-ben").availability.empty());
}

BOOST_AUTO_TEST_CASE(anApprovedAvailabilityChangeWritesTheWeeklyWindows) {
  CalloutFixture f;
  f.text(kBen, "I can only work weekends from now on");
  f.text(kKwame, "APPROVE R1");
  BOOST_TEST(contains(f.lastTo(kBen), "(only weekends) is approved"), f.lastTo(kBen));
  const site::Person ben = storedPerson(*f.runner, "p-ben");
  BOOST_REQUIRE_EQUAL(ben.availability.size(), 2u);
  BOOST_TEST(ben.availability[0].weekday == 0u);
  BOOST_TEST(ben.availability[0].startMinute == 0);
  BOOST_TEST(ben.availability[0].endMinute == 1440);
  BOOST_TEST(ben.availability[1].weekday == 6u);
}

BOOST_AUTO_TEST_CASE(onlyTheManagerOfRecordDecidesAndNeverThePersonItIsAbout) {
  CalloutFixture f;
  f.text(kAna, "I need Saturday off");
  f.text(kRosa, "APPROVE R1");
  BOOST_TEST(contains(f.lastTo(kRosa), "Only their manager can decide request R1"),
             f.lastTo(kRosa));
  f.text(kAna, "approve R1");
  BOOST_TEST(contains(f.lastTo(kAna), "Request R1 is yours"), f.lastTo(kAna));
  BOOST_TEST(stateOf(*f.runner, 1) == "pending");
  auto refused = f.entries("request.refused");
  BOOST_REQUIRE_EQUAL(refused.size(), 2u);
  BOOST_TEST(field(refused[0], "reason") == "not_approver");
  BOOST_TEST(field(refused[1], "reason") == "self_approval");
  BOOST_TEST(storedPerson(*f.runner, "p-ana").timeOff.empty());
}

BOOST_AUTO_TEST_CASE(anUnclearTextGetsOneKindQuestionAndNoRequest) {
  CalloutFixture f;
  f.text(kAna, "I need a day off");
  BOOST_TEST(contains(f.lastTo(kAna), "Which day would you like off?"), f.lastTo(kAna));
  BOOST_TEST(!requestRow(*f.runner, 1).has_value());
  BOOST_TEST(f.textsTo(kKwame).empty());
  auto asked = f.entries("request.asked");
  BOOST_REQUIRE_EQUAL(asked.size(), 1u);
  BOOST_TEST(field(asked[0], "question") == "which_day");
  f.text(kAna, "can I have Monday and Thursday off");
  BOOST_TEST(contains(f.lastTo(kAna), "one text per day or stretch"), f.lastTo(kAna));
}

BOOST_AUTO_TEST_CASE(theSameRequestTwiceIsFiledOnce) {
  CalloutFixture f;
  f.text(kAna, "I need Saturday off");
  f.text(kAna, "i need saturday off!!");
  BOOST_TEST(contains(f.lastTo(kAna), "(request R1)"), f.lastTo(kAna));
  BOOST_TEST(!requestRow(*f.runner, 2).has_value());
  BOOST_TEST(f.textsTo(kKwame).size() == 1u);
  f.text(kAna, "and Sunday off too");  // another request
  BOOST_TEST(contains(f.lastTo(kAna), "Sun Mar 8 off (request R2)"), f.lastTo(kAna));
}

BOOST_AUTO_TEST_CASE(aWorkerWithdrawsAPendingRequestAndItIsClosed) {
  CalloutFixture f;
  f.text(kAna, "Saturday off please");
  f.text(kAna, "withdraw R1");
  BOOST_TEST(contains(f.lastTo(kAna), "request R1 is withdrawn"), f.lastTo(kAna));
  BOOST_TEST(stateOf(*f.runner, 1) == "withdrawn");
  f.text(kKwame, "APPROVE R1");
  BOOST_TEST(contains(f.lastTo(kKwame), "Request R1 is already closed"), f.lastTo(kKwame));
  BOOST_TEST(storedPerson(*f.runner, "p-ana").timeOff.empty());
  BOOST_TEST(f.entries("request.withdrawn").size() == 1u);
}

BOOST_AUTO_TEST_CASE(callOutsAndCallOutApprovalsStillGoToTheCallOutDesk) {
  CalloutFixture f;
  f.text(kAna, "I cant come in tomorrow");  // a call-out (tomorrow, no "off"): not a request
  BOOST_TEST(!requestRow(*f.runner, 1).has_value());
  BOOST_TEST(f.entries("request.received").empty());
  f.text(kKwame, "APPROVE 7");  // a call-out approval number: the call-out desk answers
  BOOST_TEST(contains(f.lastTo(kKwame), "Request 7 is already closed"), f.lastTo(kKwame));
}

BOOST_AUTO_TEST_CASE(anOpenSchedulingBreakerHoldsAnApprovalAndTheRequestStaysPending) {
  CalloutFixture f;
  f.text(kAna, "I need Saturday off");
  f.policy.openBreakers.insert("BRK-SCH");
  f.text(kKwame, "APPROVE R1");
  BOOST_TEST(stateOf(*f.runner, 1) == "pending");
  BOOST_TEST(contains(f.lastTo(kKwame), "can't record schedule changes right now"),
             f.lastTo(kKwame));
  BOOST_TEST(storedPerson(*f.runner, "p-ana").timeOff.empty());
  f.policy.openBreakers.clear();
  f.text(kKwame, "APPROVE R1");
  BOOST_TEST(stateOf(*f.runner, 1) == "approved");
}

BOOST_AUTO_TEST_CASE(writesFrozenByTheKillSwitchRefuseAnApprovalOnTheApi) {
  CalloutFixture f;
  f.text(kAna, "I need Saturday off");
  f.policy.level = policy::KillSwitchLevel::kL2;
  requests::StoreRequests book(*f.requestDesk, *f.runner);
  auto decided = book.decide("p-kwame", 1, true, "");
  BOOST_TEST_REQUIRE(decided.ok(), decided.message());
  BOOST_TEST(callout::decisionOutcomeName(decided->outcome) == "refused_policy");
  BOOST_TEST(stateOf(*f.runner, 1) == "pending");
  BOOST_TEST(storedPerson(*f.runner, "p-ana").timeOff.empty());
}

BOOST_AUTO_TEST_CASE(theBookDecidesOnTheApiWithTheSameRules) {
  CalloutFixture f;
  f.text(kAna, "Fri-Sun off");
  requests::StoreRequests book(*f.requestDesk, *f.runner);
  auto listed = book.list(requests::RequestFilter::kPending);
  BOOST_TEST_REQUIRE(listed.ok(), listed.message());
  BOOST_REQUIRE_EQUAL(listed->size(), 1u);
  BOOST_TEST((*listed)[0].words == "Fri Mar 6 - Sun Mar 8 off");
  BOOST_TEST((*listed)[0].timeOff.size() == 1u);

  auto byRosa = book.decide("p-rosa", 1, true, "");
  BOOST_TEST_REQUIRE(byRosa.ok(), byRosa.message());
  BOOST_TEST(callout::decisionOutcomeName(byRosa->outcome) == "refused_not_approver");

  api::RequestsResource resource([&book]() -> requests::RequestBook* { return &book; });
  api::ApiRequest post{"POST", "/v1/staff-requests/1/decision", "", "p-kwame",
                       R"({"decision":"deny","reason":"short-staffed that weekend"})"};
  const api::ApiAnswer answer = resource.handle(post);
  BOOST_TEST(answer.status == 200, answer.body);
  BOOST_TEST(contains(answer.body, R"("state":"denied")"), answer.body);
  BOOST_TEST(contains(answer.body, R"("remark":"short-staffed that weekend")"), answer.body);
  BOOST_TEST(contains(f.lastTo(kAna), "couldn't be approved"), f.lastTo(kAna));

  const api::ApiAnswer again = resource.handle(post);
  BOOST_TEST(again.status == 409, again.body);
  const api::ApiAnswer bad = resource.handle(
      {"POST", "/v1/staff-requests/1/decision", "", "p-kwame", R"({"decision":"maybe"})"});
  BOOST_TEST(bad.status == 400, bad.body);
  const api::ApiAnswer unknown =
      resource.handle({"GET", "/v1/staff-requests/9", "", "p-kwame", ""});
  BOOST_TEST(unknown.status == 404, unknown.body);
  const api::ApiAnswer stranger = resource.handle({"GET", "/v1/staff-requests", "", "p-x", ""});
  BOOST_TEST(stranger.status == 403, stranger.body);
  const api::ApiAnswer all =
      resource.handle({"GET", "/v1/staff-requests", "state=all", "p-kwame", ""});
  BOOST_TEST(all.status == 200, all.body);
  BOOST_TEST(contains(all.body, R"("label":"R1")"), all.body);
}

// Through the service: the webhook takes Ana's text, the manager approves on the JSON API.
BOOST_FIXTURE_TEST_CASE(servedATimeOffTextIsApprovedOnTheApi, ServedSite) {
  addApi({{"p-kwame", kKwameToken}});
  text(kAna, "necesito el sábado libre");
  BOOST_TEST(contains(lastTo(kAna), "R1"), lastTo(kAna));
  const atoms::testing::ApiReply listed =
      atoms::testing::apiRequest(apiPort(), "GET", "/v1/staff-requests", kKwameToken);
  BOOST_TEST_REQUIRE(listed.status == 200, listed.body);
  BOOST_TEST(contains(listed.body, R"("from":"2026-03-07")"), listed.body);
  const atoms::testing::ApiReply approved = atoms::testing::apiRequest(
      apiPort(), "POST", "/v1/staff-requests/1/decision", kKwameToken, R"({"decision":"approve"})");
  BOOST_TEST_REQUIRE(approved.status == 200, approved.body);
  due();
  BOOST_TEST(contains(lastTo(kAna), "is approved"), lastTo(kAna));
  auto decided = entries("request.decided");
  BOOST_REQUIRE_EQUAL(decided.size(), 1u);
  BOOST_TEST(field(decided[0], "via") == "api");
}

BOOST_AUTO_TEST_SUITE_END()
