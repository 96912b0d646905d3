#include <boost/test/unit_test.hpp>

// The silent-stall watchdog (daemon/engine/stall_watchdog.h, seed 001 RISK-09) on a simulated
// clock: a deliberately blocked engine is noticed by the watchdog's own thread and escalated by
// direct SMS (daemon/service/direct_escalation.h) while the engine is still stuck, once an hour;
// the audit waits for the engine; approvals past expiry and packets and safety incidents older
// than twice their SLA are escalated from the facts the engine last published.
#include <Poco/AutoPtr.h>
#include <Poco/Logger.h>

#include <chrono>
#include <future>
#include <mutex>
#include <string>
#include <vector>

#include "base/clock.h"
#include "daemon/engine/engine.h"
#include "daemon/engine/stall_watchdog.h"
#include "daemon/service/direct_escalation.h"
#include "drivers/sms/simulated/simulated_gateway.h"
#include "sms/text/content_lint.h"
#include "tests/daemon/helpers.h"

using namespace atoms;
using namespace std::chrono_literals;

namespace {

constexpr auto kWatchdogDeadline = 10s;
constexpr char kContact[] = "+15550100200";
constexpr char kManager[] = "+15550100300";

TimePoint t0() { return TimePoint(std::chrono::seconds(1'800'000'000)); }

Poco::Logger& quietLogger(const std::string& name) {
  Poco::Logger& logger = Poco::Logger::get(name);
  logger.setChannel(new test::CaptureChannel);
  return logger;
}

// Things the audit callback recorded, once the engine ran them.
struct Audited {
  std::mutex mutex;
  std::vector<std::string> keys;
  std::size_t size() {
    std::lock_guard lock(mutex);
    return keys.size();
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(stall_watchdog)

BOOST_AUTO_TEST_CASE(aBlockedEngineIsEscalatedByDirectSmsOnceAnHourAndAuditedWhenItRecovers) {
  SimulatedClock clock(t0());
  Poco::Logger& logger = quietLogger("test.watchdog.engine");
  Engine engine(clock, logger);
  drivers::SimulatedSmsGateway gateway;
  Audited audited;
  StallWatchdogOptions options;
  options.site = "Bistro Maree";
  StallWatchdog dog(clock, logger, options,
                    directSmsEscalation(gateway, {kContact, kManager}, clock, logger),
                    [&engine, &audited](const Stall& stall) {
                      // As the service does: the store belongs to the engine, so the audit waits
                      // for it.
                      (void)engine.post([&audited, key = stall.key] {
                        std::lock_guard lock(audited.mutex);
                        audited.keys.push_back(key);
                      });
                    });

  // The engine's heartbeat: a timer every minute that calls beat().
  std::function<void()> arm = [&] {
    dog.beat(clock.now());
    engine.schedule(clock.now() + 60s, arm);
  };
  engine.start();
  BOOST_REQUIRE(engine.post(arm));
  BOOST_REQUIRE(engine.drain(kWatchdogDeadline));
  dog.start();
  for (int i = 0; i < 5; ++i) {
    clock.advance(60s);
    BOOST_REQUIRE(engine.drain(kWatchdogDeadline));
    BOOST_REQUIRE(dog.waitUntilChecked(clock.now(), kWatchdogDeadline));
  }
  BOOST_TEST(gateway.transmissions().empty());

  // Block the engine thread, deliberately.
  std::promise<void> started;
  std::promise<void> release;
  std::shared_future<void> gate = release.get_future().share();
  BOOST_REQUIRE(engine.post([&started, gate] {
    started.set_value();
    (void)gate.wait_for(30s);  // bounded, so a failing test cannot hang
  }));
  BOOST_REQUIRE(started.get_future().wait_for(kWatchdogDeadline) == std::future_status::ready);

  clock.advance(12min);  // the engine's timers cannot fire
  BOOST_REQUIRE(dog.waitUntilChecked(clock.now(), kWatchdogDeadline));
  BOOST_REQUIRE(gateway.waitForTransmissions(2, kWatchdogDeadline));
  const auto sent = gateway.transmissions();
  BOOST_REQUIRE_EQUAL(sent.size(), 2u);
  BOOST_TEST(sent[0].message.to == kContact);
  BOOST_TEST(sent[1].message.to == kManager);
  BOOST_TEST(sent[0].message.urgent);
  BOOST_TEST(sent[0].message.body ==
             "Bistro Maree box: the scheduling engine has not run for 12 minutes, so texts and "
             "reminders may be stuck. Please restart the box or call your support contact.");
  BOOST_TEST(sms::ContentLint().check(sent[0].message.body).empty());
  BOOST_TEST(audited.size() == 0u);  // still stuck: the audit waits for the engine

  clock.advance(30min);
  BOOST_REQUIRE(dog.waitUntilChecked(clock.now(), kWatchdogDeadline));
  BOOST_TEST(gateway.transmissions().size() == 2u);  // not again within the hour
  clock.advance(31min);
  BOOST_REQUIRE(dog.waitUntilChecked(clock.now(), kWatchdogDeadline));
  BOOST_REQUIRE(gateway.waitForTransmissions(4, kWatchdogDeadline));
  BOOST_TEST(gateway.transmissions()[2].message.body.find("has not run for 73 minutes") !=
             std::string::npos);

  // The engine recovers: the audits run, the heartbeat fires again, no more escalations.
  release.set_value();
  BOOST_REQUIRE(engine.drain(kWatchdogDeadline));
  BOOST_TEST(audited.size() == 2u);
  clock.advance(60s);
  BOOST_REQUIRE(engine.drain(kWatchdogDeadline));
  BOOST_REQUIRE(dog.waitUntilChecked(clock.now(), kWatchdogDeadline));
  BOOST_TEST(gateway.transmissions().size() == 4u);
  dog.stop();
  engine.stop();
}

BOOST_AUTO_TEST_CASE(expiredApprovalsAndPacketsPastTwiceTheirSlaAreEscalatedOnceAnHour) {
  SimulatedClock clock(t0());
  Poco::Logger& logger = quietLogger("test.watchdog.items");
  std::vector<Stall> escalated;
  StallWatchdogOptions options;
  options.site = "Bistro Maree";
  StallWatchdog dog(clock, logger, options,
                    [&escalated](const Stall& s) { escalated.push_back(s); }, {});
  std::vector<WatchedItem> waiting = {{WatchedItem::Kind::kApproval, "12", t0() + 10min, 0min},
                                      {WatchedItem::Kind::kSafetyIncident, "3", t0(), 5min},
                                      {WatchedItem::Kind::kHumanPacket, "7", t0(), 30min}};
  const auto keysAt = [&](std::chrono::minutes after) {
    clock.set(t0() + after);
    dog.beat(clock.now());  // the engine is fine throughout
    dog.publish(waiting, clock.now());
    std::vector<std::string> keys;
    for (const Stall& s : dog.check()) keys.push_back(s.key);
    return keys;
  };

  BOOST_TEST(keysAt(9min).empty());
  BOOST_TEST((keysAt(11min) == std::vector<std::string>{"approval:12", "safety:3"}));
  BOOST_TEST(escalated[0].text ==
             "Bistro Maree box: approval 12 expired 1 minute ago and is still waiting. Please "
             "check the approvals.");
  BOOST_TEST(escalated[1].text ==
             "Bistro Maree box: safety alert 3 has been open 11 minutes with no ACK. Please call "
             "the site now.");
  BOOST_TEST(keysAt(30min).empty());
  BOOST_TEST((keysAt(61min) == std::vector<std::string>{"human_packet:7"}));
  BOOST_TEST((keysAt(71min) == std::vector<std::string>{"approval:12", "safety:3"}));
  for (const Stall& s : escalated) BOOST_TEST(sms::ContentLint().check(s.text).empty(), s.text);

  // Facts the engine read before the expiry do not count, however late the check.
  dog.publish(waiting, t0() + 9min);
  clock.set(t0() + 300min);
  dog.beat(clock.now());
  BOOST_TEST(dog.check().empty());
  // Resolved items are no longer published: nothing more.
  waiting.clear();
  BOOST_TEST(keysAt(400min).empty());
}

BOOST_AUTO_TEST_CASE(anEngineThatNeverBeatIsNotWatchedAndAThrowingCallbackIsContained) {
  SimulatedClock clock(t0());
  Poco::Logger& logger = quietLogger("test.watchdog.throw");
  int calls = 0;
  StallWatchdog dog(clock, logger, {},
                    [&calls](const Stall&) {
                      ++calls;
                      throw std::runtime_error("modem on fire");
                    },
                    {});
  clock.advance(5h);
  BOOST_TEST(dog.check().empty());
  dog.beat(clock.now());
  clock.advance(12min);
  BOOST_TEST(dog.check().size() == 1u);
  BOOST_TEST(calls == 1);
  BOOST_TEST(dog.check().empty());  // escalated once even though the callback threw
}

// The issue "The appliance", item 2: systemd's WATCHDOG=1 is sent only while the watchdog's own
// thread passes; a thread stuck for three of its intervals lets systemd restart the service.
BOOST_AUTO_TEST_CASE(itsThreadVouchesForTheProcessOnlyWhileItPasses) {
  using Steady = std::chrono::steady_clock;
  const Steady::time_point t{std::chrono::hours(1)};
  BOOST_TEST(!StallWatchdog::passIsRecent(std::nullopt, t, 30s));
  BOOST_TEST(StallWatchdog::passIsRecent(t, t + 90s, 30s));
  BOOST_TEST(!StallWatchdog::passIsRecent(t, t + 91s, 30s));

  SystemClock clock;
  StallWatchdogOptions options;
  options.checkEvery = 30s;
  StallWatchdog dog(clock, quietLogger("test.watchdog.vouch"), options, {}, {});
  BOOST_TEST(dog.vouches(Steady::now() + 1h));  // not started: nothing to vouch for
  dog.start();
  BOOST_REQUIRE(dog.waitUntilChecked(clock.now(), kWatchdogDeadline));  // its first pass
  BOOST_TEST(dog.vouches(Steady::now()));
  // Seen from 91 s on, with no pass since: stuck.
  BOOST_TEST(!dog.vouches(Steady::now() + 91s));
  dog.stop();
  BOOST_TEST(dog.vouches(Steady::now() + 1h));  // stopped on purpose: not a stall

  SimulatedClock simulated(t0());
  StallWatchdog onSimulated(simulated, quietLogger("test.watchdog.vouch.sim"), options, {}, {});
  onSimulated.start();
  BOOST_TEST(onSimulated.vouches(Steady::now() + 1h));  // no real-time passes to expect
  onSimulated.stop();
}

BOOST_AUTO_TEST_SUITE_END()
