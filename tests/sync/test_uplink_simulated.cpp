#include <boost/test/unit_test.hpp>
// The uplink without a broker: MqttUplink over the simulated broker (sync/simulated_mqtt.h) on
// simulated time (sync/simulated_executor.h), with a cloud peer on the same broker that verifies
// and acks. Everything runs on the test's thread, in the order the executor runs it: connect and
// birth status, segments in order within the window, resume from the acked size, duplicate and
// late acks, a lost segment, refused connections and the backoff, signed commands. The same
// behaviour against a real mosquitto is in test_uplink_broker.cpp (test_sync_mqtt).
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "store/signed_note.h"
#include "sync/ack.h"
#include "sync/command/command_processor.h"
#include "sync/command/command_result.h"
#include "sync/mqtt_uplink.h"
#include "sync/simulated_executor.h"
#include "sync/simulated_mqtt.h"
#include "sync/status_report.h"
#include "sync/topics.h"
#include "tests/sync/sync_fixtures.h"
#include "tests/sync/test_commands_support.h"

namespace atoms::test {
namespace {

using namespace std::chrono_literals;
using sync::PublishFault;

const TimePoint kStart = *sync::parseTimestamp("2026-03-02T12:00:00.000Z");

sync::UplinkOptions simulatedOptions() {
  sync::UplinkOptions o;
  o.maxSegmentBytes = 4096;
  o.window = 4;
  o.pollInterval = 1s;
  o.ackTimeout = 30s;
  o.statusInterval = 60s;
  o.backoff = {1s, 8s};
  o.retention = std::chrono::hours(0);
  return o;
}

// The cloud on the simulated broker: subscribes to every site's audit, status and command
// results, verifies the segments and acks them (CloudRecord), and keeps what arrived.
class SimulatedCloud {
 public:
  SimulatedCloud(sync::SimulatedBroker& broker, Writer& executor,
                 std::map<std::string, VerifierKey> sites)
      : record(std::move(sites)), transport_(broker.transport({"atoms-cloud-test"}, executor)) {
    sync::TransportEvents e;
    e.connected = [this](bool) {
      for (const char* filter :
           {"atoms/v1/+/audit", "atoms/v1/+/status", "atoms/v1/+/cmd/result"}) {
        Status s = transport_->subscribe(filter);
        BOOST_REQUIRE_MESSAGE(s, s.message());
      }
    };
    e.message = [this](const sync::MqttMessage& m) { receive(m); };
    transport_->setEvents(std::move(e));
    reconnect();
  }
  void reconnect() { BOOST_REQUIRE(transport_->connect()); }
  void publish(const std::string& topic, const std::string& payload) {
    auto id = transport_->publish(topic, payload, false);
    BOOST_REQUIRE_MESSAGE(id, id.message());
  }
  // Acks what it verified of site (as after a duplicate), whether acking or not.
  void ackVerified(const std::string& site) {
    publish(sync::siteTopics(site).ack,
            sync::ackJson(sync::Ack{site, record.verified(site), record.verifiedRoot(site)}));
  }

  bool acking = true;
  CloudRecord record;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> arrivals;  // each segment's from, to
  std::vector<sync::StatusReport> statuses;
  std::vector<std::string> results;  // cmd/result payloads

 private:
  void receive(const sync::MqttMessage& m) {
    if (sync::siteOfTopic(m.topic, "audit")) {
      auto seg = parseSegment(m.payload);
      BOOST_REQUIRE_MESSAGE(seg, seg.message());
      arrivals.emplace_back(seg->from, seg->to);
    } else if (sync::siteOfTopic(m.topic, "status")) {
      auto status = sync::parseStatus(m.payload);
      BOOST_REQUIRE_MESSAGE(status, status.message());
      statuses.push_back(*status);
    } else if (m.topic.ends_with("/cmd/result")) {
      results.push_back(m.payload);
      return;
    }
    if (auto ack = record.receive(m.topic, m.payload, acking)) publish(ack->topic, ack->payload);
  }

  std::unique_ptr<sync::SimulatedTransport> transport_;
};

// A box (its store and uplink) and the cloud on one simulated broker, executor and clock.
struct Box {
  Box() {
    auto opened = SiteStore::open(site.dir);
    BOOST_REQUIRE_MESSAGE(opened, opened.message());
    store = std::move(*opened);
    executor.runReady();  // the cloud connects and subscribes
  }

