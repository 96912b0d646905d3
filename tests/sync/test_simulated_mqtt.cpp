#include <boost/test/unit_test.hpp>
// The simulated twins of the MQTT boundary (sync/simulated_mqtt.h, sync/simulated_executor.h):
// what they promise as a broker and an executor, on simulated time and one thread.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sync/simulated_executor.h"
#include "sync/simulated_mqtt.h"

namespace atoms::test {
namespace {

using namespace std::chrono_literals;
using sync::MqttMessage;
using sync::PublishFault;

// One client of the broker and what it was told, in order ("connected present=1", "message t p",
// "lost reason", ...).
struct Client {
  Client(sync::SimulatedBroker& broker, Writer& executor, std::string clientId,
         std::optional<MqttMessage> will = std::nullopt, bool cleanStart = false)
      : transport(broker.transport({std::move(clientId), cleanStart, std::move(will)}, executor)) {
    sync::TransportEvents e;
    e.connected = [this](bool present) { log.push_back("connected present=" + bit(present)); };
    e.connectFailed = [this](const std::string& r) { log.push_back("refused " + r); };
    e.connectionLost = [this](const std::string& r) { log.push_back("lost " + r); };
    e.published = [this](std::uint64_t id) { log.push_back("puback " + std::to_string(id)); };
    e.publishFailed = [this](std::uint64_t id, const std::string& r) {
      log.push_back("pubfail " + std::to_string(id) + " " + r);
    };
    e.message = [this](const MqttMessage& m) {
      log.push_back("message " + m.topic + " " + m.payload);
      messages.push_back(m.payload);
    };
    transport->setEvents(std::move(e));
  }
  static std::string bit(bool b) { return b ? "1" : "0"; }
  void publish(const std::string& topic, const std::string& payload, bool retained = false) {
    auto id = transport->publish(topic, payload, retained);
    BOOST_REQUIRE_MESSAGE(id, id.message());
  }
  void subscribe(const std::string& filter) {
    Status s = transport->subscribe(filter);
    BOOST_REQUIRE_MESSAGE(s, s.message());
  }
  // The log since the last call.
  std::vector<std::string> take() { return std::exchange(log, {}); }

  std::unique_ptr<sync::SimulatedTransport> transport;
  std::vector<std::string> log;
  std::vector<std::string> messages;
};

struct Fixture {
  SimulatedClock clock{TimePoint{} + 1000h};
  sync::SimulatedExecutor executor{clock};
  sync::SimulatedBroker broker;

