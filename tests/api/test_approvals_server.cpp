// The approvals API server (daemon/api/approvals_server.h) over real HTTP on 127.0.0.1 (port 0),
// with an in-memory ApprovalBook: the routes, every refusal and who audits it, how each outcome
// of a decision is answered, and that a request the engine did not take up in time is answered
// 503 and never runs afterwards.
#include <boost/test/unit_test.hpp>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "daemon/api/approval_json.h"
#include "daemon/api/approvals_server.h"
#include "tests/support/api_client.h"
#include "tests/support/event_log.h"

namespace atoms::api {
namespace {

using callout::ApprovalAnswer;
using callout::ApprovalBook;
using callout::ApprovalDecision;
using callout::ApprovalFilter;
using callout::ApprovalState;
using callout::ApprovalView;
using callout::DecisionOutcome;
using testing::ApiReply;
using testing::apiRequest;

const std::string kManagerToken = "manager-token-8c1d9e2f3a4b5c6d";
const std::string kCookToken = "cook-token-1a2b3c4d5e6f7a8b";
const std::string kGoneToken = "gone-token-0f9e8d7c6b5a4938";

drivers::BearerTokens tokens() {
  return drivers::BearerTokens({{"p-kwame", sha256(asBytes(kManagerToken))},
                                {"p-mia", sha256(asBytes(kCookToken))},
                                {"p-gone", sha256(asBytes(kGoneToken))}});
}

ApprovalView pendingView(std::int64_t id) {
  ApprovalView v;
  v.row.id = id;
  v.row.kind = "overtime.approve";
  v.row.calloutId = 3;
  v.row.offerId = 9;
  v.row.subjectId = "p-mia";
  v.row.approverId = "p-kwame";
  v.row.approverPhone = "+15551000009";
  v.row.summary = "Mia to cover the line cook today 17:00-23:00";
  v.row.requestedAt = callout::TimePoint(std::chrono::seconds(1772672100));
  v.row.expiresAt = v.row.requestedAt + std::chrono::minutes(30);
  v.row.receiptSeq = 41;
  v.subjectName = "Mia Chen";
  v.approverName = "Kwame Asante";
  v.shiftId = "s-jamal";
  v.stationId = "line";
  v.stationName = "line cook";
  v.shiftStart = callout::TimePoint(std::chrono::seconds(1772672400));
  v.shiftEnd = v.shiftStart + std::chrono::hours(6);
  v.shiftStartLocal = site::LocalTime(std::chrono::seconds(1772643600));
  v.shiftEndLocal = v.shiftStartLocal + std::chrono::hours(6);
  v.timeZone = "America/Los_Angeles";
  v.receipt = json::Object{
      {"id", "approval-" + std::to_string(id) + "-request"},
      {"ruleEvaluations", json::Array{json::Object{{"ruleId", "US-CA-OT-DAILY-8"},
                                                   {"input", json::Object{}},
                                                   {"result", "threshold_exceeded"},
                                                   {"detail", "4 h over 8 h in the workday"}}}},
      {"premiumMinutes", 240},
      {"premiumCents", 6600},
      {"gaps", json::Array{}},
      {"rationale", "Waits for the manager of record."},
      {"sig", "c2ln"}};
  return v;
}

// An in-memory book, called on the "writer" (whatever thread runs the posted tasks).
class MemoryBook final : public ApprovalBook {
 public:
  Result<bool> knowsPerson(std::string_view personId) override {
    ++calls;
    return personId != "p-gone";
  }
  Result<std::vector<ApprovalView>> list(ApprovalFilter filter) override {
    ++calls;
    lastFilter = filter;
    std::vector<ApprovalView> out;
    for (const auto& [id, v] : approvals) {
      if (filter == ApprovalFilter::kRecent || v.row.state == ApprovalState::kPending) {
        out.push_back(v);
      }
    }
    return out;
  }
  Result<std::optional<ApprovalView>> get(std::int64_t id) override {
    ++calls;
    auto it = approvals.find(id);
    if (it == approvals.end()) return std::optional<ApprovalView>();
    return std::optional<ApprovalView>(it->second);
  }
  Result<ApprovalDecision> decide(std::string_view personId, std::int64_t id,
                                  const ApprovalAnswer& answer) override {
    const bool approve = answer.approve;
    ++calls;
    ++decisions;
    if (failDecisions) return makeError("disk I/O error");
    auto it = approvals.find(id);
    if (it == approvals.end()) return ApprovalDecision{DecisionOutcome::kUnknown, "", {}};
    ApprovalView& v = it->second;
    if (v.row.state != ApprovalState::kPending) {
      return ApprovalDecision{DecisionOutcome::kClosed, "closed", v};
    }
    if (personId == v.row.subjectId) {
      return ApprovalDecision{DecisionOutcome::kRefusedSelf, "about you", v};
    }
    if (personId != v.row.approverId) {
      return ApprovalDecision{DecisionOutcome::kRefusedNotApprover, "not yours", v};
    }
    v.row.state = approve ? ApprovalState::kApproved : ApprovalState::kDenied;
    v.row.decidedBy = std::string(personId);
    v.row.remark = answer.remark;
    lastOverride = answer.overrideReason;
    return ApprovalDecision{approve ? DecisionOutcome::kApproved : DecisionOutcome::kDenied,
                            "Approval recorded.", v};
  }

