#include <boost/test/unit_test.hpp>
// TerminalServer and SimulatedTerminal over real HTTP on 127.0.0.1 (port 0): every refusal, the
// outcomes of a stored request, 503 when the sink fails, and retries that are duplicates.
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/StreamCopier.h>

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "drivers/http/bearer_tokens.h"
#include "drivers/terminal/punch_request.h"
#include "drivers/terminal/simulated_terminal.h"
#include "drivers/terminal/terminal_server.h"
#include "tests/support/event_log.h"

namespace atoms::drivers::terminal {
namespace {

using namespace std::chrono;

const std::string kFrontToken = "front-token-5f1c0a9e7d3b2c41";
const std::string kBackToken = "back-token-0e9d8c7b6a594837";
const PunchTime kAt = PunchTime{sys_days{year{2026} / 11 / 30}} + hours{16} + minutes{58};

BearerTokens tokens() {
  return BearerTokens(
      {{"front-1", sha256(asBytes(kFrontToken))}, {"back-1", sha256(asBytes(kBackToken))}});
}

// An in-memory ledger: stores each (terminal, id) once; refuses person "ghost". failNext makes the
// next calls fail before storing; loseAnswers makes them store and then fail, as when the answer
// never reaches the terminal.
class MemorySink final : public PunchSink {
 public:
  Result<std::vector<PunchOutcome>> accept(const PunchBatch& batch) override {
    std::lock_guard lock(mutex_);
    ++calls;
    if (failNext > 0) {
      --failNext;
      return makeError("disk full");
    }
    std::vector<PunchOutcome> outcomes;
    for (const Punch& p : batch.punches) {
      const auto key = std::make_pair(batch.terminal, p.id);
      if (stored.count(key) != 0) {
        outcomes.push_back({p.id, PunchOutcomeKind::kDuplicate, ""});
      } else if (p.person == "ghost") {
        stored.emplace(key, p);
        outcomes.push_back({p.id, PunchOutcomeKind::kRefused, "unknown person"});
      } else {
        stored.emplace(key, p);
        outcomes.push_back({p.id, PunchOutcomeKind::kAccepted, ""});
      }
    }
    if (loseAnswers > 0) {
      --loseAnswers;
      return makeError("stored, but the answer is lost");
    }
    return outcomes;
  }

  std::mutex mutex_;
  int calls = 0;
  int failNext = 0;
  int loseAnswers = 0;
  std::map<std::pair<std::string, std::string>, Punch> stored;
};

struct Raw {
  int status = 0;
  std::string body;
  std::string allow;
};

struct Fixture {
  Fixture() : server(tokens(), sink, options()) {
    Status s = server.start();
    BOOST_REQUIRE_MESSAGE(s, s.message());
    BOOST_REQUIRE(server.port() != 0);
  }
  TerminalServerOptions options() {
    TerminalServerOptions o;
    o.address = "127.0.0.1";
    o.port = 0;
    o.onRefused = refusals.hook();
    return o;
  }
  SimulatedTerminal terminal(const std::string& id, const std::string& token) {
    SimulatedTerminalOptions o;
    o.port = server.port();
    o.terminal = id;
    o.token = token;
    o.backoff = [this](int) { ++backoffs; };
    return SimulatedTerminal(o);
  }
  Raw raw(const std::string& method, const std::string& path, const std::string& body,
          const std::optional<std::string>& authorization) {
    Poco::Net::HTTPClientSession session("127.0.0.1", server.port());
    session.setTimeout(Poco::Timespan(10, 0));
    Poco::Net::HTTPRequest request(method, path, Poco::Net::HTTPMessage::HTTP_1_1);
    if (authorization) request.set("Authorization", *authorization);
    request.setContentType("application/json");
    request.setContentLength(static_cast<std::streamsize>(body.size()));
    session.sendRequest(request) << body;
    Poco::Net::HTTPResponse response;
    std::istream& in = session.receiveResponse(response);
    Raw r;
    Poco::StreamCopier::copyToString(in, r.body);
    r.status = static_cast<int>(response.getStatus());
    r.allow = response.get("Allow", "");
    return r;
  }

