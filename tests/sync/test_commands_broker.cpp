#include <boost/test/unit_test.hpp>
// Signed cloud commands through a real mosquitto: a test cloud client (the broker's "ingest"
// user) publishes signed notes on atoms/v1/<site>/cmd; the box's uplink hands them to the
// CommandProcessor over the daemon's kill switch, and the results come back on cmd/result.
#include <mqtt/async_client.h>
#include <signal.h>

#include <memory>
#include <optional>

#include "daemon/service/config_schema.h"
#include "domain/policy/command_target.h"
#include "domain/policy/kill_switch.h"
#include "domain/policy/shipped_actions.h"
#include "sync/command/command_processor.h"
#include "sync/command/command_result.h"
#include "sync/command/config_overrides.h"
#include "sync/status_report.h"
#include "sync/topics.h"
#include "tests/daemon/helpers.h"
#include "tests/sync/mqtt_fixtures.h"
#include "tests/sync/test_commands_support.h"

namespace atoms::test {
namespace {

using namespace std::chrono_literals;

// The box: store, kill switch, command processor and uplink on one worker thread.
struct CommandBox {
  CommandBox(const std::string& stateDir, sync::MqttSettings settings, VerifierKey cloudKey) {
    auto started = worker.call([&]() -> std::string {
      auto opened = SiteStore::open(stateDir);
      if (!opened) return opened.message();
      store = std::move(*opened);
      killSwitch = std::make_unique<policy::KillSwitch>(store->log(), store->db());
      target = std::make_unique<policy::PolicyCommandTarget>(
          gate, *killSwitch, store->db(), checkServiceConfigValue,
          [] { return policy::PolicyState{.defaultGraduation = policy::Graduation::kPropose}; });
      processor = std::make_unique<sync::command::CommandProcessor>(
          sync::command::CommandProcessor::Deps{store->log(), store->db(), *target, cloudKey,
                                                [] { return std::chrono::system_clock::now(); }});
      const std::string site = store->identity().siteId;
      settings.clientId = sync::boxClientId(site);
      settings.will =
          sync::MqttMessage{sync::siteTopics(site).status, sync::offlineStatusJson(site)};
      auto transport = sync::PahoTransport::create(settings, worker);
      if (!transport) return transport.message();
      sync::UplinkOptions options = UplinkRig::testOptions();
      options.statusInterval = 1h;  // one "online" per connection: the tests wait for it
      auto created = sync::MqttUplink::create(
          sync::MqttUplink::Deps{store->log(), store->db(), std::move(*transport), worker,
                                 [] { return std::chrono::system_clock::now(); },
                                 [] { return std::uint64_t{4}; }, nullptr},
          options);
      if (!created) return created.message();
      uplink = std::move(*created);
      uplink->setCommandProcessor(processor.get());
      uplink->start();
      return {};
    });
    error = started ? *started : "the worker did not answer";
  }
  ~CommandBox() {
    (void)worker.call([this] {
      uplink.reset();
      processor.reset();
      target.reset();
      killSwitch.reset();
      store.reset();
      return true;
    });
    worker.stop();
  }
  std::string level() {
    auto l = worker.call([this] { return killSwitch->current(); });
    return l && *l ? policy::killSwitchLevelName((*l)->level) : "(unknown)";
  }
  std::vector<json::Value> entries(const std::string& kind) {
    auto e = worker.call([this, kind] { return entryBodies(store->log(), kind); });
    return e ? *e : std::vector<json::Value>{};
  }

  sync::WorkerThread worker;
  std::unique_ptr<SiteStore> store;
  policy::PolicyGate gate{*policy::shippedActionTable()};
  std::unique_ptr<policy::KillSwitch> killSwitch;
  std::unique_ptr<policy::PolicyCommandTarget> target;
  std::unique_ptr<sync::command::CommandProcessor> processor;
  std::unique_ptr<sync::MqttUplink> uplink;
  std::string error;
};

// The cloud side: publishes commands, reads results and the box's status (consumer queue, so
// every wait is a wait for a message with a deadline).
class Cloud {
 public:
  Cloud(const MosquittoBroker& broker, std::string site)
      : site_(std::move(site)),
        topics_(sync::siteTopics(site_)),
        client_(broker.plainUri(), "test-cloud-commands", mqtt::create_options(5), nullptr) {
    client_.start_consuming();
    client_
        .connect(mqtt::connect_options_builder()
                     .mqtt_version(5)
                     .user_name(MosquittoBroker::kIngestUser)
                     .password(broker.password(MosquittoBroker::kIngestUser))
                     .finalize())
        ->wait_for(10s);
    client_.subscribe(topics_.status, 1)->wait_for(10s);
    client_.subscribe(topics_.cmdResult, 1)->wait_for(10s);
  }
  ~Cloud() {
    try {
      client_.disconnect()->wait_for(2s);
    } catch (...) {
    }
  }
  bool connected() const { return client_.is_connected(); }

