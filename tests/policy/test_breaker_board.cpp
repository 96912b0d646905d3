#include <boost/test/unit_test.hpp>
// BreakerBoard (domain/policy/breaker_board.h) over a real store: the breakers survive a reopen
// (state, since, probe progress and the signals still counting towards a threshold), every
// transition is audited with its reason in the transaction of its row, acknowledgements by an
// automated process or too early are refused and audited, and bad input changes nothing.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "domain/policy/breaker_board.h"
#include "store/site_store.h"
#include "store/state_dir.h"
#include "tests/policy/policy_test_util.h"
#include "tests/support/audit_entries.h"
#include "tests/support/fields.h"
#include "tests/support/temp_dir.h"

using namespace atoms;
using namespace atoms::policy;
using namespace std::chrono_literals;

namespace {

using atoms::testing::kT0;

// The SMS provider has no heartbeat (a quiet night is not an outage): no staleness, as in serve.
std::vector<BreakerConfig> siteBreakers() {
  BreakerConfig sms = connectionBreakerConfig("twilio");
  sms.staleAfter.reset();
  return {outreachBreakerConfig(2), scheduleBreakerConfig(), sms};
}

struct BoardBox {
  BoardBox() {
    Status made = initStateDir(dir, InitOptions{"site-a"});
    BOOST_REQUIRE_MESSAGE(made, made.message());
    reopen(kT0);
  }
  void reopen(TimePoint now) {
    board.reset();
    store.reset();
    auto opened = SiteStore::open(dir);
    BOOST_REQUIRE_MESSAGE(opened, opened.message());
    store = std::move(*opened);
    auto b = BreakerBoard::open(store->log(), store->db(), siteBreakers(), now);
    BOOST_REQUIRE_MESSAGE(b, b.message());
    board = std::move(*b);
  }
  std::vector<Entry> entries(std::string_view kind) {
    auto found = testing::entriesOfKind(store->log(), kind);
    BOOST_REQUIRE_MESSAGE(found.ok(), found.message());
    return *found;
  }
  BreakerView view(std::string_view id, TimePoint at) {
    for (const BreakerView& v : board->list(at)) {
      if (v.id == id) return v;
    }
    BOOST_FAIL("no breaker " << id);
    return {};
  }
  std::string state(std::string_view id, TimePoint at) {
    return breakerStateName(view(id, at).state);
  }
  BreakerBoard::Events ok(Result<BreakerBoard::Events> r) {
    BOOST_REQUIRE_MESSAGE(r.ok(), r.message());
    return *r;
  }

  testing::TempDir tmp;
  std::string dir = tmp.sub("state");
  std::unique_ptr<SiteStore> store;
  std::unique_ptr<BreakerBoard> board;
};

using atoms::testing::field;

const BreakerAcker kPanelAcker{"panel:ana", false};

}  // namespace

BOOST_AUTO_TEST_SUITE(breaker_board)