  std::unique_ptr<Client> connected(const std::string& id) {
    auto c = std::make_unique<Client>(broker, executor, id);
    BOOST_REQUIRE(c->transport->connect());
    executor.runReady();
    return c;
  }
};

using Log = std::vector<std::string>;

}  // namespace

BOOST_AUTO_TEST_SUITE(simulated_mqtt)

BOOST_AUTO_TEST_CASE(matchesTopicFiltersAsMqttDoes) {
  using sync::mqttTopicMatches;
  BOOST_TEST(mqttTopicMatches("atoms/v1/+/audit", "atoms/v1/site-a/audit"));
  BOOST_TEST(!mqttTopicMatches("atoms/v1/+/audit", "atoms/v1/site-a/ack"));
  BOOST_TEST(!mqttTopicMatches("atoms/v1/+/audit", "atoms/v1/site-a/cmd/audit"));
  BOOST_TEST(mqttTopicMatches("atoms/#", "atoms/v1/site-a/cmd/result"));
  BOOST_TEST(mqttTopicMatches("atoms/#", "atoms"));  // # includes the parent level
  BOOST_TEST(mqttTopicMatches("+/+", "a/"));         // an empty level is a level
  BOOST_TEST(!mqttTopicMatches("+", "a/b"));
  BOOST_TEST(mqttTopicMatches("a/b", "a/b"));
  BOOST_TEST(!mqttTopicMatches("a/b", "a/b/c"));
  BOOST_TEST(!mqttTopicMatches("#", "$SYS/broker/uptime"));  // $ topics: no leading wildcard
  BOOST_TEST(mqttTopicMatches("$SYS/#", "$SYS/broker/uptime"));
}

BOOST_FIXTURE_TEST_CASE(routesPublishesToMatchingSubscribersAndAcknowledgesThem, Fixture) {
  auto box = connected("box");
  auto cloud = connected("cloud");
  BOOST_TEST(box->take() == Log{"connected present=0"});
  cloud->subscribe("atoms/v1/+/audit");
  box->publish("atoms/v1/site-a/audit", "one");
  box->publish("atoms/v1/site-a/status", "not for the cloud");
  box->publish("atoms/v1/site-a/audit", "two");
  BOOST_TEST(cloud->take() == Log{"connected present=0"});  // nothing before the executor runs
  executor.runReady();
  BOOST_TEST(cloud->take() ==
             (Log{"message atoms/v1/site-a/audit one", "message atoms/v1/site-a/audit two"}));
  BOOST_TEST(box->take() == (Log{"puback 1", "puback 2", "puback 3"}));
  // Malformed topics and filters are errors, not events.
  BOOST_TEST(!box->transport->publish("atoms/+/audit", "x", false));
  BOOST_TEST(!box->transport->publish("", "x", false));
  BOOST_TEST(!cloud->transport->subscribe("atoms/#/audit"));
  BOOST_TEST(!cloud->transport->subscribe("atoms/v1+"));
  BOOST_TEST(!cloud->transport->subscribe("$share//atoms/#"));
}

BOOST_FIXTURE_TEST_CASE(keepsRetainedMessagesForLaterSubscribersUntilCleared, Fixture) {
  auto box = connected("box");
  box->publish("atoms/v1/site-a/status", "online", true);
  executor.runReady();
  BOOST_TEST(broker.retained("atoms/v1/site-a/status").value_or("") == "online");
  auto monitor = connected("monitor");
  monitor->subscribe("atoms/v1/+/status");
  executor.runReady();
  BOOST_TEST(monitor->messages == std::vector<std::string>{"online"});
  box->publish("atoms/v1/site-a/status", "", true);  // an empty retained message clears it
  executor.runReady();
  BOOST_TEST(!broker.retained("atoms/v1/site-a/status"));
  auto late = connected("late");
  late->subscribe("atoms/v1/+/status");
  executor.runReady();
  BOOST_TEST(late->messages.empty());
}

BOOST_FIXTURE_TEST_CASE(aPersistentSessionQueuesWhatArrivesWhileItsClientIsAway, Fixture) {
  auto box = connected("box");
  box->subscribe("atoms/v1/site-a/ack");
  box->transport->disconnect(0ms);
  BOOST_TEST(!box->transport->connect());  // a disconnected transport is done, as Paho's
  auto cloud = connected("cloud");
  cloud->publish("atoms/v1/site-a/ack", "a1");
  cloud->publish("atoms/v1/site-a/ack", "a2");
  executor.runReady();
  BOOST_TEST(broker.queuedFor("box") == 2u);
  BOOST_TEST(box->messages.empty());  // no event after disconnect()

  auto again = std::make_unique<Client>(broker, executor, "box");
  BOOST_REQUIRE(again->transport->connect());
  executor.runReady();
  BOOST_TEST(again->take() == (Log{"connected present=1", "message atoms/v1/site-a/ack a1",
                                   "message atoms/v1/site-a/ack a2"}));
  // A clean start forgets the session.
  again->transport->disconnect(0ms);
  cloud->publish("atoms/v1/site-a/ack", "a3");
  Client fresh(broker, executor, "box", std::nullopt, true);
  BOOST_REQUIRE(fresh.transport->connect());
  executor.runReady();
  BOOST_TEST(fresh.take() == Log{"connected present=0"});
}

BOOST_FIXTURE_TEST_CASE(publishesTheWillWhenTheConnectionDiesButNotOnACleanDisconnect, Fixture) {
  auto monitor = connected("monitor");
  monitor->subscribe("atoms/v1/+/status");
  Client box(broker, executor, "box", MqttMessage{"atoms/v1/site-a/status", "offline"});
  BOOST_REQUIRE(box.transport->connect());
  executor.runReady();
  box.publish("atoms/v1/site-a/status", "online", true);
  executor.runReady();
  BOOST_TEST(broker.dropConnection("box", "network down"));
  BOOST_TEST(!broker.dropConnection("box"));  // not connected any more
  executor.runReady();
  BOOST_TEST(box.take() == (Log{"connected present=0", "puback 1", "lost network down"}));
  BOOST_TEST(monitor->messages == (std::vector<std::string>{"online", "offline"}));
  BOOST_TEST(broker.retained("atoms/v1/site-a/status").value_or("") == "offline");
  BOOST_TEST(!box.transport->publish("atoms/v1/site-a/status", "x", false));

  BOOST_REQUIRE(box.transport->connect());  // dropped, not disconnected: it may connect again
  executor.runReady();
  box.publish("atoms/v1/site-a/status", "online", true);
  box.transport->disconnect(0ms);
  executor.runReady();
  BOOST_TEST(broker.retained("atoms/v1/site-a/status").value_or("") == "online");
  BOOST_TEST(broker.stats().connectionsDropped == 1u);
}

BOOST_FIXTURE_TEST_CASE(aSecondConnectionWithTheSameIdTakesTheSessionOver, Fixture) {
  auto first = connected("box");
  first->subscribe("atoms/v1/site-a/ack");
  auto second = connected("box");
  BOOST_TEST(first->take() ==
             (Log{"connected present=0", "lost another connection took the session over"}));
  BOOST_TEST(second->take() == Log{"connected present=1"});
  auto cloud = connected("cloud");
  cloud->publish("atoms/v1/site-a/ack", "a1");
  executor.runReady();
  BOOST_TEST(first->messages.empty());
  BOOST_TEST(second->messages == std::vector<std::string>{"a1"});
}

BOOST_FIXTURE_TEST_CASE(aSharedSubscriptionHandsEachMessageToOneMember, Fixture) {
  auto a = connected("ingest-a");
  auto b = connected("ingest-b");
  auto plain = connected("observer");
  a->subscribe("$share/ingest/atoms/v1/+/audit");
  b->subscribe("$share/ingest/atoms/v1/+/audit");
  plain->subscribe("atoms/v1/+/audit");
  auto box = connected("box");
  for (const char* p : {"s1", "s2", "s3", "s4"}) box->publish("atoms/v1/site-a/audit", p);
  executor.runReady();
  BOOST_TEST(a->messages.size() == 2u);
  BOOST_TEST(b->messages.size() == 2u);
  BOOST_TEST(plain->messages.size() == 4u);
  // With one member away, the other gets everything.
  b->transport->disconnect(0ms);
  box->publish("atoms/v1/site-a/audit", "s5");
  box->publish("atoms/v1/site-a/audit", "s6");
  executor.runReady();
  BOOST_TEST(a->messages.size() == 4u);
  BOOST_TEST(broker.queuedFor("ingest-b") == 0u);
}

BOOST_FIXTURE_TEST_CASE(losesDuplicatesHoldsOrRefusesPublishesAsTold, Fixture) {
  auto box = connected("box");
  auto cloud = connected("cloud");
  cloud->subscribe("atoms/v1/+/audit");
  box->take();
  broker.faultPublishes("atoms/v1/+/audit", PublishFault::kLose);
  broker.faultPublishes("atoms/v1/+/audit", PublishFault::kDuplicate);
  broker.faultPublishes("atoms/v1/+/audit", PublishFault::kHold);
  broker.faultPublishes("atoms/v1/+/audit", PublishFault::kRefuse);
  for (const char* p : {"lost", "twice", "late", "refused", "plain"}) {
    box->publish("atoms/v1/site-a/audit", p);
  }
  executor.runReady();
  BOOST_TEST(cloud->messages == (std::vector<std::string>{"twice", "twice", "plain"}));
  BOOST_TEST(box->take() ==
             (Log{"puback 1", "puback 2", "puback 3", "pubfail 4 not authorized", "puback 5"}));
  BOOST_TEST(broker.heldCount() == 1u);
  BOOST_TEST(broker.releaseHeld() == 1u);
  executor.runReady();
  BOOST_TEST(cloud->messages.back() == "late");
  const auto stats = broker.stats();
  BOOST_TEST(stats.lost == 1u);
  BOOST_TEST(stats.duplicated == 1u);
  BOOST_TEST(stats.held == 1u);
  BOOST_TEST(stats.refused == 1u);
}

BOOST_FIXTURE_TEST_CASE(refusesConnectionsUntilToldOtherwise, Fixture) {
  broker.refuseConnections("the broker is down");
  Client box(broker, executor, "box");
  BOOST_REQUIRE(box.transport->connect());
  executor.runReady();
  BOOST_TEST(box.take() == Log{"refused the broker is down"});
  BOOST_TEST(!broker.isConnected("box"));
  broker.acceptConnections();
  BOOST_REQUIRE(box.transport->connect());
  executor.runReady();
  BOOST_TEST(box.take() == Log{"connected present=0"});
  BOOST_TEST(!box.transport->connect());  // already connected
  BOOST_TEST(broker.stats().connectsRefused == 1u);
}

BOOST_FIXTURE_TEST_CASE(aRestartWithoutPersistenceForgetsSessionsAndRetainedMessages, Fixture) {
  auto box = connected("box");
  box->subscribe("atoms/v1/site-a/ack");
  box->publish("atoms/v1/site-a/status", "online", true);
  broker.restart(true);
  executor.runReady();
  BOOST_TEST(box->log.back() == "lost the broker restarted");
  BOOST_TEST(broker.retained("atoms/v1/site-a/status").has_value());
  BOOST_REQUIRE(box->transport->connect());
  executor.runReady();
  BOOST_TEST(box->log.back() == "connected present=1");
  broker.restart(false);
  BOOST_REQUIRE(box->transport->connect());
  executor.runReady();
  BOOST_TEST(box->log.back() == "connected present=0");
  BOOST_TEST(!broker.retained("atoms/v1/site-a/status"));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(simulated_executor)

BOOST_FIXTURE_TEST_CASE(runsTimersAtTheirDeadlinesAndTasksInPostingOrder, Fixture) {
  const TimePoint start = clock.now();
  std::vector<std::string> ran;
  auto at = [&](const char* what) {
    return [&, what] {
      ran.push_back(std::string(what) + "@" +
                    std::to_string((clock.now() - start) / std::chrono::milliseconds(1)));
    };
  };
  executor.runAfter(300ms, at("t300"));
  executor.runAfter(100ms, [&] {
    at("t100")();
    executor.post(at("posted-by-t100"));
    executor.runAfter(100ms, at("t200"));
  });
  executor.post(at("p1"));
  executor.post(at("p2"));
  BOOST_TEST(ran.empty());
  BOOST_TEST(executor.runReady() == 2u);
  BOOST_TEST(ran == (std::vector<std::string>{"p1@0", "p2@0"}));
  executor.advance(250ms);
  BOOST_TEST(ran == (std::vector<std::string>{"p1@0", "p2@0", "t100@100", "posted-by-t100@100",
                                              "t200@200"}));
  BOOST_TEST((clock.now() - start == 250ms));
  BOOST_REQUIRE(executor.advanceToNextTimer());
  BOOST_TEST(ran.back() == "t300@300");
  BOOST_TEST(!executor.advanceToNextTimer());
  executor.stop();
  BOOST_TEST(!executor.post(at("after stop")));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::test