  // Creates and starts the uplink (a clean stop first if one runs), and runs what follows.
  // Backoff delays are the lower end of their range (the random source gives 0): half the
  // ceiling, which doubles from 1 s to 8 s.
  void start() {
    uplink.reset();
    auto transport =
        broker.transport({sync::boxClientId(site.site), false,
                          sync::MqttMessage{topics.status, sync::offlineStatusJson(site.site)}},
                         executor);
    auto created = sync::MqttUplink::create(
        sync::MqttUplink::Deps{store->log(), store->db(), std::move(transport), executor,
                               [this] { return clock.now(); }, [] { return std::uint64_t{0}; },
                               [this](sync::UplinkLogLevel, const std::string& msg,
                                      const sync::UplinkLogFields&) { logged.push_back(msg); }},
        simulatedOptions());
    BOOST_REQUIRE_MESSAGE(created, created.message());
    uplink = std::move(*created);
    uplink->setCommandProcessor(commands);
    uplink->setConnectionListener([this](bool up, const std::string& reason) {
      connections.push_back({clock.now(), up, reason});
    });
    uplink->start();
    executor.runReady();
  }
  // Appends entries stamped with the simulated time, tells the uplink, runs what follows.
  std::uint64_t append(std::uint64_t entries) {
    const std::uint64_t size = appendEntries(*store, entries, 16, 60, clock.now());
    if (uplink) uplink->poke();
    executor.runReady();
    return size;
  }
  sync::UplinkStats stats() const { return uplink->stats(); }
  std::string boxId() const { return sync::boxClientId(site.site); }
  std::optional<sync::StatusReport> retainedStatus() const {
    auto text = broker.retained(topics.status);
    if (!text) return std::nullopt;
    auto status = sync::parseStatus(*text);
    BOOST_REQUIRE_MESSAGE(status, status.message());
    return *status;
  }
  std::uint64_t issues(const std::string& name) const {
    auto it = cloud.record.issues(site.site).find(name);
    return it == cloud.record.issues(site.site).end() ? 0 : it->second;
  }
  bool loggedMessage(const std::string& msg) const {
    return std::find(logged.begin(), logged.end(), msg) != logged.end();
  }

  struct Connection {
    TimePoint at;
    bool up = false;
    std::string reason;
  };