BOOST_AUTO_TEST_CASE(aTripIsAuditedWithItsReasonAndSurvivesAReopen) {
  BoardBox box;
  std::vector<BreakerEvent> heard;
  box.board->setOnChange([&](const BreakerEvent& e) { heard.push_back(e); });
  for (int i = 0; i < 4; ++i) {
    BOOST_TEST(
        box.ok(box.board->recordFailure("BRK-CONN-twilio", kT0 + i * 1s, "sms", "503")).empty());
  }
  auto opened = box.ok(box.board->recordFailure("BRK-CONN-twilio", kT0 + 4s, "sms", "503"));
  BOOST_REQUIRE_EQUAL(opened.size(), 1u);
  BOOST_REQUIRE_EQUAL(heard.size(), 1u);
  BOOST_TEST(box.board->openBreakers() == std::set<std::string>{"BRK-CONN-twilio"});
  auto changed = box.entries("breaker.changed");
  BOOST_REQUIRE_EQUAL(changed.size(), 1u);
  BOOST_TEST(changed[0].actor == "sms");
  BOOST_TEST(field(changed[0], "breaker") == "BRK-CONN-twilio");
  BOOST_TEST(field(changed[0], "from") == "closed");
  BOOST_TEST(field(changed[0], "to") == "open");
  BOOST_TEST(field(changed[0], "reason") == "error rate 5/5 > 20% over 300 s");

  // A restart neither closes it nor moves its since; the cooldown runs from the trip.
  box.reopen(kT0 + 10min);
  BOOST_TEST(box.state("BRK-CONN-twilio", kT0 + 10min) == "open");
  BOOST_TEST((box.view("BRK-CONN-twilio", kT0 + 10min).since == kT0 + 4s));
  BOOST_TEST(box.view("BRK-CONN-twilio", kT0 + 10min).reason == "error rate 5/5 > 20% over 300 s");
  BOOST_TEST(box.ok(box.board->tick(kT0 + 29min)).empty());
  auto half = box.ok(box.board->tick(kT0 + 31min));
  BOOST_REQUIRE_EQUAL(half.size(), 1u);
  BOOST_TEST(box.state("BRK-CONN-twilio", kT0 + 31min) == "half-open");
  BOOST_TEST(box.board->isOpen("BRK-CONN-twilio"));  // half-open still clamps
  BOOST_TEST(box.entries("breaker.changed").size() == 2u);
}

BOOST_AUTO_TEST_CASE(signalsStillInTheirWindowCountAfterAReopen) {
  BoardBox box;
  box.ok(box.board->recordSignal("BRK-OUT", kT0, "sms", kSignalStopReply));
  box.ok(box.board->recordSignal("BRK-OUT", kT0 + 1h, "sms", kSignalStopReply));
  box.reopen(kT0 + 2h);
  BOOST_TEST(box.state("BRK-OUT", kT0 + 2h) == "closed");
  auto third = box.ok(box.board->recordSignal("BRK-OUT", kT0 + 3h, "sms", kSignalStopReply));
  BOOST_REQUIRE_EQUAL(third.size(), 1u);
  BOOST_TEST(third[0].reason == "outreach.stop_reply 3 >= 3 over 86400 s");
  BOOST_TEST(box.board->openBreakers() == std::set<std::string>{"BRK-OUT"});
}

BOOST_AUTO_TEST_CASE(probeProgressSurvivesAReopen) {
  BoardBox box;
  box.ok(box.board->trip("BRK-SCH", kT0, "engine", "labor violation reached act"));
  box.ok(box.board->tick(kT0 + 24h));  // the violation signal is explicit: nothing to wait out
  BOOST_REQUIRE(box.state("BRK-SCH", kT0 + 24h) == "half-open");
  for (int i = 0; i < 7; ++i) box.ok(box.board->recordSuccess("BRK-SCH", kT0 + 25h, "engine"));
  box.reopen(kT0 + 26h);
  BOOST_TEST(box.view("BRK-SCH", kT0 + 26h).cleanProbes == 7);
  BOOST_TEST(box.view("BRK-SCH", kT0 + 26h).probeDecisions == 20);
}