  std::map<std::int64_t, ApprovalView> approvals;
  ApprovalFilter lastFilter = ApprovalFilter::kPending;
  int calls = 0;
  int decisions = 0;
  bool failDecisions = false;
  std::optional<policy::OverrideReason> lastOverride;
};

// The "engine": runs posted tasks inline, or holds them until release() (a busy engine), or
// refuses them (a stopping one).
class FakeEngine final : public Writer {
 public:
  enum class Mode { kInline, kHold, kRefuse };
  bool post(Task task) override {
    std::lock_guard lock(mutex_);
    if (mode == Mode::kRefuse) return false;
    if (mode == Mode::kHold) {
      held_.push_back(std::move(task));
      return true;
    }
    task();
    return true;
  }
  bool onWriterThread() const override { return false; }
  void runAfter(std::chrono::milliseconds, Task) override {
    throw std::logic_error("the server sets no timers");
  }
  void release() {
    std::deque<std::function<void()>> tasks;
    {
      std::lock_guard lock(mutex_);
      tasks.swap(held_);
    }
    for (auto& t : tasks) t();
  }
  std::size_t held() {
    std::lock_guard lock(mutex_);
    return held_.size();
  }

  Mode mode = Mode::kInline;

 private:
  std::mutex mutex_;
  std::deque<std::function<void()>> held_;
};

struct Fixture {
  Fixture() {
    book.approvals.emplace(12, pendingView(12));
    ApprovalView decided = pendingView(7);
    decided.row.state = ApprovalState::kDenied;
    book.approvals.emplace(7, decided);
    server = std::make_unique<ApprovalsServer>(
        tokens(), [this]() -> ApprovalBook* { return withBook ? &book : nullptr; }, writer,
        options());
    Status s = server->start();
    BOOST_REQUIRE_MESSAGE(s, s.message());
  }
  ApprovalsServerOptions options() {
    ApprovalsServerOptions o;
    o.port = 0;
    o.maxBodyBytes = 1024;
    o.writerTimeout = std::chrono::milliseconds(200);
    o.onRefused = refusals.hook();
    return o;
  }
  ApiReply get(const std::string& path, const std::optional<std::string>& token = kManagerToken) {
    return apiRequest(server->port(), "GET", path, token);
  }
  ApiReply decide(std::int64_t id, const std::string& body,
                  const std::optional<std::string>& token = kManagerToken) {
    return apiRequest(server->port(), "POST", "/v1/approvals/" + std::to_string(id) + "/decision",
                      token, body);
  }