  // The box subscribes to its cmd topic before it publishes its birth message on the same
  // connection, so once "online" is here a command published now reaches it.
  bool waitStatus(bool online) {
    return next(topics_.status,
                [&](const std::string& payload) {
                  auto st = sync::parseStatus(payload);
                  return st && st->online == online;
                })
        .has_value();
  }
  void publish(const std::string& payload) {
    client_.publish(topics_.cmd, payload.data(), payload.size(), 1, false)->wait_for(10s);
  }
  std::optional<std::string> nextResult() {
    return next(topics_.cmdResult, [](const std::string&) { return true; });
  }

 private:
  template <class P>
  std::optional<std::string> next(const std::string& topic, P want) {
    const auto until = Clock::now() + 30s;
    while (Clock::now() < until) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
      auto msg = client_.try_consume_message_for(std::max(left, std::chrono::milliseconds(1)));
      if (!msg) break;
      if (msg->get_topic() == topic && want(msg->to_string())) return msg->to_string();
    }
    return std::nullopt;
  }

  std::string site_;
  sync::SiteTopics topics_;
  mqtt::async_client client_;
};

sync::command::CommandResult parsed(const std::optional<std::string>& payload) {
  BOOST_REQUIRE(payload);
  auto r = sync::command::parseCommandResult(*payload);
  BOOST_REQUIRE_MESSAGE(r, r.message());
  return *r;
}

struct BrokerCommandsFixture {
  BrokerCommandsFixture() {
    testing::BrokerOptions o;
    o.failed = currentTestFailed;
    broker = std::make_unique<MosquittoBroker>(o);
    Status s = broker->start();
    BOOST_REQUIRE_MESSAGE(s, s.message());
  }
  std::unique_ptr<MosquittoBroker> broker;
  SiteDir site;
  SigningKey cloudKey = SigningKey::generate(kCloudKeyName);
};

}  // namespace

BOOST_AUTO_TEST_SUITE(commands_against_mosquitto)

BOOST_FIXTURE_TEST_CASE(aSignedKillSwitchCommandIsAppliedAuditedAndAnswered,
                        BrokerCommandsFixture) {
  Cloud cloud(*broker, site.site);
  BOOST_REQUIRE(cloud.connected());
  CommandBox box(site.dir, plainSettings(*broker, site.site), cloudKey.verifier());
  BOOST_REQUIRE_MESSAGE(box.error.empty(), box.error);
  BOOST_REQUIRE(cloud.waitStatus(true));

  const std::string note = signCommand(
      killSwitchCommand(site.site, "cmd-1", "L1", std::chrono::system_clock::now()), cloudKey);
  cloud.publish(note);
  const auto result = parsed(cloud.nextResult());
  BOOST_TEST(result.outcome == "applied");
  BOOST_TEST(result.id.value_or("") == "cmd-1");
  BOOST_TEST(result.message == "kill switch raised from L0 to L1");
  BOOST_TEST(box.level() == "L1");
  BOOST_TEST(box.entries("command.applied").size() == 1u);
  BOOST_TEST(box.entries("killswitch.set").size() == 1u);
  // The result names the audit entry that records the decision.
  BOOST_REQUIRE(result.seq);
  auto text = box.worker.call([&] { return box.store->log().entryText(*result.seq); });
  BOOST_REQUIRE(text && *text);
  BOOST_TEST(text->value().find("\"kind\":\"command.applied\"") != std::string::npos);
}

BOOST_FIXTURE_TEST_CASE(aReplayIsRefusedAndTheStoredResultPublishedAgainAlsoAfterARestart,
                        BrokerCommandsFixture) {
  Cloud cloud(*broker, site.site);
  BOOST_REQUIRE(cloud.connected());
  const std::string note = signCommand(
      killSwitchCommand(site.site, "cmd-2", "L2", std::chrono::system_clock::now()), cloudKey);
  std::string first;
  {
    CommandBox box(site.dir, plainSettings(*broker, site.site), cloudKey.verifier());
    BOOST_REQUIRE_MESSAGE(box.error.empty(), box.error);
    BOOST_REQUIRE(cloud.waitStatus(true));
    cloud.publish(note);
    auto r = cloud.nextResult();
    BOOST_REQUIRE(r);
    first = *r;
    BOOST_TEST(parsed(first).outcome == "applied");

    cloud.publish(note);  // an attacker's replay, or a redelivery
    BOOST_TEST(cloud.nextResult().value_or("") == first);
    BOOST_TEST(box.entries("killswitch.set").size() == 1u);
    const auto refused = box.entries("command.refused");
    BOOST_REQUIRE_EQUAL(refused.size(), 1u);
    BOOST_TEST(refused[0].find("code")->asString() == "replay");
  }
  BOOST_REQUIRE(cloud.waitStatus(false));
  CommandBox box(site.dir, plainSettings(*broker, site.site), cloudKey.verifier());
  BOOST_REQUIRE_MESSAGE(box.error.empty(), box.error);
  BOOST_REQUIRE(cloud.waitStatus(true));
  cloud.publish(note);
  BOOST_TEST(cloud.nextResult().value_or("") == first);
  BOOST_TEST(box.level() == "L2");
  BOOST_TEST(box.entries("killswitch.set").size() == 1u);  // applied once, ever
  BOOST_TEST(box.entries("command.refused").size() == 2u);
}

