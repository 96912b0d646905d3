#include <boost/test/unit_test.hpp>
#include <chrono>
#include <ostream>
#include <string>
#include <vector>

#include "domain/policy/breaker.h"
#include "tests/policy/policy_test_util.h"

using namespace atoms;
using namespace atoms::policy;
using namespace std::chrono_literals;

namespace {

using atoms::testing::kT0;

Breaker make(BreakerConfig config, TimePoint start = kT0) {
  auto b = Breaker::create(std::move(config), start);
  BOOST_REQUIRE_MESSAGE(b.ok(), b.message());
  return std::move(b).value();
}

// A connector breaker without staleness, so only the rule under test can trip it.
BreakerConfig rateOnly() {
  BreakerConfig c = connectionBreakerConfig("sms");
  c.staleAfter.reset();
  return c;
}

std::vector<BreakerEvent> signal(Breaker& b, TimePoint at, std::string_view name) {
  auto r = b.recordSignal(at, name);
  BOOST_REQUIRE_MESSAGE(r.ok(), r.message());
  return *r;
}

// Drives a HalfOpen breaker's probe window clean by decisions.
void cleanProbes(Breaker& b, TimePoint at) {
  for (int i = 0; i < b.config().probeDecisions; ++i) {
    BOOST_REQUIRE_MESSAGE(b.beginProbe(at).ok(), "probe " << i);
    BOOST_REQUIRE(b.recordSuccess(at).empty());
  }
}

const BreakerAcker kPerson{"panel:ana", false};

}  // namespace

BOOST_AUTO_TEST_SUITE(breaker)

BOOST_AUTO_TEST_CASE(shippedConfigsCarryTheSeedParameters) {
  const BreakerConfig out = outreachBreakerConfig(10);
  BOOST_TEST(out.id == "BRK-OUT");
  BOOST_TEST((out.cooldown == std::chrono::seconds(12h)));
  BOOST_REQUIRE_EQUAL(out.counts.size(), 2u);
  BOOST_TEST(out.counts[0].threshold == 41);  // > 4 x 10 per day
  BOOST_TEST(out.counts[1].threshold == 3);   // >= 3 stop-class replies per day
  const BreakerConfig sch = scheduleBreakerConfig();
  BOOST_TEST((sch.cooldown == std::chrono::seconds(24h)));
  BOOST_TEST(sch.humanAckToClose);
  const BreakerConfig conn = connectionBreakerConfig("modem");
  BOOST_TEST(conn.id == "BRK-CONN-modem");
  BOOST_TEST((conn.cooldown == std::chrono::seconds(30min)));
  BOOST_TEST((*conn.staleAfter == std::chrono::seconds(1h)));
  BOOST_TEST(conn.errorRate->maxErrorPercent == 20);
  for (const BreakerConfig& c : {out, sch, conn}) {
    BOOST_TEST(c.probeDecisions == 20);
    BOOST_TEST((c.probeDuration == std::chrono::seconds(48h)));
    BOOST_TEST(validateBreakerConfig(c).ok());
  }
}

BOOST_AUTO_TEST_CASE(rejectsInvalidConfigNamingTheField) {
  struct Case {
    std::string field;
    void (*spoil)(BreakerConfig&);
  };
  const std::vector<Case> cases = {
      {"id is empty", [](BreakerConfig& c) { c.id.clear(); }},
      {"probeDecisions", [](BreakerConfig& c) { c.probeDecisions = 0; }},
      {"probeDuration", [](BreakerConfig& c) { c.probeDuration = 0s; }},
      {"staleAfter", [](BreakerConfig& c) { c.staleAfter = 0s; }},
      {"errorRate.minSamples", [](BreakerConfig& c) { c.errorRate->minSamples = 0; }},
      {"errorRate.maxErrorPercent", [](BreakerConfig& c) { c.errorRate->maxErrorPercent = 100; }},
      {"counts[0].threshold", [](BreakerConfig& c) { c.counts[0].threshold = 0; }},
      {"counts[1].signal repeats", [](BreakerConfig& c) { c.counts.push_back(c.counts[0]); }},
  };
  for (const Case& k : cases) {
    BreakerConfig c = connectionBreakerConfig("pos");
    k.spoil(c);
    auto b = Breaker::create(c, kT0);
    BOOST_TEST_CONTEXT(k.field) {
      BOOST_REQUIRE(!b.ok());
      BOOST_TEST(b.message().find(k.field) != std::string::npos, b.message());
    }
  }
}

