#include <boost/test/unit_test.hpp>

// The silent-stall watchdog in serve's wiring (daemon/service/watchdog_subsystem.h): the real
// store, engine and SMS subsystems on a simulated clock; the engine is blocked on purpose, the
// site contact gets the watchdog's text through the simulated gateway while it is still blocked,
// and the escalation is in the audit log once the engine runs again.
#include <future>
#include <memory>

#include "base/clock.h"
#include "daemon/engine/stall_watchdog.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/sms_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "daemon/service/watchdog_subsystem.h"
#include "drivers/sms/simulated/simulated_gateway.h"
#include "tests/sms/serve/serve_support.h"
#include "tests/support/test_app.h"

namespace atoms::test {
namespace {

constexpr char kContact[] = "+15550100222";

}  // namespace

BOOST_AUTO_TEST_SUITE(watchdog_subsystem)

BOOST_AUTO_TEST_CASE(aStuckEngineInServeTextsTheSiteContactAndIsAuditedWhenItRuns) {
  SmsSite site;
  TestApp app(
      {{"state.dir", site.stateDir}, {"sms.driver", "simulated"}, {"sms.contact.phone", kContact}});
  SimulatedClock clock(TimePoint(std::chrono::seconds(1'800'000'000)));
  auto store = std::make_unique<StoreSubsystem>(Poco::Logger::get("store"));
  auto engine = std::make_unique<EngineSubsystem>(Poco::Logger::get("engine"), clock);
  auto sms = std::make_unique<SmsSubsystem>(Poco::Logger::get("sms"), *store, *engine);
  auto watchdog =
      std::make_unique<WatchdogSubsystem>(Poco::Logger::get("watchdog"), *store, *engine, *sms);
  watchdog->watchOnSimulatedClock();
  for (ServiceSubsystem* s : std::initializer_list<ServiceSubsystem*>{store.get(), engine.get(),
                                                                      sms.get(), watchdog.get()}) {
    Status started = s->startService(app);
    BOOST_REQUIRE_MESSAGE(started, s->name() << ": " << started.message());
  }
  auto* phones = dynamic_cast<drivers::SimulatedSmsGateway*>(sms->gateway());
  BOOST_REQUIRE(phones != nullptr);
  BOOST_REQUIRE(watchdog->watchdog() != nullptr);
  WatchdogSubsystem offByDefault(Poco::Logger::get("watchdog"), *store, *engine, *sms);
  BOOST_REQUIRE(offByDefault.startService(app));
  BOOST_TEST(offByDefault.watchdog() == nullptr);  // a clock jump is not a stall
  offByDefault.stopService();

  for (int i = 0; i < 3; ++i) {
    clock.advance(60s);
    BOOST_REQUIRE(engine->engine().drain(kDeadline));
    BOOST_REQUIRE(watchdog->watchdog()->waitUntilChecked(clock.now(), kDeadline));
  }
  BOOST_TEST(phones->transmissions().empty());

  std::promise<void> started;
  std::promise<void> release;
  std::shared_future<void> gate = release.get_future().share();
  BOOST_REQUIRE(engine->engine().post([&started, gate] {
    started.set_value();
    (void)gate.wait_for(60s);  // bounded, so a failing test cannot hang
  }));
  BOOST_REQUIRE(started.get_future().wait_for(kDeadline) == std::future_status::ready);
  clock.advance(15min);
  BOOST_REQUIRE(phones->waitForTransmissions(1, kDeadline));
  const auto sent = phones->transmissions();
  BOOST_REQUIRE_EQUAL(sent.size(), 1u);
  BOOST_TEST(sent[0].message.to == kContact);
  BOOST_TEST(sent[0].message.body.find("the scheduling engine has not run for 15 minutes") !=
                 std::string::npos,
             sent[0].message.body);

  release.set_value();
  BOOST_REQUIRE(engine->engine().drain(kDeadline));
  watchdog->stopService();
  sms->stopService();
  engine->stopService();
  store->stopService();
  const StoredSms stored = readStore(site.stateDir);
  BOOST_TEST(stored.count("watchdog.escalated") == 1u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::test