BOOST_FIXTURE_TEST_CASE(aForgedCommandIsRefusedAndChangesNothing, BrokerCommandsFixture) {
  Cloud cloud(*broker, site.site);
  BOOST_REQUIRE(cloud.connected());
  CommandBox box(site.dir, plainSettings(*broker, site.site), cloudKey.verifier());
  BOOST_REQUIRE_MESSAGE(box.error.empty(), box.error);
  BOOST_REQUIRE(cloud.waitStatus(true));

  const SigningKey forger = SigningKey::generate(kCloudKeyName);
  cloud.publish(signCommand(
      killSwitchCommand(site.site, "cmd-3", "L3", std::chrono::system_clock::now()), forger));
  const auto result = parsed(cloud.nextResult());
  BOOST_TEST(result.outcome == "refused");
  BOOST_TEST(result.code == "unknown_key");
  BOOST_TEST(!result.id);
  BOOST_TEST(box.level() == "L0");
  const auto refused = box.entries("command.refused");
  BOOST_REQUIRE_EQUAL(refused.size(), 1u);
  BOOST_TEST(refused[0].find("code")->asString() == "unknown_key");
  BOOST_TEST(box.entries("command.applied").empty());
}

BOOST_FIXTURE_TEST_CASE(serveAppliesCloudCommandsAndUsesAConfigOverrideFromTheNextStart,
                        BrokerCommandsFixture) {
  Cloud cloud(*broker, site.site);
  BOOST_REQUIRE(cloud.connected());
  const std::string config = site.tmp.write(
      "atoms-edge.conf", "state.dir = " + site.dir + "\nsync.broker = " + broker->plainUri() +
                             "\nsync.username = " + site.site +
                             "\nsync.password_file = " + broker->passwordFile(site.site) +
                             "\nsync.cloud_key = " + cloudKey.verifierKey() + "\n");
  {
    ChildProcess serve({edgeBinary(), "serve", "--config", config});
    BOOST_REQUIRE_MESSAGE(cloud.waitStatus(true), serve.err());
    const auto now = std::chrono::system_clock::now();
    cloud.publish(signCommand(killSwitchCommand(site.site, "s-1", "L2", now), cloudKey));
    BOOST_TEST(parsed(cloud.nextResult()).message == "kill switch raised from L0 to L2");
    // The policy gate: L2 freezes writes, so the configuration change is refused, then passes
    // once a person lowered the level to L1 (an outreach freeze does not stop it).
    cloud.publish(signCommand(configCommand(site.site, "s-2", "sync.window", "7", now), cloudKey));
    const auto frozen = parsed(cloud.nextResult());
    BOOST_TEST(frozen.outcome == "refused");
    BOOST_TEST(contains(frozen.message, "refused by the policy gate: config.set: record_only"),
               frozen.message);
    cloud.publish(signCommand(killSwitchCommand(site.site, "s-3", "L1", now), cloudKey));
    BOOST_TEST(parsed(cloud.nextResult()).message == "kill switch lowered from L2 to L1");
    cloud.publish(signCommand(configCommand(site.site, "s-4", "sync.window", "7", now), cloudKey));
    BOOST_TEST(parsed(cloud.nextResult()).outcome == "applied");
    BOOST_REQUIRE_MESSAGE(serve.waitForStderr("msg=\"applied a cloud command\"", 10s), serve.err());
    serve.signal(SIGTERM);
    BOOST_REQUIRE_MESSAGE(serve.wait(20s).value_or(-1) == 0, serve.err());
  }
  {
    auto store = SiteStore::open(site.dir);
    BOOST_REQUIRE_MESSAGE(store, store.message());
    policy::KillSwitch ks((*store)->log(), (*store)->db());
    BOOST_TEST(policy::killSwitchLevelName(ks.current()->level) == "L1");
    auto o = sync::command::findConfigOverride((*store)->db(), "sync.window");
    BOOST_REQUIRE(o && *o);
    BOOST_TEST((*o)->value == "7");
  }
  ChildProcess serve({edgeBinary(), "serve", "--config", config});
  BOOST_TEST_REQUIRE(serve.waitForStderr("msg=\"cloud configuration override\"", 20s), serve.err());
  BOOST_TEST(contains(serve.err(), "key=sync.window value=7"), serve.err());
  serve.signal(SIGTERM);
  BOOST_TEST(serve.wait(20s).value_or(-1) == 0);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::test
