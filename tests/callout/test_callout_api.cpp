// The approvals JSON API over the real call-out desk (tests/callout/callout_fixture.h): Mia's
// overtime waits for Kwame, her manager of record; the panel lists it over HTTP with the labor
// evaluations behind it; nobody but Kwame decides it (not Mia herself, not Rosa, the lead); his
// decision over HTTP does exactly what his APPROVE text does; a lapsed approval is a conflict.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <memory>

#include "daemon/api/approvals_server.h"
#include "domain/callout/approval_book.h"
#include "tests/callout/callout_fixture.h"
#include "tests/callout/served_site.h"
#include "tests/support/api_client.h"
#include "tests/support/event_log.h"
#include "tests/support/inline_writer.h"
#include "tests/support/text_checks.h"

using namespace atoms;
using namespace atoms::callout;
using namespace atoms::callout::testing;
using namespace std::chrono_literals;
using atoms::testing::ApiReply;
using atoms::testing::apiRequest;

namespace {

const std::string kMiaToken = "mia-token-8e2b6d0a4c1f3957";

using atoms::testing::contains;

// The API over the fixture's desk. The fixture has no engine: its store runner is a lock, so the
// server's tasks run on its own threads, one at a time, like the texts the test sends.
class DeskApi {
 public:
  explicit DeskApi(CalloutFixture& f) : book_(*f.desk, *f.site, *f.runner) {
    api::ApprovalsServerOptions options;
    options.port = 0;
    options.onRefused = refused_.hook();
    server_ = std::make_unique<api::ApprovalsServer>(
        drivers::BearerTokens({{"p-kwame", sha256(asBytes(kKwameToken))},
                               {"p-mia", sha256(asBytes(kMiaToken))},
                               {"p-rosa", sha256(asBytes(kRosaToken))}}),
        [this]() -> ApprovalBook* { return &book_; }, writer_, std::move(options));
    Status s = server_->start();
    BOOST_TEST_REQUIRE(s.ok(), s.message());
  }

  ApiReply list(const std::string& token, const std::string& query = "") {
    return apiRequest(server_->port(), "GET", "/v1/approvals" + query, token);
  }
  ApiReply get(std::int64_t id, const std::string& token) {
    return apiRequest(server_->port(), "GET", "/v1/approvals/" + std::to_string(id), token);
  }
  ApiReply decide(std::int64_t id, const std::string& token, const std::string& decision,
                  const std::string& remark = "") {
    return apiRequest(server_->port(), "POST", "/v1/approvals/" + std::to_string(id) + "/decision",
                      token, R"({"decision":")" + decision + R"(","remark":")" + remark + R"("})");
  }
  ApiReply post(std::int64_t id, const std::string& token, const std::string& body) {
    return apiRequest(server_->port(), "POST", "/v1/approvals/" + std::to_string(id) + "/decision",
                      token, body);
  }
  std::vector<api::RefusedApiRequest> refused() const { return refused_.events(); }

