#include <boost/test/unit_test.hpp>
// SmsSubsystem in-process, on the simulated gateway, with the real store and engine subsystems:
// inbound messages are committed and then handed to the InboundProcessor on the engine thread;
// other subsystems send through outbox(); stop leaves nothing running.
#include <Poco/Util/Application.h>
#include <Poco/Util/MapConfiguration.h>

#include <condition_variable>
#include <map>
#include <mutex>

#include "base/writer_call.h"
#include "daemon/service/config_schema.h"
#include "daemon/service/engine_subsystem.h"
#include "daemon/service/policy_subsystem.h"
#include "daemon/service/sms_subsystem.h"
#include "daemon/service/store_subsystem.h"
#include "drivers/sms/simulated/simulated_gateway.h"
#include "sms/mailbox/outbox.h"
#include "store/site_store.h"
#include "store/store_runner.h"
#include "tests/sms/serve/serve_support.h"
#include "tests/support/test_app.h"

namespace atoms::test {
namespace {

// What the conversation layer would do, minimally: on the engine thread, read every new row and
// mark it handled. Records what it saw.
struct Seen {
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::string> bodies;
  int calls = 0;
  bool offEngine = false;    // a call ran on another thread
  std::vector<bool> frozen;  // every setOutreachFrozen, in order

  bool waitForBodies(std::size_t n) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, kDeadline, [&] { return bodies.size() >= n; });
  }
};

class HandlingProcessor final : public InboundProcessor {
 public:
  HandlingProcessor(sms::mailbox::Inbox& inbox, EngineSubsystem& engine, std::shared_ptr<Seen> seen)
      : inbox_(inbox), engine_(engine), seen_(std::move(seen)) {}
  void processPending() override {
    auto rows = inbox_.unhandled(100);
    std::lock_guard lock(seen_->mutex);
    ++seen_->calls;
    if (!engine_.engine().onWriterThread()) seen_->offEngine = true;
    if (!rows) return;
    for (const auto& row : *rows) {
      if (inbox_.markHandled(row.id)) seen_->bodies.push_back(row.body);
    }
    seen_->changed.notify_all();
  }
  void setOutreachFrozen(bool frozen) override {
    std::lock_guard lock(seen_->mutex);
    if (!engine_.engine().onWriterThread()) seen_->offEngine = true;
    seen_->frozen.push_back(frozen);
  }

 private:
  sms::mailbox::Inbox& inbox_;
  EngineSubsystem& engine_;
  std::shared_ptr<Seen> seen_;
};

struct Services {
  explicit Services(const std::string& driver = "simulated")
      : app({{"state.dir", site.stateDir}, {"sms.driver", driver}}),
        store(std::make_unique<StoreSubsystem>(Poco::Logger::get("store"))),
        engine(std::make_unique<EngineSubsystem>(Poco::Logger::get("engine"))),
        policy(std::make_unique<PolicySubsystem>(Poco::Logger::get("policy"), *store, *engine)),
        sms(std::make_unique<SmsSubsystem>(Poco::Logger::get("sms"), *store, *engine)) {
    sms->setPolicy(policy.get());
  }
  ~Services() { stop(); }

  void handleInbound() {
    sms->setInboundProcessorFactory([this](const SmsMailbox& mailbox) {
      return std::make_unique<HandlingProcessor>(mailbox.inbox, *engine, seen);
    });
  }
  void start() {
    for (ServiceSubsystem* s : std::initializer_list<ServiceSubsystem*>{store.get(), engine.get(),
                                                                        policy.get(), sms.get()}) {
      Status started = s->startService(app);
      BOOST_REQUIRE_MESSAGE(started, s->name() << ": " << started.message());
    }
  }
  void stop() {
    sms->stopService();
    policy->stopService();
    engine->stopService();
    store->stopService();
  }
  drivers::SimulatedSmsGateway& phones() {
    auto* gateway = dynamic_cast<drivers::SimulatedSmsGateway*>(sms->gateway());
    BOOST_REQUIRE(gateway != nullptr);
    return *gateway;
  }

  SmsSite site;
  TestApp app;
  std::unique_ptr<StoreSubsystem> store;
  std::unique_ptr<EngineSubsystem> engine;
  std::unique_ptr<PolicySubsystem> policy;
  std::unique_ptr<SmsSubsystem> sms;
  std::shared_ptr<Seen> seen = std::make_shared<Seen>();
};

drivers::InboundSms text(const std::string& body) {
  return drivers::InboundSms{"", "+15550101234", "+15550100000", body, {}};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sms_subsystem)

BOOST_AUTO_TEST_CASE(inboundIsCommittedThenHandedToTheProcessorOnTheEngineThread) {
  Services s;
  s.handleInbound();
  s.start();
  BOOST_REQUIRE(s.phones().deliverInbound(text("Running 10 min late, sorry")));
  BOOST_REQUIRE(s.phones().deliverInbound(text("Can someone cover my Sunday?")));
  BOOST_REQUIRE(s.seen->waitForBodies(2));
  s.stop();
  BOOST_TEST(!s.seen->offEngine);
  BOOST_TEST(s.seen->bodies == (std::vector<std::string>{"Running 10 min late, sorry",
                                                         "Can someone cover my Sunday?"}),
             boost::test_tools::per_element());
  const StoredSms stored = readStore(s.site.stateDir);
  BOOST_TEST(stored.inboxRows == 2u);
  BOOST_TEST(stored.newRows().empty());
  BOOST_TEST(stored.count("sms.in") == 2u);
}