BOOST_AUTO_TEST_CASE(fullCycleIsTableDriven) {
  enum class Op { kFail, kSucceed, kTick, kBeginProbe, kAck, kAutoAck, kSignal };
  struct Step {
    std::chrono::seconds offset;
    Op op;
    BreakerState expected;
    bool expectTransition;
  };
  // BRK-SCH: one labor violation at Act trips it; 24 h cooldown; 20 probes; human ack closes.
  BreakerConfig c = scheduleBreakerConfig();
  c.probeDecisions = 2;
  const std::vector<Step> steps = {
      {0s, Op::kSucceed, BreakerState::kClosed, false},
      {5s, Op::kFail, BreakerState::kClosed, false},  // BRK-SCH has no error-rate rule
      {10s, Op::kSignal, BreakerState::kOpen, true},
      {10s + 24h - 1s, Op::kTick, BreakerState::kOpen, false},  // cooldown not over
      // Exactly one cooldown later the violation has also left its (at - 24 h, at] window.
      {10s + 24h, Op::kTick, BreakerState::kHalfOpen, true},
      {12s + 24h, Op::kBeginProbe, BreakerState::kHalfOpen, false},
      {13s + 24h, Op::kSucceed, BreakerState::kHalfOpen, false},
      {14s + 24h, Op::kBeginProbe, BreakerState::kHalfOpen, false},
      {15s + 24h, Op::kSucceed, BreakerState::kHalfOpen, false},  // clean, awaits ack
      {16s + 24h, Op::kAutoAck, BreakerState::kHalfOpen, false},
      {17s + 24h, Op::kAck, BreakerState::kClosed, true},
  };
  Breaker b = make(c);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const Step& s = steps[i];
    const TimePoint at = kT0 + s.offset;
    std::vector<BreakerEvent> events;
    switch (s.op) {
      case Op::kFail:
        events = b.recordFailure(at);
        break;
      case Op::kSucceed:
        events = b.recordSuccess(at);
        break;
      case Op::kTick:
        events = b.tick(at);
        break;
      case Op::kBeginProbe:
        BOOST_TEST(b.beginProbe(at).ok(), "step " << i);
        break;
      case Op::kAck:
        if (auto e = b.acknowledge(at, kPerson); e.ok()) events.push_back(*e);
        break;
      case Op::kAutoAck:
        BOOST_TEST(!b.acknowledge(at, {"auto:watchdog", true}).ok(), "step " << i);
        break;
      case Op::kSignal:
        events = signal(b, at, kSignalLaborViolationAtAct);
        break;
    }
    BOOST_TEST_CONTEXT("step " << i) {
      BOOST_TEST(breakerStateName(b.state()) == breakerStateName(s.expected));
      BOOST_TEST(events.size() == (s.expectTransition ? 1u : 0u));
      if (!events.empty()) {
        BOOST_TEST((events.back().at == at));
        BOOST_TEST(events.back().to == s.expected);
        BOOST_TEST(!events.back().reason.empty());
        BOOST_TEST(events.back().breaker == "BRK-SCH");
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(errorRateTripsOnlyAboveTheRateWithMinimumSamples) {
  // 20 %: 1 failure of 5 samples is exactly the rate and does not trip; 2 of 5 does.
  Breaker exact = make(rateOnly());
  for (int i = 0; i < 4; ++i)
    BOOST_TEST(exact.recordSuccess(kT0 + std::chrono::seconds(i)).empty());
  BOOST_TEST(exact.recordFailure(kT0 + 4s).empty());
  BOOST_TEST(exact.state() == BreakerState::kClosed);

  // Below the minimum sample count even 4 failures out of 4 do not trip.
  Breaker few = make(rateOnly());
  for (int i = 0; i < 4; ++i) BOOST_TEST(few.recordFailure(kT0 + std::chrono::seconds(i)).empty());
  BOOST_TEST(few.state() == BreakerState::kClosed);
  auto events = few.recordSuccess(kT0 + 4s);  // the 5th sample: 4/5 > 20 %
  BOOST_REQUIRE_EQUAL(events.size(), 1u);
  BOOST_TEST(events[0].reason == "error rate 4/5 > 20% over 300 s");
  BOOST_TEST(!few.allows(kT0 + 4s));

  Breaker over = make(rateOnly());
  for (int i = 0; i < 3; ++i) BOOST_TEST(over.recordSuccess(kT0 + std::chrono::seconds(i)).empty());
  BOOST_TEST(over.recordFailure(kT0 + 3s).empty());
  BOOST_TEST(over.recordFailure(kT0 + 4s).size() == 1u);
  BOOST_TEST(over.state() == BreakerState::kOpen);
}

BOOST_AUTO_TEST_CASE(errorRateWindowSlides) {
  Breaker b = make(rateOnly());
  // Two failures, then the window moves past them: they no longer count.
  BOOST_TEST(b.recordFailure(kT0).empty());
  BOOST_TEST(b.recordFailure(kT0 + 1s).empty());
  // At kT0 + 300 s the first failure sits exactly on the open edge of (at - 5 min, at].
  for (int i = 0; i < 3; ++i) BOOST_TEST(b.recordSuccess(kT0 + 300s).empty());
  BOOST_TEST(b.state() == BreakerState::kClosed);   // 1/4 samples: below the minimum
  BOOST_TEST(b.recordSuccess(kT0 + 300s).empty());  // 1/5 = 20 %: not above
  BOOST_TEST(b.state() == BreakerState::kClosed);
  // Inside the window both failures count: the same samples one second earlier trip it.
  Breaker early = make(rateOnly());
  BOOST_TEST(early.recordFailure(kT0).empty());
  BOOST_TEST(early.recordFailure(kT0 + 1s).empty());
  for (int i = 0; i < 2; ++i) BOOST_TEST(early.recordSuccess(kT0 + 299s).empty());
  BOOST_TEST(early.recordSuccess(kT0 + 299s).size() == 1u);
}

BOOST_AUTO_TEST_CASE(countThresholdTripsAtExactlyTheThreshold) {
  Breaker b = make(outreachBreakerConfig(1));
  BOOST_TEST(signal(b, kT0, kSignalStopReply).empty());
  BOOST_TEST(signal(b, kT0 + 1h, kSignalStopReply).empty());
  auto events = signal(b, kT0 + 2h, kSignalStopReply);
  BOOST_REQUIRE_EQUAL(events.size(), 1u);
  BOOST_TEST(events[0].reason == "outreach.stop_reply 3 >= 3 over 86400 s");
  BOOST_TEST(events[0].from == BreakerState::kClosed);
}

BOOST_AUTO_TEST_CASE(outreachVolumeTripsAboveFourPerManagedPerson) {
  const int people = 3;
  Breaker b = make(outreachBreakerConfig(people));
  for (int i = 0; i < 4 * people; ++i) {
    BOOST_TEST(signal(b, kT0 + std::chrono::minutes(i), kSignalOutreachSent).empty());
  }
  BOOST_TEST(b.state() == BreakerState::kClosed);
  BOOST_TEST(signal(b, kT0 + 1h, kSignalOutreachSent).size() == 1u);
}

BOOST_AUTO_TEST_CASE(countWindowSlides) {
  Breaker b = make(scheduleBreakerConfig());
  BOOST_TEST(signal(b, kT0, kSignalSwapReversal).empty());
  BOOST_TEST(signal(b, kT0 + 24h, kSignalSwapReversal).empty());
  // Exactly 7 days after the first, the first has left (at - 7 d, at].
  BOOST_TEST(signal(b, kT0 + 7 * 24h, kSignalSwapReversal).empty());
  BOOST_TEST(b.state() == BreakerState::kClosed);
  BOOST_TEST(signal(b, kT0 + 7 * 24h + 1s, kSignalSwapReversal).size() == 1u);
}

BOOST_AUTO_TEST_CASE(unknownSignalIsRefusedAndChangesNothing) {
  Breaker b = make(scheduleBreakerConfig());
  auto r = b.recordSignal(kT0, "outreach.stop_reply");
  BOOST_REQUIRE(!r.ok());
  BOOST_TEST(r.message() == "BRK-SCH does not watch signal \"outreach.stop_reply\"");
  BOOST_TEST(b.state() == BreakerState::kClosed);
}

BOOST_AUTO_TEST_CASE(stalenessTripsAfterTheLimitAndHeartbeatsKeepItClosed) {
  Breaker b = make(connectionBreakerConfig("pos"));
  BOOST_TEST(b.tick(kT0 + 1h).empty());  // exactly the limit: not stale yet
  BOOST_TEST(b.allows(kT0 + 1h));
  BOOST_TEST(b.recordHeartbeat(kT0 + 1h).empty());
  BOOST_TEST(b.tick(kT0 + 2h).empty());
  BOOST_TEST(!b.allows(kT0 + 2h + 1s));  // answers before the tick records it
  auto events = b.tick(kT0 + 2h + 1s);
  BOOST_REQUIRE_EQUAL(events.size(), 1u);
  BOOST_TEST(events[0].reason.find("stale") == 0u, events[0].reason);
  // Still stale after the cooldown: it stays open until a heartbeat arrives.
  BOOST_TEST(b.tick(kT0 + 4h).empty());
  BOOST_TEST(b.state() == BreakerState::kOpen);
  events = b.recordHeartbeat(kT0 + 4h);
  BOOST_REQUIRE_EQUAL(events.size(), 1u);
  BOOST_TEST(events[0].to == BreakerState::kHalfOpen);
}

BOOST_AUTO_TEST_CASE(cooldownEndsExactlyAtItsLength) {
  Breaker b = make(rateOnly());
  auto events = b.recordSignal(kT0, kSignalAuthFailure);
  BOOST_REQUIRE(events.ok());
  BOOST_TEST(b.state() == BreakerState::kOpen);
  BOOST_TEST(b.tick(kT0 + 30min - 1s).empty());
  // The auth failure stays in its 1 h window, so cause is not below threshold until it leaves.
  BOOST_TEST(b.tick(kT0 + 30min).empty());
  BOOST_TEST(b.tick(kT0 + 1h).size() == 1u);
  BOOST_TEST(b.state() == BreakerState::kHalfOpen);

  Breaker t = make(rateOnly());
  BOOST_TEST(t.trip(kT0, "fairness warn").size() == 1u);
  BOOST_TEST(t.tick(kT0 + 30min - 1s).empty());
  BOOST_TEST(t.tick(kT0 + 30min).size() == 1u);
}

BOOST_AUTO_TEST_CASE(probeFailureReopensAndRestartsTheCooldown) {
  Breaker b = make(rateOnly());
  BOOST_TEST(b.trip(kT0, "auth").size() == 1u);
  BOOST_TEST(b.tick(kT0 + 30min).size() == 1u);
  BOOST_TEST(b.allowProbe(kT0 + 30min));
  BOOST_TEST(!b.allows(kT0 + 30min));
  BOOST_TEST(b.beginProbe(kT0 + 30min).ok());
  auto events = b.recordFailure(kT0 + 31min, "HTTP 503");
  BOOST_REQUIRE_EQUAL(events.size(), 1u);
  BOOST_TEST(events[0].from == BreakerState::kHalfOpen);
  BOOST_TEST(events[0].to == BreakerState::kOpen);
  BOOST_TEST(events[0].reason == "failure during probe: HTTP 503");
  BOOST_TEST(!b.allowProbe(kT0 + 31min));
  BOOST_TEST(b.tick(kT0 + 61min - 1s).empty());
  BOOST_TEST(b.tick(kT0 + 61min).size() == 1u);
  BOOST_TEST(b.probesStarted() == 0);  // a new probe window
}

BOOST_AUTO_TEST_CASE(badSignalDuringProbeReopensButVolumeDoesNot) {
  Breaker b = make(outreachBreakerConfig(5));
  BOOST_TEST(b.trip(kT0, "reply rate down 45% week over week").size() == 1u);
  BOOST_TEST(b.tick(kT0 + 12h).size() == 1u);
  BOOST_TEST(signal(b, kT0 + 13h, kSignalOutreachSent).empty());
  BOOST_TEST(b.state() == BreakerState::kHalfOpen);
  auto events = signal(b, kT0 + 14h, kSignalStopReply);
  BOOST_REQUIRE_EQUAL(events.size(), 1u);
  BOOST_TEST(events[0].reason == "outreach.stop_reply during probe");
}

BOOST_AUTO_TEST_CASE(probeSlotsAreLimited) {
  Breaker b = make(rateOnly());
  BOOST_TEST(b.trip(kT0, "auth").size() == 1u);
  BOOST_TEST(!b.beginProbe(kT0).ok());  // open: no probe
  BOOST_TEST(b.tick(kT0 + 30min).size() == 1u);
  for (int i = 0; i < 20; ++i) BOOST_TEST(b.beginProbe(kT0 + 30min).ok());
  BOOST_TEST(!b.allowProbe(kT0 + 30min));
  Status s = b.beginProbe(kT0 + 30min);
  BOOST_TEST(s.message() == "BRK-CONN-sms: all 20 probe actions have started");
}

BOOST_AUTO_TEST_CASE(humanAckRequiredEvenWhenWindowIsClean) {
  Breaker b = make(scheduleBreakerConfig());
  BOOST_TEST(b.trip(kT0, "fairness warn on hours").size() == 1u);
  BOOST_TEST(b.tick(kT0 + 24h).size() == 1u);
  const TimePoint probing = kT0 + 25h;
  auto early = b.acknowledge(probing, kPerson);
  BOOST_REQUIRE(!early.ok());
  BOOST_TEST(early.message().find("probe window not yet clean (0 of 20") != std::string::npos,
             early.message());
  cleanProbes(b, probing);
  BOOST_TEST(b.state() == BreakerState::kHalfOpen);
  BOOST_TEST(b.awaitingAck(probing));
  BOOST_TEST(b.tick(probing + 100h).empty());  // time alone never closes it
  auto closed = b.acknowledge(probing + 100h, kPerson);
  BOOST_REQUIRE_MESSAGE(closed.ok(), closed.message());
  BOOST_TEST(closed->by == "panel:ana");
  BOOST_TEST(closed->to == BreakerState::kClosed);
  BOOST_TEST(b.allows(probing + 100h));
}

BOOST_AUTO_TEST_CASE(probeWindowIsCleanAfterDurationWithoutDecisions) {
  Breaker b = make(scheduleBreakerConfig());
  BOOST_TEST(b.trip(kT0, "swap reversals").size() == 1u);
  BOOST_TEST(b.tick(kT0 + 24h).size() == 1u);
  BOOST_TEST(!b.acknowledge(kT0 + 72h - 1s, kPerson).ok());
  BOOST_TEST(b.acknowledge(kT0 + 72h, kPerson).ok());
}

BOOST_AUTO_TEST_CASE(automatedAckIsAlwaysRefused) {
  Breaker b = make(scheduleBreakerConfig());
  BOOST_TEST(b.trip(kT0, "x").size() == 1u);
  BOOST_TEST(b.tick(kT0 + 24h).size() == 1u);
  cleanProbes(b, kT0 + 24h);
  auto r = b.acknowledge(kT0 + 24h, {"auto:watchdog", true});
  BOOST_REQUIRE(!r.ok());
  BOOST_TEST(r.message() == "an automated process cannot acknowledge BRK-SCH; a person must");
  BOOST_TEST(!b.acknowledge(kT0 + 24h, {"", false}).ok());
  BOOST_TEST(b.state() == BreakerState::kHalfOpen);
}

BOOST_AUTO_TEST_CASE(ackRefusedWhenNotHalfOpenOrTripSignalPresent) {
  Breaker b = make(connectionBreakerConfig("broker"));
  BOOST_TEST(!b.acknowledge(kT0, kPerson).ok());  // closed
  BOOST_TEST(b.trip(kT0, "x").size() == 1u);
  BOOST_TEST(!b.acknowledge(kT0, kPerson).ok());  // open
  BOOST_TEST(b.recordHeartbeat(kT0 + 30min).size() == 1u);
  BOOST_TEST(b.state() == BreakerState::kHalfOpen);
  // Clean by time, but stale by then: the ack is refused and the next tick re-opens.
  const TimePoint late = kT0 + 30min + 48h;
  auto r = b.acknowledge(late, kPerson);
  BOOST_REQUIRE(!r.ok());
  BOOST_TEST(r.message().find("trip signal is present (stale") != std::string::npos, r.message());
  BOOST_TEST(b.state() == BreakerState::kHalfOpen);
  auto events = b.tick(late);
  BOOST_REQUIRE_EQUAL(events.size(), 1u);
  BOOST_TEST(events[0].to == BreakerState::kOpen);
}

BOOST_AUTO_TEST_CASE(withoutAckRequirementCleanWindowCloses) {
  BreakerConfig c = rateOnly();
  c.humanAckToClose = false;
  Breaker b = make(c);
  BOOST_TEST(b.trip(kT0, "x").size() == 1u);
  BOOST_TEST(b.tick(kT0 + 30min).size() == 1u);
  for (int i = 0; i < 19; ++i) {
    BOOST_TEST(b.beginProbe(kT0 + 31min).ok());
    BOOST_TEST(b.recordSuccess(kT0 + 31min).empty());
  }
  BOOST_TEST(b.beginProbe(kT0 + 31min).ok());
  auto events = b.recordSuccess(kT0 + 31min);
  BOOST_REQUIRE_EQUAL(events.size(), 1u);
  BOOST_TEST(events[0].reason == "probe window clean");
  BOOST_TEST(b.allows(kT0 + 31min));
}

BOOST_AUTO_TEST_CASE(oneCallReturnsEveryTransitionInOrder) {
  BreakerConfig c = rateOnly();
  Breaker b = make(c);
  BOOST_TEST(b.trip(kT0, "x").size() == 1u);
  // Long after the cooldown, a failure: open -> half-open (time) then half-open -> open.
  auto events = b.recordFailure(kT0 + 5h, "timeout");
  BOOST_REQUIRE_EQUAL(events.size(), 2u);
  BOOST_TEST(events[0].to == BreakerState::kHalfOpen);
  BOOST_TEST(events[1].to == BreakerState::kOpen);
  BOOST_TEST(events[1].describe() ==
             "BRK-CONN-sms half-open -> open: failure during probe: timeout");
}

BOOST_AUTO_TEST_CASE(clockSteppingBackDoesNotShortenCooldown) {
  Breaker b = make(rateOnly());
  BOOST_TEST(b.trip(kT0 + 1h, "x").size() == 1u);
  BOOST_TEST(b.tick(kT0).empty());
  BOOST_TEST(b.tick(kT0 + 1h + 30min - 1s).empty());
  BOOST_TEST(b.tick(kT0 + 1h + 30min).size() == 1u);
}

// Seed 001 EC-RISK-006: an incident during the probe window restarts it: no probe started, none
// clean, and the 48 h run from the incident.
BOOST_AUTO_TEST_CASE(anIncidentRestartsTheProbeWindowOfAHalfOpenBreakerOnly) {
  Breaker closed = make(rateOnly());
  BOOST_TEST(!closed.restartProbe(kT0));
  BOOST_TEST(closed.state() == BreakerState::kClosed);

  Breaker b = make(scheduleBreakerConfig());
  BOOST_TEST(b.trip(kT0, "fairness warn").size() == 1u);
  BOOST_TEST(!b.restartProbe(kT0 + 1h));  // open: nothing to restart
  BOOST_TEST(b.tick(kT0 + 24h).size() == 1u);
  for (int i = 0; i < 5; ++i) {
    BOOST_REQUIRE(b.beginProbe(kT0 + 25h).ok());
    BOOST_REQUIRE(b.recordSuccess(kT0 + 25h).empty());
  }
  BOOST_TEST(b.cleanProbes() == 5);
  BOOST_TEST(b.restartProbe(kT0 + 30h));
  BOOST_TEST(b.state() == BreakerState::kHalfOpen);
  BOOST_TEST(b.probesStarted() == 0);
  BOOST_TEST(b.cleanProbes() == 0);
  BOOST_TEST((b.since() == kT0 + 30h));
  // 48 h from the half-open start is no longer clean; 48 h from the incident is.
  BOOST_TEST(!b.probeWindowClean(kT0 + 72h));
  BOOST_TEST(!b.acknowledge(kT0 + 72h, kPerson).ok());
  BOOST_TEST(b.probeWindowClean(kT0 + 78h));
  BOOST_TEST(b.acknowledge(kT0 + 78h, kPerson).ok());
  BOOST_TEST(b.state() == BreakerState::kClosed);
}

BOOST_AUTO_TEST_SUITE_END()