  SiteDir site;
  SimulatedClock clock{kStart};
  sync::SimulatedExecutor executor{clock};
  sync::SimulatedBroker broker;
  sync::SiteTopics topics = sync::siteTopics(site.site);
  SimulatedCloud cloud{broker, executor, {{site.site, *VerifierKey::parse(site.verifierKey)}}};
  std::unique_ptr<SiteStore> store;
  sync::command::CommandProcessor* commands = nullptr;
  std::vector<Connection> connections;
  std::vector<std::string> logged;
  std::unique_ptr<sync::MqttUplink> uplink;  // last: stopped before the rest goes
};

// Each segment starts where the previous one ended, from 0.
void requireContiguous(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& arrivals) {
  std::uint64_t next = 0;
  for (const auto& [from, to] : arrivals) {
    BOOST_REQUIRE_EQUAL(from, next);
    BOOST_REQUIRE_LT(from, to);
    next = to;
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(uplink_on_a_simulated_broker)

BOOST_FIXTURE_TEST_CASE(connectsWithABirthStatusAndTheWillSaysOfflineWhenTheLinkDies, Box) {
  const std::uint64_t size = append(40);
  start();
  BOOST_TEST(broker.isConnected(boxId()));
  BOOST_REQUIRE_EQUAL(connections.size(), 1u);
  BOOST_TEST(connections[0].up);
  // The birth came first, before any segment was acked; the drained backlog refreshed it.
  BOOST_REQUIRE_GE(cloud.statuses.size(), 2u);
  BOOST_TEST(cloud.statuses.front().online);
  BOOST_TEST(cloud.statuses.front().size == size);
  BOOST_TEST(cloud.statuses.front().acked == 0u);
  BOOST_TEST(stats().ackedSize == size);
  auto status = retainedStatus();
  BOOST_REQUIRE(status);
  BOOST_TEST(status->online);
  BOOST_TEST(status->acked == size);
  BOOST_TEST(status->backlogEntries() == 0u);

  BOOST_REQUIRE(broker.dropConnection(boxId(), "network down"));
  executor.runReady();
  BOOST_TEST(broker.retained(topics.status).value_or("") == sync::offlineStatusJson(site.site));
  BOOST_TEST(stats().connectionsLost == 1u);
  BOOST_TEST(!connections.back().up);
  BOOST_TEST(connections.back().reason == "network down");

  executor.advance(1s);  // the first retry comes within the initial backoff
  BOOST_TEST(broker.isConnected(boxId()));
  BOOST_TEST(retainedStatus()->online);
  BOOST_TEST(stats().connects == 2u);

  uplink.reset();  // a clean stop says offline itself (the broker sends no will then)
  BOOST_TEST(broker.retained(topics.status).value_or("") == sync::offlineStatusJson(site.site));
  BOOST_TEST(!broker.isConnected(boxId()));
}

BOOST_FIXTURE_TEST_CASE(publishesSegmentsInOrderAtMostAWindowAheadOfTheAck, Box) {
  cloud.acking = false;
  start();
  const std::uint64_t size = append(400);
  // 4 KiB segments: the backlog needs many, but only the window's 4 go out unacked.
  BOOST_TEST(stats().segmentsPublished == 4u);
  BOOST_REQUIRE_EQUAL(cloud.arrivals.size(), 4u);
  requireContiguous(cloud.arrivals);
  BOOST_TEST(stats().sentSize == cloud.arrivals.back().second);
  BOOST_TEST(stats().ackedSize == 0u);

  cloud.acking = true;
  cloud.ackVerified(site.site);  // the window moves; the rest follows segment by segment
  executor.runReady();
  BOOST_TEST(stats().ackedSize == size);
  BOOST_TEST(cloud.arrivals.size() > 10u);
  requireContiguous(cloud.arrivals);
  requireExactlyOnceInOrder(cloud.record.entries(site.site), size);
  BOOST_TEST(cloud.record.issues(site.site).empty());
  BOOST_TEST(stats().resends == 0u);
}

BOOST_FIXTURE_TEST_CASE(resumesFromTheAckedSizeAfterAReconnect, Box) {
  start();
  const std::uint64_t acked = append(100);
  BOOST_REQUIRE_EQUAL(stats().ackedSize, acked);
  cloud.acking = false;  // segments beyond it arrive but are not acked
  const std::uint64_t size = append(300);
  BOOST_REQUIRE_GT(stats().sentSize, acked);
  const std::size_t before = cloud.arrivals.size();

  BOOST_REQUIRE(broker.dropConnection(boxId()));
  cloud.acking = true;
  executor.advance(1s);
  BOOST_TEST(stats().connects == 2u);
  BOOST_REQUIRE_GT(cloud.arrivals.size(), before);
  BOOST_TEST(cloud.arrivals[before].first == acked);  // not 0, not what it had sent
  BOOST_TEST(stats().ackedSize == size);
  // What arrived twice was recognised and acked again; nothing was skipped.
  BOOST_TEST(issues("duplicate") > 0u);
  BOOST_TEST(issues("gap") == 0u);
  requireExactlyOnceInOrder(cloud.record.entries(site.site), size);
}

BOOST_FIXTURE_TEST_CASE(resumesFromTheStoredAckAfterTheUplinkRestarts, Box) {
  start();
  const std::uint64_t acked = append(100);
  cloud.acking = false;
  const std::uint64_t size = append(300);
  const std::size_t before = cloud.arrivals.size();

  cloud.acking = true;
  start();  // a new uplink over the same store, as after a restart of the service
  BOOST_REQUIRE_GT(cloud.arrivals.size(), before);
  BOOST_TEST(cloud.arrivals[before].first == acked);
  BOOST_TEST(stats().ackedSize == size);
  requireExactlyOnceInOrder(cloud.record.entries(site.site), size);
}

BOOST_FIXTURE_TEST_CASE(duplicateAndLateAcksChangeNothing, Box) {
  start();
  broker.faultPublishes(topics.ack, PublishFault::kHold);             // the first ack comes late
  broker.faultPublishes(topics.ack, PublishFault::kDuplicate, 1000);  // every other one twice
  const std::uint64_t size = append(400);
  const auto drained = stats();
  BOOST_TEST(drained.ackedSize == size);
  BOOST_TEST(drained.acksAccepted > 10u);
  BOOST_TEST(drained.acksDuplicate == drained.acksAccepted);

  BOOST_TEST(broker.releaseHeld() == 1u);  // the first segment's ack, after all the others
  executor.runReady();
  const auto after = stats();
  BOOST_TEST(after.acksDuplicate == drained.acksDuplicate + 1);
  BOOST_TEST(after.ackedSize == size);
  BOOST_TEST(after.acksRefused == 0u);
  BOOST_TEST(after.resends == 0u);
  BOOST_TEST(cloud.record.issues(site.site).empty());  // no segment was sent twice
  requireExactlyOnceInOrder(cloud.record.entries(site.site), size);
}

BOOST_FIXTURE_TEST_CASE(aLostSegmentIsPublishedAgainAfterTheAckTimeout, Box) {
  start();
  broker.faultPublishes(topics.audit, PublishFault::kLose);
  const std::uint64_t size = append(400);
  // The three segments after the lost one reached the cloud as gaps: nothing is acked.
  BOOST_TEST(issues("gap") == 3u);
  BOOST_TEST(stats().ackedSize == 0u);

  executor.advance(29s);
  BOOST_TEST(stats().resends == 0u);
  executor.advance(1s);  // 30 s without ack progress
  BOOST_TEST(stats().resends == 1u);
  BOOST_TEST(loggedMessage("publishing again from the acked size"));
  BOOST_TEST(stats().ackedSize == size);
  requireExactlyOnceInOrder(cloud.record.entries(site.site), size);
}

// The issue "Sync", defect 2: an ingest member that took a segment and went. The members left
// see the next segments as gaps and ack their stored size again; the box reads that ack, the
// acked size once more while later segments are out, as "one went missing" and publishes again
// from the acked size at once, not after the ack timeout. A burst of such acks is one resend.
BOOST_FIXTURE_TEST_CASE(theCloudAckingTheAckedSizeAgainBringsAResendAtOnce, Box) {
  start();
  broker.faultPublishes(topics.audit, PublishFault::kLose);
  const std::uint64_t size = append(400);
  BOOST_TEST(issues("gap") == 3u);
  BOOST_TEST(stats().ackedSize == 0u);
  executor.advance(2s);  // the members' reorder wait
  cloud.ackVerified(site.site);
  cloud.ackVerified(site.site);
  executor.runReady();
  BOOST_TEST(stats().gapResends == 1u);
  BOOST_TEST(stats().resends == 1u);
  BOOST_TEST(loggedMessage("publishing again from the acked size"));
  BOOST_TEST(stats().ackedSize == size);
  requireExactlyOnceInOrder(cloud.record.entries(site.site), size);
  // Once drained, the same ack is a plain duplicate: nothing is out.
  cloud.ackVerified(site.site);
  executor.runReady();
  BOOST_TEST(stats().gapResends == 1u);
}

BOOST_FIXTURE_TEST_CASE(aRefusedConnectionIsRetriedAfterADoublingCappedDelay, Box) {
  broker.refuseConnections("not authorized");
  start();
  executor.advance(20s);
  std::vector<std::int64_t> gaps;
  for (std::size_t i = 0; i < connections.size(); ++i) {
    BOOST_TEST(!connections[i].up);
    BOOST_TEST(connections[i].reason == "not authorized");
    if (i > 0) gaps.push_back((connections[i].at - connections[i - 1].at) / 1ms);
  }
  BOOST_TEST(gaps == (std::vector<std::int64_t>{500, 1000, 2000, 4000, 4000, 4000, 4000}));
  BOOST_TEST(stats().connectFailures == 8u);
  BOOST_TEST(broker.stats().connectsRefused == 8u);
  BOOST_TEST(!broker.retained(topics.status));

  broker.acceptConnections();
  const TimePoint lastRefused = connections.back().at;
  executor.advance(4s);
  BOOST_REQUIRE(connections.back().up);
  BOOST_TEST((connections.back().at - lastRefused == 4s));
  BOOST_TEST(retainedStatus()->online);

  // A connection resets the backoff: after a drop, the first retry is 500 ms later again.
  BOOST_REQUIRE(broker.dropConnection(boxId()));
  executor.runReady();
  executor.advance(499ms);
  BOOST_TEST(!broker.isConnected(boxId()));
  executor.advance(1ms);
  BOOST_TEST(broker.isConnected(boxId()));
}

BOOST_FIXTURE_TEST_CASE(subscribesAgainWhenTheBrokerForgotItsSessions, Box) {
  start();
  append(50);
  broker.restart(false);  // no persistence: subscriptions, sessions and the retained status go
  executor.runReady();
  BOOST_TEST(!broker.retained(topics.status));
  cloud.reconnect();
  executor.advance(1s);
  BOOST_REQUIRE(retainedStatus());
  BOOST_TEST(retainedStatus()->online);  // born again
  const std::uint64_t size = append(100);
  BOOST_TEST(stats().ackedSize == size);  // the acks reach it: it subscribed again
}

// The target of the commands here: the kill switch only, recording what it is told (the
// daemon's real target is in test_sync_commands).
class KillSwitchOnly final : public sync::command::CommandTarget {
 public:
  Result<std::string> setKillSwitchLevel(AuditLog::Batch&, const sync::command::CommandContext&,
                                         int level, const std::string&) override {
    levels.push_back(level);
    return "kill switch set to L" + std::to_string(level);
  }
  Result<std::string> setConfig(AuditLog::Batch&, const sync::command::CommandContext&,
                                const std::string&, const std::optional<std::string>&) override {
    return makeError("no configuration here");
  }
  std::vector<int> levels;
};

BOOST_FIXTURE_TEST_CASE(signedCommandsComeDownAndTheirResultsGoBack, Box) {
  SigningKey cloudKey = SigningKey::generate(kCloudKeyName);
  SigningKey forger = SigningKey::generate(kCloudKeyName);  // same name, another key
  KillSwitchOnly target;
  sync::command::CommandProcessor processor(sync::command::CommandProcessor::Deps{
      store->log(), store->db(), target, cloudKey.verifier(), [this] { return clock.now(); }});
  commands = &processor;
  start();

  broker.faultPublishes(topics.cmd, PublishFault::kDuplicate);  // a QoS 1 redelivery
  const std::string note = signCommand(killSwitchCommand(site.site, "c-1", "L1", kStart), cloudKey);
  cloud.publish(topics.cmd, note);
  cloud.publish(topics.cmd, signCommand(killSwitchCommand(site.site, "c-2", "L3", kStart), forger));
  cloud.publish(topics.cmd, "not a signed note");
  executor.runReady();
  BOOST_TEST(target.levels == std::vector<int>{1});
  BOOST_REQUIRE_EQUAL(cloud.results.size(), 4u);
  std::vector<sync::command::CommandResult> results;
  for (const std::string& payload : cloud.results) {
    auto r = sync::command::parseCommandResult(payload);
    BOOST_REQUIRE_MESSAGE(r, r.message());
    results.push_back(*r);
  }
  BOOST_TEST(results[0].outcome == "applied");
  BOOST_TEST(results[0].id.value_or("") == "c-1");
  BOOST_TEST(results[0].message == "kill switch set to L1");
  BOOST_TEST(cloud.results[1] == cloud.results[0]);  // the redelivery gets the stored result
  BOOST_TEST(results[2].outcome == "refused");
  BOOST_TEST(results[2].code == "unknown_key");
  BOOST_TEST(!results[2].id);  // an unverified id is never echoed
  BOOST_TEST(results[3].outcome == "refused");
  BOOST_TEST(results[3].code == "unsigned");
  BOOST_TEST(stats().commandsApplied == 1u);
  BOOST_TEST(stats().commandsRefused == 3u);

  // Sent while the box is away: its persistent session keeps the command until it is back.
  BOOST_REQUIRE(broker.dropConnection(boxId()));
  executor.runReady();
  cloud.publish(topics.cmd,
                signCommand(killSwitchCommand(site.site, "c-3", "L2", kStart), cloudKey));
  executor.runReady();
  BOOST_TEST(broker.queuedFor(boxId()) == 1u);
  BOOST_TEST(target.levels.size() == 1u);
  executor.advance(1s);
  BOOST_TEST(target.levels == (std::vector<int>{1, 2}));
  BOOST_REQUIRE_EQUAL(cloud.results.size(), 5u);
  BOOST_TEST(cloud.results[4].find("\"outcome\":\"applied\"") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::test