 private:
  CalloutApprovals book_;
  atoms::testing::InlineWriter writer_;
  atoms::testing::EventLog<api::RefusedApiRequest> refused_;
  std::unique_ptr<api::ApprovalsServer> server_;
};

// Rosa reports Jamal missing; Mia, at 36 h this week, takes the shift: overtime, approval 1.
void miaAsksForOvertime(CalloutFixture& f) {
  f.settings.waveSize = 4;
  f.close();
  f.open();
  f.text(kRosa, "Jamal didn't show");
  f.text(kMia, f.codeFor(kMia));
  BOOST_TEST_REQUIRE(contains(f.lastTo(kKwame), "Approval 1: Mia can cover"));
  BOOST_TEST_REQUIRE(f.storedAssignee("s-jamal") == "p-jamal");
}

// Every text the box sent, to whom, in order, but those to `except`.
std::vector<std::pair<std::string, std::string>> textsBut(CalloutFixture& f,
                                                          const std::string& except) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const char* phone : {kRosa, kJamal, kAna, kBen, kCleo, kMia, kTom, kLea, kZed, kKwame}) {
    if (phone == except) continue;
    for (const std::string& body : f.textsTo(phone)) out.emplace_back(phone, body);
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(callout_api)

BOOST_AUTO_TEST_CASE(theOvertimeApprovalIsListedWithTheEvidenceTheDeskRecorded) {
  CalloutFixture f;
  miaAsksForOvertime(f);
  DeskApi api(f);
  ApiReply r = api.list(kKwameToken);
  BOOST_TEST_REQUIRE(r.status == 200, r.body);
  const json::Array& list = r.object().at("approvals").asArray();
  BOOST_TEST_REQUIRE(list.size() == 1u);
  const json::Object& a = list[0].asObject();
  BOOST_TEST(a.at("id").asInt() == 1);
  BOOST_TEST(a.at("kind").asString() == "overtime.approve");
  BOOST_TEST(a.at("state").asString() == "pending");
  BOOST_TEST(a.at("subject").asObject().at("id").asString() == "p-mia");
  BOOST_TEST(a.at("approver").asObject().at("name").asString() == "Kwame Asante");
  BOOST_TEST(a.at("requestedAt").asString() ==
             formatTimestamp(CalloutFixture::localTime(0, 16, 55)));
  BOOST_TEST(a.at("expiresAt").asString() == formatTimestamp(CalloutFixture::localTime(0, 17, 25)));
  const json::Object& shift = a.at("shift").asObject();
  BOOST_TEST(shift.at("id").asString() == "s-jamal");
  BOOST_TEST(shift.at("stationName").asString() == "line cook");
  BOOST_TEST(shift.at("start").asObject().at("local").asString() == "2026-03-04T17:00:00");
  BOOST_TEST(shift.at("start").asObject().at("utc").asString() == "2026-03-05T01:00:00.000Z");
  BOOST_TEST(shift.at("end").asObject().at("local").asString() == "2026-03-04T23:00:00");
  BOOST_TEST(a.at("callout").asInt() == 1);
  BOOST_TEST(a.at("smsReply").asObject().at("approve").asString() == "APPROVE 1");

  // The evidence is the signed request receipt: its seq, its labor evaluations, its premium.
  std::uint64_t seq = 0;
  for (const Entry& e : f.entries("receipt")) {
    if (e.body.asObject().at("id").asString() == "approval-1-request") seq = e.seq;
  }
  BOOST_TEST_REQUIRE(seq > 0u);
  BOOST_TEST(a.at("receiptSeq").asInt() == static_cast<std::int64_t>(seq));
  const json::Object& evidence = a.at("evidence").asObject();
  const json::Value receipt = f.receiptWithId("approval-1-request");
  BOOST_TEST(evidence.at("receipt").asString() == "approval-1-request");
  BOOST_TEST((evidence.at("ruleEvaluations") == receipt.asObject().at("ruleEvaluations")));
  BOOST_TEST(evidence.at("premiumMinutes").asInt() > 0);
  BOOST_TEST(evidence.at("premiumCents").asInt() > 0);
  const json::Array& evaluations = evidence.at("ruleEvaluations").asArray();
  BOOST_TEST(std::any_of(evaluations.begin(), evaluations.end(), [](const json::Value& e) {
    return e.asObject().at("result").asString() == "threshold_exceeded";
  }));

  BOOST_TEST(api.get(1, kRosaToken).status == 200);
  BOOST_TEST(api.list(kKwameToken, "?state=all").object().at("approvals").asArray().size() == 1u);
}

BOOST_AUTO_TEST_CASE(nobodyButTheManagerOfRecordDecidesAndARefusalChangesNothing) {
  CalloutFixture f;
  miaAsksForOvertime(f);
  DeskApi api(f);
  const auto before = textsBut(f, "");
  // Mia approving her own overtime (as a lead could try with their token).
  ApiReply self = api.decide(1, kMiaToken, "approve");
  BOOST_TEST(self.status == 403);
  BOOST_TEST(self.error() == "approval 1 is about you: your manager of record decides it");
  // Rosa, the lead, is not the approver named on it.
  ApiReply lead = api.decide(1, kRosaToken, "approve");
  BOOST_TEST(lead.status == 403);
  BOOST_TEST(lead.error() == "only the approver named on approval 1 decides it");

  BOOST_TEST(f.storedAssignee("s-jamal") == "p-jamal");
  BOOST_TEST(api.get(1, kKwameToken).object().at("state").asString() == "pending");
  BOOST_TEST((textsBut(f, "") == before));  // nobody was texted
  const std::vector<Entry> refused = f.entries("approval.refused");
  BOOST_TEST_REQUIRE(refused.size() == 2u);
  const json::Object& first = refused[0].body.asObject();
  BOOST_TEST(first.at("reason").asString() == "self_approval");
  BOOST_TEST(first.at("person").asString() == "p-mia");
  BOOST_TEST(first.at("via").asString() == "api");
  BOOST_TEST(first.at("from").isNull());
  BOOST_TEST(refused[1].body.asObject().at("reason").asString() == "not_approver");
  BOOST_TEST(api.refused().empty());  // the desk's own audit, not a second one
}

BOOST_AUTO_TEST_CASE(approvingOverHttpDoesExactlyWhatTheApproveTextDoes) {
  // The same site twice: Kwame texts APPROVE 1 on one, approves over HTTP on the other.
  CalloutFixture bySms;
  miaAsksForOvertime(bySms);
  bySms.text(kKwame, "APPROVE 1");
  const std::string smsReply = bySms.lastTo(kKwame);

  CalloutFixture byApi;
  miaAsksForOvertime(byApi);
  DeskApi api(byApi);
  ApiReply r = api.decide(1, kKwameToken, "approve", "once");
  BOOST_TEST_REQUIRE(r.status == 200, r.body);
  BOOST_TEST(r.object().at("outcome").asString() == "approved");
  BOOST_TEST(r.object().at("message").asString() == smsReply);
  const json::Object& a = r.object().at("approval").asObject();
  BOOST_TEST(a.at("state").asString() == "approved");
  BOOST_TEST(a.at("decidedBy").asString() == "p-kwame");
  BOOST_TEST(a.at("remark").asString() == "once");

  BOOST_TEST(byApi.storedAssignee("s-jamal") == "p-mia");
  BOOST_TEST(contains(byApi.lastTo(kMia), "Approved: you're on line cook today 17:00-23:00"));
  BOOST_TEST(contains(byApi.lastTo(kRosa), "Covered: Mia"));
  // Everyone but Kwame (whose answer was the HTTP reply) got the very same texts.
  BOOST_TEST((textsBut(byApi, kKwame) == textsBut(bySms, kKwame)));
  const json::Value receipt = byApi.receiptWithId("callout-1-assign");
  BOOST_TEST(receipt.asObject().at("premiumMinutes").asInt() > 0);
  BOOST_TEST((receipt.asObject().at("ruleEvaluations") ==
              bySms.receiptWithId("callout-1-assign").asObject().at("ruleEvaluations")));
  const std::vector<Entry> decided = byApi.entries("approval.decided");
  BOOST_TEST_REQUIRE(decided.size() == 1u);
  BOOST_TEST(decided[0].body.asObject().at("via").asString() == "api");
  BOOST_TEST(bySms.entries("approval.decided")[0].body.asObject().at("via").asString() == "sms");

  // Decided: once is all.
  ApiReply again = api.decide(1, kKwameToken, "deny");
  BOOST_TEST(again.status == 409);
  BOOST_TEST(again.error() == "approval 1 was approved already");
  BOOST_TEST(byApi.storedAssignee("s-jamal") == "p-mia");
  BOOST_TEST(api.list(kKwameToken).object().at("approvals").asArray().empty());
}

BOOST_AUTO_TEST_CASE(denyingOverHttpLeavesTheShiftOpenForOthers) {
  CalloutFixture f;
  miaAsksForOvertime(f);
  DeskApi api(f);
  ApiReply r = api.decide(1, kKwameToken, "deny", "budget");
  BOOST_TEST_REQUIRE(r.status == 200, r.body);
  BOOST_TEST(r.object().at("outcome").asString() == "denied");
  BOOST_TEST(r.object().at("approval").asObject().at("state").asString() == "denied");
  BOOST_TEST(f.storedAssignee("s-jamal") == "p-jamal");
  BOOST_TEST(contains(f.lastTo(kMia), "wasn't approved"));
  f.text(kBen, f.codeFor(kBen));
  BOOST_TEST(f.storedAssignee("s-jamal") == "p-ben");
}

BOOST_AUTO_TEST_CASE(aDenialWithAReasonIsRecordedAsAnOverrideOfTheProposal) {
  CalloutFixture f;
  miaAsksForOvertime(f);
  DeskApi api(f);
  ApiReply r = api.post(1, kKwameToken, R"({"decision":"deny","reason":"WRONG_FACTS"})");
  BOOST_TEST_REQUIRE(r.status == 200, r.body);
  BOOST_TEST(f.storedAssignee("s-jamal") == "p-jamal");
  const std::vector<Entry> decided = f.entries("approval.decided");
  BOOST_TEST_REQUIRE(decided.size() == 1u);
  BOOST_TEST(decided[0].body.asObject().at("override").asString() == "WRONG_FACTS");
  // Without a reason a denial is only a denial.
  CalloutFixture g;
  miaAsksForOvertime(g);
  DeskApi plain(g);
  BOOST_TEST_REQUIRE(plain.decide(1, kKwameToken, "deny").status == 200);
  BOOST_TEST(g.entries("approval.decided")[0].body.asObject().at("override").isNull());
}

BOOST_AUTO_TEST_CASE(aLapsedApprovalIsAConflictAndLapsesAsTheTimerWould) {
  CalloutFixture f;
  miaAsksForOvertime(f);
  DeskApi api(f);
  f.advance(31min);  // past callout.approval_expiry_minutes; the timer has not run yet
  ApiReply r = api.decide(1, kKwameToken, "approve");
  BOOST_TEST(r.status == 409);
  BOOST_TEST(r.error() == "approval 1 has expired");
  BOOST_TEST(f.storedAssignee("s-jamal") == "p-jamal");
  BOOST_TEST(contains(f.lastTo(kMia), "wasn't approved"));
  BOOST_TEST(f.entries("approval.expired").size() == 1u);
  BOOST_TEST(api.get(1, kKwameToken).object().at("state").asString() == "expired");
  const auto refused = api.refused();
  BOOST_TEST_REQUIRE(refused.size() == 1u);
  BOOST_TEST(refused[0].httpStatus == 409);
  BOOST_TEST(refused[0].person == "p-kwame");
  // The timer finds nothing left to expire; a text after the expiry is closed too.
  f.due();
  BOOST_TEST(f.entries("approval.expired").size() == 1u);
  f.text(kKwame, "APPROVE 1");
  BOOST_TEST(f.storedAssignee("s-jamal") == "p-jamal");
}

BOOST_AUTO_TEST_SUITE_END()