BOOST_AUTO_TEST_CASE(anAcknowledgementNeedsAPersonAndACleanWindowAndIsAuditedBothWays) {
  BoardBox box;
  box.ok(box.board->trip("BRK-OUT", kT0, "engine", "reply rate down 45% week over week"));
  box.ok(box.board->tick(kT0 + 12h));
  BOOST_REQUIRE(box.state("BRK-OUT", kT0 + 12h) == "half-open");

  auto automated = box.board->acknowledge("BRK-OUT", kT0 + 13h, {"engine", true});
  BOOST_REQUIRE(!automated.ok());
  BOOST_TEST(automated.message() ==
             "an automated process cannot acknowledge BRK-OUT; a person must");
  auto early = box.board->acknowledge("BRK-OUT", kT0 + 13h, kPanelAcker);
  BOOST_REQUIRE(!early.ok());
  BOOST_TEST(early.message().find("probe window not yet clean") != std::string::npos);
  BOOST_TEST(box.state("BRK-OUT", kT0 + 13h) == "half-open");
  auto refused = box.entries("breaker.ack_refused");
  BOOST_REQUIRE_EQUAL(refused.size(), 2u);
  BOOST_TEST(refused[0].actor == "engine");
  BOOST_TEST(refused[0].body.find("automated")->asBool());
  BOOST_TEST(field(refused[1], "by") == "panel:ana");
  BOOST_TEST(field(refused[1], "reason") == early.message());

  BOOST_TEST(box.view("BRK-OUT", kT0 + 61h).awaitingAck);
  box.reopen(kT0 + 61h);  // waiting for the person survives a restart too
  BOOST_TEST(box.view("BRK-OUT", kT0 + 61h).awaitingAck);
  auto closed = box.board->acknowledge("BRK-OUT", kT0 + 61h, kPanelAcker);
  BOOST_REQUIRE_MESSAGE(closed.ok(), closed.message());
  BOOST_TEST(box.board->openBreakers().empty());
  auto changed = box.entries("breaker.changed");
  BOOST_REQUIRE_EQUAL(changed.size(), 3u);
  BOOST_TEST(changed[2].actor == "panel:ana");
  BOOST_TEST(field(changed[2], "to") == "closed");
  BOOST_TEST(field(changed[2], "by") == "panel:ana");
  box.reopen(kT0 + 62h);
  BOOST_TEST(box.state("BRK-OUT", kT0 + 62h) == "closed");
}

BOOST_AUTO_TEST_CASE(badInputIsRefusedAndChangesNothing) {
  BoardBox box;
  const std::uint64_t before = box.store->log().size();
  auto unknown = box.board->recordFailure("BRK-CONN-pos", kT0, "sms", "x");
  BOOST_REQUIRE(!unknown.ok());
  BOOST_TEST(unknown.message() == "no breaker BRK-CONN-pos on this site");
  auto unwatched = box.board->recordSignal("BRK-SCH", kT0, "sms", kSignalStopReply);
  BOOST_REQUIRE(!unwatched.ok());
  BOOST_TEST(unwatched.message() == "BRK-SCH does not watch signal \"outreach.stop_reply\"");
  BOOST_TEST(!box.board->acknowledge("BRK-NOPE", kT0, kPanelAcker).ok());
  BOOST_TEST(!box.board->acknowledge("BRK-OUT", kT0, {"\xff", false}).ok());
  BOOST_TEST(box.store->log().size() == before);
  auto twice = BreakerBoard::open(box.store->log(), box.store->db(),
                                  {scheduleBreakerConfig(), scheduleBreakerConfig()}, kT0);
  BOOST_REQUIRE(!twice.ok());
  BOOST_TEST(twice.message() == "breaker BRK-SCH is configured twice");
}

BOOST_AUTO_TEST_CASE(aRowThatDoesNotParseIsNamed) {
  BoardBox box;
  box.ok(box.board->recordSignal("BRK-OUT", kT0, "sms", kSignalOutreachSent));
  auto broken = box.store->db().exec("UPDATE breaker SET state_json = '{\"state\":\"ajar\"}'");
  BOOST_REQUIRE(broken.ok());
  auto b = BreakerBoard::open(box.store->log(), box.store->db(), siteBreakers(), kT0);
  BOOST_REQUIRE(!b.ok());
  BOOST_TEST(b.message().find("breaker BRK-OUT state") == 0);
}

BOOST_AUTO_TEST_CASE(theTripHookRunsInTheTripsTransactionAndItsFailureUndoesTheTrip) {
  BoardBox box;
  std::vector<std::string> trips;
  bool fail = true;
  box.board->setOnTrip([&](AuditLog::Batch& batch, const BreakerEvent& e) -> Status {
    trips.push_back(e.breaker);
    if (fail) return makeError("trust store unavailable");
    auto seq = batch.add(formatTimestamp(e.at), "test.trip", "engine", json::Object{});
    if (!seq) return seq.error();
    return Status::success();
  });
  auto failed = box.board->trip("BRK-SCH", kT0, "engine", "labor violation reached act");
  BOOST_REQUIRE(!failed.ok());
  BOOST_TEST(failed.message() == "trust store unavailable");
  BOOST_TEST(box.board->openBreakers().empty());
  BOOST_TEST(box.entries("breaker.changed").empty());
  fail = false;
  box.ok(box.board->trip("BRK-SCH", kT0, "engine", "labor violation reached act"));
  BOOST_TEST(trips == (std::vector<std::string>{"BRK-SCH", "BRK-SCH"}));
  BOOST_TEST(box.entries("breaker.changed").size() == 1u);
  BOOST_TEST(box.entries("test.trip").size() == 1u);
  box.ok(box.board->tick(kT0 + 24h));  // half-open is not a trip
  BOOST_TEST(trips.size() == 2u);
}