// The kill switch reaches the conversation layer: frozen from L1, lifted back at L0, and a box
// restarted at L1 comes back frozen before it handles anything.
BOOST_AUTO_TEST_CASE(theProcessorFollowsTheKillSwitchAlsoAcrossARestart) {
  auto setLevel = [](Services& s, policy::KillSwitchLevel level) {
    auto done = callOnWriter(s.engine->engine(), [&]() -> Status {
      auto changed = s.policy->killSwitch().set("2026-12-01T10:00:00.000Z", level, "test",
                                                policy::KillSwitchSetter{"panel:ana", false});
      if (!changed) return changed.error();
      s.policy->levelMayHaveChanged();
      return Status::success();
    });
    BOOST_REQUIRE(done);
    BOOST_REQUIRE_MESSAGE(*done, done->message());
  };
  auto frozen = [](Services& s) {
    std::lock_guard lock(s.seen->mutex);
    return s.seen->frozen;
  };
  {
    Services s;
    s.handleInbound();
    s.start();
    BOOST_TEST(frozen(s) == (std::vector<bool>{false}), boost::test_tools::per_element());
    setLevel(s, policy::KillSwitchLevel::kL1);
    setLevel(s, policy::KillSwitchLevel::kL2);
    setLevel(s, policy::KillSwitchLevel::kL0);
    setLevel(s, policy::KillSwitchLevel::kL1);
    BOOST_TEST(frozen(s) == (std::vector<bool>{false, true, true, false, true}),
               boost::test_tools::per_element());
    BOOST_TEST(!s.seen->offEngine);
    // Telling it again without a change calls nobody.
    auto again = callOnWriter(s.engine->engine(), [&] {
      s.policy->levelMayHaveChanged();
      return true;
    });
    BOOST_REQUIRE(again);
    BOOST_TEST(frozen(s).size() == 5u);
    s.stop();
    s.start();  // the same store: the level was kept
    BOOST_TEST(frozen(s) == (std::vector<bool>{false, true, true, false, true, true}),
               boost::test_tools::per_element());
  }
}

BOOST_AUTO_TEST_CASE(withoutAConversationLayerInboundRowsStayNew) {
  Services s;
  s.start();
  BOOST_REQUIRE(s.phones().deliverInbound(text("Is the walk-in fixed?")));
  s.stop();
  const StoredSms stored = readStore(s.site.stateDir);
  BOOST_REQUIRE_EQUAL(stored.newRows().size(), 1u);
  BOOST_TEST(stored.newRows()[0].body == "Is the walk-in fixed?");
  BOOST_TEST(stored.newRows()[0].gateway == "simulated");
}

BOOST_AUTO_TEST_CASE(rowsAPreviousRunLeftNewAreHandedToTheProcessorAtStart) {
  Services s;
  {
    auto store = SiteStore::open(s.site.stateDir);
    BOOST_REQUIRE_MESSAGE(store, store.message());
    atoms::LockedStoreRunner runner(**store);
    auto now = [] { return std::chrono::system_clock::now(); };
    sms::mailbox::Outbox outbox(runner, now, [] { return 0.0; });
    sms::mailbox::Inbox inbox(runner, outbox, "simulated", now);
    BOOST_REQUIRE(inbox.acceptInbound(
        {"SMfeed01", "+15550101234", "+15550100000", "Stored before the restart", {}}));
  }
  s.handleInbound();
  s.start();
  BOOST_REQUIRE(s.seen->waitForBodies(1));
  s.stop();
  BOOST_TEST(s.seen->bodies.at(0) == "Stored before the restart");
  BOOST_TEST(readStore(s.site.stateDir).newRows().empty());
}

BOOST_AUTO_TEST_CASE(anotherSubsystemSendsThroughTheOutboxAndTheRowRecordsTheProvidersId) {
  Services s;
  s.start();
  BOOST_REQUIRE(s.sms->outbox() != nullptr);
  sms::mailbox::OutboundRequest request;
  request.id = "callout-7:offer:+15550102222";
  request.to = "+15550102222";
  request.body = "Hi Ana, a line shift is open today 4-10pm. Reply 4821 to take it.";
  auto id = s.sms->outbox()->enqueue(request);
  BOOST_REQUIRE_MESSAGE(id, id.message());
  BOOST_REQUIRE(s.phones().waitForTransmissions(1, kDeadline));
  const auto sent = s.phones().transmissions();
  s.stop();  // lets the send in progress finish and record its answer
  BOOST_TEST(s.sms->outbox() == nullptr);
  BOOST_TEST(s.sms->gateway() == nullptr);

  BOOST_REQUIRE_EQUAL(sent.size(), 1u);
  BOOST_TEST(sent[0].message.idempotencyKey == request.id);
  BOOST_TEST(sent[0].message.body == request.body);
  const StoredSms stored = readStore(s.site.stateDir);
  BOOST_REQUIRE_EQUAL(stored.outbox.size(), 1u);
  BOOST_TEST(sms::mailbox::outboxStateName(stored.outbox[0].state) == "sent");
  BOOST_TEST(stored.outbox[0].providerId == sent[0].providerId);
  BOOST_TEST(stored.outbox[0].gateway == "simulated");
}

BOOST_AUTO_TEST_CASE(withTheDriverOffThereIsNoOutboxAndStartSucceeds) {
  Services s("off");
  s.start();
  BOOST_TEST(s.sms->started());
  BOOST_TEST(s.sms->outbox() == nullptr);
  BOOST_TEST(s.sms->gateway() == nullptr);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::test