  MemorySink sink;
  atoms::testing::EventLog<RefusedPunchRequest> refusals;
  TerminalServer server;
  int backoffs = 0;
};

std::string validBody(const std::string& terminal = "front-1") {
  return encodePunchRequest(
      PunchBatch{terminal, {Punch{"evt-1", "p-12", PunchKind::kClockIn, kAt}}});
}

}  // namespace

BOOST_AUTO_TEST_SUITE(terminal_server)

BOOST_AUTO_TEST_CASE(storedPunchesAreAnsweredWithOneOutcomeEach) {
  Fixture f;
  SimulatedTerminal front = f.terminal("front-1", kFrontToken);
  const std::vector<Punch> punches = {front.punch("p-12", PunchKind::kClockIn, kAt),
                                      front.punch("ghost", PunchKind::kClockIn, kAt),
                                      front.punch("p-7", PunchKind::kBreakStart, kAt + 1s)};
  BOOST_TEST(punches[0].id == "front-1-000001");
  BOOST_TEST(punches[2].id == "front-1-000003");
  PunchReply reply = front.send(punches);
  BOOST_TEST(reply.httpStatus == 200);
  BOOST_TEST(reply.attempts == 1);
  BOOST_TEST(
      (reply.outcomes ==
       std::vector<PunchOutcome>{{"front-1-000001", PunchOutcomeKind::kAccepted, ""},
                                 {"front-1-000002", PunchOutcomeKind::kRefused, "unknown person"},
                                 {"front-1-000003", PunchOutcomeKind::kAccepted, ""}}));
  BOOST_TEST(f.sink.stored.size() == 3u);
  BOOST_TEST((f.sink.stored.at({"front-1", "front-1-000003"}) == punches[2]));
  BOOST_TEST(f.refusals.events().empty());
}

BOOST_AUTO_TEST_CASE(aMissingOrUnknownTokenIs401WithNoDetail) {
  Fixture f;
  for (const std::optional<std::string>& auth : std::vector<std::optional<std::string>>{
           std::nullopt, "Bearer ", "Bearer wrong-token", "Basic " + kFrontToken, kFrontToken}) {
    Raw r = f.raw("POST", "/v1/punches", validBody(), auth);
    BOOST_TEST(r.status == 401);
    BOOST_TEST(r.body == R"({"error":"unauthorized"})");
  }
  BOOST_TEST(f.sink.calls == 0);
  const auto events = f.refusals.events();
  BOOST_REQUIRE(events.size() == 5u);
  BOOST_TEST(events[0].reason == "no bearer token");
  BOOST_TEST(events[2].reason == "unknown token");
  BOOST_TEST(events[2].terminal.empty());
  BOOST_TEST(events[2].httpStatus == 401);
  BOOST_TEST(events[2].path == "/v1/punches");
  BOOST_TEST(events[2].peer.rfind("127.0.0.1:", 0) == 0);
  // The scheme is case-insensitive.
  BOOST_TEST(f.raw("POST", "/v1/punches", validBody(), "bearer " + kFrontToken).status == 200);
}

BOOST_AUTO_TEST_CASE(aTokenForAnotherTerminalIs403) {
  Fixture f;
  Raw r = f.raw("POST", "/v1/punches", validBody("back-1"), "Bearer " + kFrontToken);
  BOOST_TEST(r.status == 403);
  BOOST_TEST(r.body == R"({"error":"the token is not for terminal 'back-1'"})");
  BOOST_TEST(f.sink.calls == 0);
  const auto events = f.refusals.events();
  BOOST_REQUIRE(events.size() == 1u);
  BOOST_TEST(events[0].terminal == "front-1");
  BOOST_TEST(events[0].reason ==
             "the token is terminal 'front-1' but the body says terminal 'back-1'");
}

BOOST_AUTO_TEST_CASE(aBadBodyIs400WithTheOneLineError) {
  Fixture f;
  SimulatedTerminal front = f.terminal("front-1", kFrontToken);
  PunchReply reply =
      front.sendBody(R"({"terminal":"front-1","punches":[{"id":"e","person":"p","kind":"clockin",)"
                     R"("at":"2026-11-30T16:58:03Z"}]})");
  BOOST_TEST(reply.httpStatus == 400);
  BOOST_TEST(reply.attempts == 1);  // a 400 is not retried
  BOOST_TEST(reply.error ==
             "punches[0].kind: 'clockin' is not one of clock_in, clock_out, break_start, "
             "break_end");
  BOOST_TEST(f.sink.calls == 0);
  const auto events = f.refusals.events();
  BOOST_REQUIRE(events.size() == 1u);
  BOOST_TEST(events[0].httpStatus == 400);
  BOOST_TEST(events[0].reason == reply.error);
  BOOST_TEST(events[0].terminal == "front-1");
}

BOOST_AUTO_TEST_CASE(aBodyOverTheLimitIs413) {
  Fixture f;
  // Only the headers are sent: the server refuses on the declared length without reading the
  // body, and a client still writing a body the server will not read could see the connection
  // reset before the answer (a race the test must not depend on).
  Poco::Net::HTTPClientSession session("127.0.0.1", f.server.port());
  session.setTimeout(Poco::Timespan(10, 0));
  Poco::Net::HTTPRequest request("POST", "/v1/punches", Poco::Net::HTTPMessage::HTTP_1_1);
  request.set("Authorization", "Bearer " + kFrontToken);
  request.setContentType("application/json");
  request.setContentLength(static_cast<std::streamsize>(kMaxRequestBytes + 1));
  session.sendRequest(request).flush();
  Poco::Net::HTTPResponse response;
  std::string body;
  Poco::StreamCopier::copyToString(session.receiveResponse(response), body);
  BOOST_TEST(static_cast<int>(response.getStatus()) == 413);
  BOOST_TEST(f.sink.calls == 0);
  const auto events = f.refusals.events();
  BOOST_REQUIRE(events.size() == 1u);
  BOOST_TEST(events[0].reason == "body over the limit of 262144 bytes");
}

BOOST_AUTO_TEST_CASE(otherPathsAre404AndOtherMethods405) {
  Fixture f;
  Raw notFound = f.raw("POST", "/v1/punch", validBody(), "Bearer " + kFrontToken);
  BOOST_TEST(notFound.status == 404);
  Raw get = f.raw("GET", "/v1/punches", "", "Bearer " + kFrontToken);
  BOOST_TEST(get.status == 405);
  BOOST_TEST(get.allow == "POST");
  // Neither says anything about tokens: the path and method are checked first.
  BOOST_TEST(f.raw("GET", "/", "", std::nullopt).status == 404);
  BOOST_TEST(f.sink.calls == 0);
  const auto events = f.refusals.events();
  BOOST_REQUIRE(events.size() == 3u);
  BOOST_TEST(events[0].httpStatus == 404);
  BOOST_TEST(events[0].path == "/v1/punch");
  BOOST_TEST(events[1].reason == "method GET not allowed");
}

BOOST_AUTO_TEST_CASE(aFailingSinkIs503AndTheTerminalRetriesUntilStored) {
  Fixture f;
  f.sink.failNext = 2;
  SimulatedTerminal front = f.terminal("front-1", kFrontToken);
  PunchReply reply = front.send({front.punch("p-12", PunchKind::kClockIn, kAt)});
  BOOST_TEST(reply.httpStatus == 200);
  BOOST_TEST(reply.attempts == 3);
  BOOST_TEST(f.backoffs == 2);
  BOOST_TEST((reply.outcomes ==
              std::vector<PunchOutcome>{{"front-1-000001", PunchOutcomeKind::kAccepted, ""}}));
  const auto events = f.refusals.events();
  BOOST_REQUIRE(events.size() == 2u);
  BOOST_TEST(events[0].httpStatus == 503);
  BOOST_TEST(events[0].reason == "not stored: disk full");
}

BOOST_AUTO_TEST_CASE(aTerminalGivesUpAfterItsAttempts) {
  Fixture f;
  f.sink.failNext = 100;
  SimulatedTerminal front = f.terminal("front-1", kFrontToken);
  PunchReply reply = front.send({front.punch("p-12", PunchKind::kClockIn, kAt)});
  BOOST_TEST(reply.httpStatus == 503);
  BOOST_TEST(reply.attempts == 5);
  BOOST_TEST(reply.error == "not stored, try again");
  BOOST_TEST(f.sink.stored.empty());
}

BOOST_AUTO_TEST_CASE(aRetryAfterALostAnswerIsADuplicateNeverASecondPunch) {
  Fixture f;
  f.sink.loseAnswers = 1;
  SimulatedTerminal front = f.terminal("front-1", kFrontToken);
  PunchReply reply = front.send({front.punch("p-12", PunchKind::kClockIn, kAt),
                                 front.punch("p-7", PunchKind::kClockIn, kAt)});
  BOOST_TEST(reply.httpStatus == 200);
  BOOST_TEST(reply.attempts == 2);
  BOOST_TEST((reply.outcomes ==
              std::vector<PunchOutcome>{{"front-1-000001", PunchOutcomeKind::kDuplicate, ""},
                                        {"front-1-000002", PunchOutcomeKind::kDuplicate, ""}}));
  BOOST_TEST(f.sink.stored.size() == 2u);
}

BOOST_AUTO_TEST_CASE(anUnreachableServerIsRetriedThenReported) {
  std::uint16_t port = 0;
  {
    Fixture f;
    port = f.server.port();
  }  // stopped: nothing listens there now
  SimulatedTerminalOptions o;
  o.port = port;
  o.terminal = "front-1";
  o.token = kFrontToken;
  o.attempts = 3;
  int backoffs = 0;
  o.backoff = [&](int) { ++backoffs; };
  SimulatedTerminal front(o);
  PunchReply reply = front.send({front.punch("p-12", PunchKind::kClockIn, kAt)});
  BOOST_TEST(reply.httpStatus == 0);
  BOOST_TEST(reply.attempts == 3);
  BOOST_TEST(backoffs == 2);
  BOOST_TEST(!reply.error.empty());
}

BOOST_AUTO_TEST_CASE(twoTerminalsMayUseTheSameEventIds) {
  Fixture f;
  SimulatedTerminal front = f.terminal("front-1", kFrontToken);
  SimulatedTerminal back = f.terminal("back-1", kBackToken);
  Punch a = front.punch("p-12", PunchKind::kClockIn, kAt);
  Punch b = a;
  BOOST_TEST((front.send({a}).outcomes.at(0).outcome == PunchOutcomeKind::kAccepted));
  BOOST_TEST((back.send({b}).outcomes.at(0).outcome == PunchOutcomeKind::kAccepted));
  BOOST_TEST(f.sink.stored.size() == 2u);
}

BOOST_AUTO_TEST_CASE(stopMeansTheSinkIsNeverCalledAgain) {
  Fixture f;
  SimulatedTerminal front = f.terminal("front-1", kFrontToken);
  BOOST_TEST(front.send({front.punch("p-12", PunchKind::kClockIn, kAt)}).httpStatus == 200);
  f.server.stop();
  SimulatedTerminalOptions o = front.options();
  o.attempts = 1;
  SimulatedTerminal late(o);
  BOOST_TEST(late.send({late.punch("p-12", PunchKind::kClockOut, kAt + 1h)}).httpStatus == 0);
  BOOST_TEST(f.sink.calls == 1);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::drivers::terminal