BOOST_AUTO_TEST_CASE(reconfiguringKeepsTheStateAndTheSignals) {
  BoardBox box;
  for (int i = 0; i < 8; ++i) {
    box.ok(box.board->recordSignal("BRK-OUT", kT0 + i * 1min, "sms", kSignalOutreachSent));
  }
  BOOST_TEST(box.state("BRK-OUT", kT0 + 8min) == "closed");              // 2 people: trips at 9
  BOOST_REQUIRE(box.board->reconfigure(outreachBreakerConfig(1)).ok());  // trips at 5
  auto opened = box.ok(box.board->tick(kT0 + 9min));
  BOOST_REQUIRE_EQUAL(opened.size(), 1u);
  BOOST_TEST(opened[0].reason == "outreach.sent 8 >= 5 over 86400 s");
  BOOST_TEST(!box.board->reconfigure(connectionBreakerConfig("pos")).ok());
}

// Seed 001 EC-RISK-006: an incident restarts the probe window of every half-open breaker (and
// only those), audited with its reason, and the restart survives a reopen.
BOOST_AUTO_TEST_CASE(anIncidentRestartsEveryHalfOpenProbeWindowAudited) {
  BoardBox box;
  auto none = box.board->restartProbes(kT0, "panel:ana", "incident inc-1");
  BOOST_TEST_REQUIRE(none.ok(), none.message());
  BOOST_TEST(none->empty());
  BOOST_TEST(box.entries("breaker.probe_restarted").empty());

  box.ok(box.board->trip("BRK-SCH", kT0, "engine", "fairness warn"));
  box.ok(box.board->trip("BRK-OUT", kT0, "engine", "reply rate down"));
  box.ok(box.board->tick(kT0 + 24h));
  BOOST_REQUIRE(box.state("BRK-SCH", kT0 + 24h) == "half-open");
  BOOST_REQUIRE(box.state("BRK-OUT", kT0 + 24h) == "half-open");
  for (int i = 0; i < 3; ++i) box.ok(box.board->recordSuccess("BRK-SCH", kT0 + 25h, "engine"));
  const std::string reason = "incident inc-7 (SEV2, rituals_comms) during the probe window";
  auto restarted = box.board->restartProbes(kT0 + 26h, "panel:ana", reason);
  BOOST_REQUIRE_MESSAGE(restarted.ok(), restarted.message());
  BOOST_TEST(*restarted == (std::vector<std::string>{"BRK-OUT", "BRK-SCH"}));
  auto audited = box.entries("breaker.probe_restarted");
  BOOST_REQUIRE_EQUAL(audited.size(), 2u);
  BOOST_TEST(field(audited[1], "breaker") == "BRK-SCH");
  BOOST_TEST(field(audited[1], "reason") == reason);
  BOOST_TEST(audited[1].actor == "panel:ana");
  BOOST_TEST(box.entries("breaker.changed").size() == 4u);  // no transition added

  box.reopen(kT0 + 27h);
  BOOST_TEST(box.view("BRK-SCH", kT0 + 27h).cleanProbes == 0);
  BOOST_TEST((box.view("BRK-SCH", kT0 + 27h).since == kT0 + 26h));
  BOOST_TEST(box.state("BRK-CONN-twilio", kT0 + 27h) == "closed");
}

BOOST_AUTO_TEST_SUITE_END()