  MemoryBook book;
  FakeEngine writer;
  atoms::testing::EventLog<RefusedApiRequest> refusals;
  bool withBook = true;
  std::unique_ptr<ApprovalsServer> server;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(approvals_server)

BOOST_AUTO_TEST_CASE(listsPendingApprovalsWithTheirEvidenceAndSmsReply) {
  Fixture f;
  ApiReply r = f.get("/v1/approvals");
  BOOST_TEST_REQUIRE(r.status == 200, r.body);
  BOOST_TEST(r.object().at("state").asString() == "pending");
  const json::Array& list = r.object().at("approvals").asArray();
  BOOST_TEST_REQUIRE(list.size() == 1u);  // 7 is decided
  const json::Object& a = list[0].asObject();
  BOOST_TEST(a.at("id").asInt() == 12);
  BOOST_TEST(a.at("kind").asString() == "overtime.approve");
  BOOST_TEST(a.at("state").asString() == "pending");
  BOOST_TEST(a.at("requestedAt").asString() == "2026-03-05T00:55:00.000Z");
  BOOST_TEST(a.at("expiresAt").asString() == "2026-03-05T01:25:00.000Z");
  BOOST_TEST(a.at("approver").asObject().at("id").asString() == "p-kwame");
  BOOST_TEST(a.at("subject").asObject().at("name").asString() == "Mia Chen");
  const json::Object& shift = a.at("shift").asObject();
  BOOST_TEST(shift.at("stationName").asString() == "line cook");
  BOOST_TEST(shift.at("timeZone").asString() == "America/Los_Angeles");
  BOOST_TEST(shift.at("start").asObject().at("utc").asString() == "2026-03-05T01:00:00.000Z");
  BOOST_TEST(shift.at("start").asObject().at("local").asString() == "2026-03-04T17:00:00");
  BOOST_TEST(shift.at("end").asObject().at("local").asString() == "2026-03-04T23:00:00");
  BOOST_TEST(a.at("callout").asInt() == 3);
  BOOST_TEST(a.at("offer").asInt() == 9);
  BOOST_TEST(a.at("receiptSeq").asInt() == 41);
  const json::Object& evidence = a.at("evidence").asObject();
  BOOST_TEST(evidence.at("receipt").asString() == "approval-12-request");
  BOOST_TEST(evidence.at("premiumCents").asInt() == 6600);
  BOOST_TEST(evidence.at("ruleEvaluations").asArray().size() == 1u);
  BOOST_TEST(evidence.count("sig") == 0u);
  BOOST_TEST(a.at("smsReply").asObject().at("approve").asString() == "APPROVE 12");
  BOOST_TEST(a.at("smsReply").asObject().at("deny").asString() == "DENY 12");

  ApiReply all = f.get("/v1/approvals?state=all");
  BOOST_TEST_REQUIRE(all.status == 200);
  BOOST_TEST(all.object().at("state").asString() == "all");
  BOOST_TEST(all.object().at("approvals").asArray().size() == 2u);
  BOOST_TEST((f.book.lastFilter == ApprovalFilter::kRecent));

  ApiReply one = f.get("/v1/approvals/7");
  BOOST_TEST_REQUIRE(one.status == 200);
  BOOST_TEST(one.object().at("state").asString() == "denied");
  BOOST_TEST(f.refusals.events().empty());
}

BOOST_AUTO_TEST_CASE(aMissingOrUnknownTokenIs401WithNoDetailAndIsReported) {
  Fixture f;
  for (const std::optional<std::string>& token :
       std::vector<std::optional<std::string>>{std::nullopt, "", "wrong-token"}) {
    ApiReply r = f.get("/v1/approvals", token);
    BOOST_TEST(r.status == 401);
    BOOST_TEST(r.error() == "unauthorized");
  }
  ApiReply lower = [&] {
    Poco::Net::HTTPClientSession session("127.0.0.1", f.server->port());
    Poco::Net::HTTPRequest request("GET", "/v1/approvals", Poco::Net::HTTPMessage::HTTP_1_1);
    request.set("Authorization", "bearer " + kManagerToken);  // the scheme in any case
    session.sendRequest(request);
    Poco::Net::HTTPResponse response;
    session.receiveResponse(response);
    ApiReply r;
    r.status = static_cast<int>(response.getStatus());
    return r;
  }();
  BOOST_TEST(lower.status == 200);
  const auto events = f.refusals.events();
  BOOST_TEST_REQUIRE(events.size() == 3u);
  BOOST_TEST(events[0].reason == "no bearer token");
  BOOST_TEST(events[2].reason == "unknown token");
  BOOST_TEST(events[2].person.empty());
  BOOST_TEST(events[2].path == "/v1/approvals");
  BOOST_TEST(f.book.calls == 2);  // only the lower-case request reached the book
}

BOOST_AUTO_TEST_CASE(otherPathsAndMethodsAreRefusedBeforeTheToken) {
  Fixture f;
  for (const char* path : {"/v1/approval", "/v1/approvals/", "/v1/approvals/x", "/v1/approvals/012",
                           "/v1/approvals/12/decide", "/v1/approvals/12/decision/x", "/"}) {
    BOOST_TEST_CONTEXT(path) { BOOST_TEST(f.get(path, std::nullopt).status == 404); }
  }
  ApiReply post = apiRequest(f.server->port(), "POST", "/v1/approvals", kManagerToken, "{}");
  BOOST_TEST(post.status == 405);
  BOOST_TEST(post.allow == "GET");
  ApiReply get = f.get("/v1/approvals/12/decision");
  BOOST_TEST(get.status == 405);
  BOOST_TEST(get.allow == "POST");
  ApiReply del = apiRequest(f.server->port(), "DELETE", "/v1/approvals/12", kManagerToken);
  BOOST_TEST(del.status == 405);
  BOOST_TEST(f.book.calls == 0);
  BOOST_TEST(f.refusals.events().size() == 10u);
  BOOST_TEST(f.refusals.events().back().reason == "method DELETE not allowed");
}

BOOST_AUTO_TEST_CASE(badQueriesAndBodiesAre400NamingTheProblemAndChangeNothing) {
  Fixture f;
  ApiReply query = f.get("/v1/approvals?state=mine");
  BOOST_TEST(query.status == 400);
  BOOST_TEST(query.error() == "query: expected state=pending or state=all");
  BOOST_TEST(f.get("/v1/approvals/12?x=1").status == 400);
  struct Case {
    std::string body;
    std::string error;
  };
  const Case cases[] = {
      {"", "invalid JSON at byte 0: unexpected end of input, expected a value"},
      {"[]", "the body is not a JSON object"},
      {R"({"remark":"ok"})", "decision: missing"},
      {R"({"decision":"maybe"})", "decision: 'maybe' is not one of approve, deny"},
      {R"({"decision":true})", "decision: not a string"},
      {R"({"decision":"approve","remark":7})", "remark: not a string"},
      {R"({"decision":"approve","remark":"a\nb"})", "remark: control characters are not allowed"},
      {R"({"decision":"approve","remark":")" + std::string(501, 'x') + R"("})",
       "remark: longer than 500 bytes"},
      {R"({"decision":"approve","by":"p-kwame"})", "unknown field 'by'"},
      {R"({"decision":"deny","reason":"RUDE"})",
       "reason: 'RUDE' is not one of BAD_TIMING, TONE, WRONG_FACTS, WRONG_JUDGMENT"},
      {R"({"decision":"deny","reason":3})", "reason: not a string"},
      {R"({"decision":"approve","reason":"TONE"})",
       "reason: only with a deny (it says what was wrong with the proposal)"},
      {R"({"decision":"approve","decision":"deny"})",
       "invalid JSON at byte 22: duplicate key \"decision\""},
  };
  for (const Case& c : cases) {
    BOOST_TEST_CONTEXT(c.body) {
      ApiReply r = f.decide(12, c.body);
      BOOST_TEST(r.status == 400);
      BOOST_TEST(r.error() == c.error);
    }
  }
  ApiReply big =
      f.decide(12, R"({"decision":"approve","remark":")" + std::string(2000, 'x') + R"("})");
  BOOST_TEST(big.status == 413);
  BOOST_TEST(f.book.decisions == 0);
  BOOST_TEST((f.book.approvals.at(12).row.state == ApprovalState::kPending));
  const auto events = f.refusals.events();
  BOOST_TEST(events.size() == 2u + std::size(cases) + 1u);
  BOOST_TEST(events.back().httpStatus == 413);
  BOOST_TEST(events.back().person == "p-kwame");
}

BOOST_AUTO_TEST_CASE(aDenialCarriesTheOverrideReasonToTheBook) {
  Fixture f;
  ApiReply r = f.decide(12, R"({"decision":"deny","reason":"WRONG_JUDGMENT","remark":"not her"})");
  BOOST_TEST_REQUIRE(r.status == 200, r.body);
  BOOST_TEST(r.object().at("outcome").asString() == "denied");
  BOOST_TEST_REQUIRE(f.book.lastOverride.has_value());
  BOOST_TEST((*f.book.lastOverride == policy::OverrideReason::kWrongJudgment));
}

BOOST_AUTO_TEST_CASE(aDecisionIsAnsweredWithItsOutcomeAndTheApprovalAsItNowStands) {
  Fixture f;
  ApiReply r = f.decide(12, R"({"decision":"approve","remark":"ok, once"})");
  BOOST_TEST_REQUIRE(r.status == 200, r.body);
  BOOST_TEST(r.object().at("outcome").asString() == "approved");
  BOOST_TEST(r.object().at("message").asString() == "Approval recorded.");
  const json::Object& a = r.object().at("approval").asObject();
  BOOST_TEST(a.at("state").asString() == "approved");
  BOOST_TEST(a.at("decidedBy").asString() == "p-kwame");
  BOOST_TEST(a.at("remark").asString() == "ok, once");
  // Decided: a second decision is a conflict, reported for the audit.
  ApiReply again = f.decide(12, R"({"decision":"deny"})");
  BOOST_TEST(again.status == 409);
  BOOST_TEST(again.error() == "approval 12 was approved already");
  BOOST_TEST(again.object().at("approval").asObject().at("state").asString() == "approved");
  BOOST_TEST(f.decide(99, R"({"decision":"deny"})").status == 404);
  BOOST_TEST(f.get("/v1/approvals/99").status == 404);
  const auto events = f.refusals.events();
  BOOST_TEST_REQUIRE(events.size() == 3u);
  BOOST_TEST(events[0].httpStatus == 409);
  BOOST_TEST(events[0].reason == "approval 12 was approved already");
  BOOST_TEST(events[1].reason == "no approval 99");
}

BOOST_AUTO_TEST_CASE(theDesksRefusalsAre403AndLeftToTheDesksOwnAudit) {
  Fixture f;
  ApiReply self = f.decide(12, R"({"decision":"approve"})", kCookToken);
  BOOST_TEST(self.status == 403);
  BOOST_TEST(self.error() == "approval 12 is about you: your manager of record decides it");
  BOOST_TEST(self.object().at("outcome").asString() == "refused_self_approval");
  BOOST_TEST((f.book.approvals.at(12).row.state == ApprovalState::kPending));
  BOOST_TEST(f.refusals.events().empty());  // the desk wrote approval.refused itself
  // A token whose person is not on the site never reaches the desk.
  ApiReply gone = f.decide(12, R"({"decision":"approve"})", kGoneToken);
  BOOST_TEST(gone.status == 403);
  BOOST_TEST(gone.error() == "the token's person is not a person of this site");
  BOOST_TEST(f.book.decisions == 1);
  BOOST_TEST_REQUIRE(f.refusals.events().size() == 1u);
  BOOST_TEST(f.refusals.events()[0].person == "p-gone");
}

BOOST_AUTO_TEST_CASE(noBookOrAFailingStoreIs503WithRetryAfter) {
  Fixture f;
  f.withBook = false;
  ApiReply none = f.get("/v1/approvals");
  BOOST_TEST(none.status == 503);
  BOOST_TEST(none.retryAfter == "5");
  BOOST_TEST(none.error() == "approvals are not available: call-outs are off on this box");
  f.withBook = true;
  f.book.failDecisions = true;
  ApiReply failed = f.decide(12, R"({"decision":"approve"})");
  BOOST_TEST(failed.status == 503);
  BOOST_TEST(failed.error() == "the box could not record the decision; try again");
  const auto events = f.refusals.events();
  BOOST_TEST_REQUIRE(events.size() == 2u);
  BOOST_TEST(events[1].reason == "store: disk I/O error");
}

BOOST_AUTO_TEST_CASE(aRequestTheEngineDoesNotTakeUpInTimeIs503AndNeverRunsLater) {
  Fixture f;
  f.writer.mode = FakeEngine::Mode::kHold;
  ApiReply busy = f.decide(12, R"({"decision":"approve"})");
  BOOST_TEST(busy.status == 503);
  BOOST_TEST(busy.error() == "the box is busy; nothing was done, try again");
  BOOST_TEST(f.writer.held() == 1u);
  f.writer.release();  // the engine gets to it after the client was told "not done"
  BOOST_TEST(f.book.calls == 0);
  BOOST_TEST((f.book.approvals.at(12).row.state == ApprovalState::kPending));
  f.writer.mode = FakeEngine::Mode::kRefuse;
  ApiReply stopping = f.get("/v1/approvals");
  BOOST_TEST(stopping.status == 503);
  BOOST_TEST(stopping.error() == "the box is stopping; nothing was done, try again");
  f.writer.mode = FakeEngine::Mode::kInline;
  BOOST_TEST(f.decide(12, R"({"decision":"approve"})").status == 200);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::api
