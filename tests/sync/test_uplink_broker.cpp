#include <boost/test/unit_test.hpp>
// The uplink against a real mosquitto (tests/support/mosquitto_broker.h) and a test cloud peer:
// TLS and ACLs, ordered publishing and acks, resume, broker outages, refused acks.
#include <mqtt/async_client.h>

#include "store/audit_entry.h"
#include "store/merkle.h"
#include "sync/ack.h"
#include "sync/status_report.h"
#include "sync/sync_state.h"
#include "sync/topics.h"
#include "tests/sync/mqtt_fixtures.h"

namespace atoms::test {
namespace {

using namespace std::chrono_literals;

testing::BrokerOptions brokerOptions() {
  testing::BrokerOptions o;
  o.failed = currentTestFailed;
  return o;
}

std::map<std::string, VerifierKey> keysOf(const SiteDir& site) {
  return {{site.site, *VerifierKey::parse(site.verifierKey)}};
}

struct Fixture {
  Fixture() : broker(brokerOptions()) {
    Status s = broker.start();
    BOOST_REQUIRE_MESSAGE(s, s.message());
  }
  MosquittoBroker broker;
  SiteDir site;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(uplink_against_mosquitto)

BOOST_FIXTURE_TEST_CASE(drainsABacklogInOrderOverTlsWithAClientCertificate, Fixture) {
  TestAcker acker(broker.plainUri(), broker.password(MosquittoBroker::kIngestUser), keysOf(site));
  BOOST_REQUIRE(acker.connected());
  UplinkRig rig(site.dir, certSettings(broker, site.site));
  BOOST_REQUIRE_MESSAGE(rig.error.empty(), rig.error);
  const std::uint64_t size = rig.append(1000);

  BOOST_REQUIRE(acker.waitVerified(site.site, size));
  BOOST_REQUIRE(eventually([&] { return rig.stats().ackedSize == size; }));
  requireExactlyOnceInOrder(acker.entries(site.site), size);
  const auto stats = rig.stats();
  BOOST_TEST(stats.segmentsPublished > 10u);  // 4 KiB segments: the backlog was cut up
  BOOST_TEST(stats.acksRefused == 0u);
  // Synced is durable: the acked size and root are in the store.
  auto stored = rig.onOwner([](SiteStore& s) { return *sync::loadAckedState(s.db()); });
  BOOST_REQUIRE(stored);
  BOOST_TEST(stored->size == size);
  BOOST_TEST(stored->root == acker.verifiedRoot(site.site));
  // The retained status says the backlog is empty.
  BOOST_REQUIRE(acker.waitStatus(site.site, [&](const std::string& text) {
    auto st = sync::parseStatus(text);
    return st && st->online && st->acked == size && st->backlogEntries() == 0;
  }));
}

BOOST_FIXTURE_TEST_CASE(connectsOverTlsWithUsernameAndPassword, Fixture) {
  TestAcker acker(broker.plainUri(), broker.password(MosquittoBroker::kIngestUser), keysOf(site));
  BOOST_REQUIRE(acker.connected());
  sync::MqttSettings settings = plainSettings(broker, site.site);
  settings.uri = broker.tlsPasswordUri();
  settings.caFile = broker.caFile();
  UplinkRig rig(site.dir, settings);
  BOOST_REQUIRE_MESSAGE(rig.error.empty(), rig.error);
  const std::uint64_t size = rig.append(50);
  BOOST_REQUIRE(acker.waitVerified(site.site, size));
  BOOST_REQUIRE(eventually([&] { return rig.stats().ackedSize == size; }));
}

BOOST_FIXTURE_TEST_CASE(refusesABrokerItsCaDoesNotVouchFor, Fixture) {
  sync::MqttSettings settings = certSettings(broker, site.site);
  settings.caFile = broker.wrongCaFile();
  UplinkRig rig(site.dir, settings);
  BOOST_REQUIRE_MESSAGE(rig.error.empty(), rig.error);
  rig.append(10);
  BOOST_REQUIRE(eventually([&] { return rig.stats().connectFailures >= 2; }));
  BOOST_TEST(rig.stats().connects == 0u);
  BOOST_TEST(rig.stats().segmentsPublished == 0u);
}

BOOST_FIXTURE_TEST_CASE(theBrokerRefusesAClientCertificateOfAnotherCa, Fixture) {
  sync::MqttSettings settings = certSettings(broker, site.site);
  settings.clientCert = broker.foreignClientCert().cert;
  settings.clientKey = broker.foreignClientCert().key;
  UplinkRig rig(site.dir, settings);
  BOOST_REQUIRE_MESSAGE(rig.error.empty(), rig.error);
  BOOST_REQUIRE(eventually([&] { return rig.stats().connectFailures >= 2; }));
  BOOST_TEST(rig.stats().connects == 0u);
}

BOOST_FIXTURE_TEST_CASE(aSiteCannotPublishOnAnotherSitesTopics, Fixture) {
  TestAcker acker(broker.plainUri(), broker.password(MosquittoBroker::kIngestUser), keysOf(site));
  BOOST_REQUIRE(acker.connected());
  // site-a, with its own valid credentials, tries site-b's audit and status topics.
  mqtt::async_client client(broker.plainUri(), "intruder", mqtt::create_options(5), nullptr);
  client
      .connect(mqtt::connect_options_builder()
                   .mqtt_version(5)
                   .user_name("site-a")
                   .password(broker.password("site-a"))
                   .finalize())
      ->wait_for(5000);
  BOOST_REQUIRE(client.is_connected());
  for (const std::string& topic :
       {sync::siteTopics("site-b").audit, sync::siteTopics("site-b").status}) {
    auto tok = client.publish(topic, "forged", 6, 1, false);
    BOOST_CHECK_THROW(tok->wait(), mqtt::exception);  // PUBACK "not authorized" (MQTT 5)
    BOOST_TEST(tok->get_reason_code() == mqtt::ReasonCode::NOT_AUTHORIZED);
  }
  // Its own status topic works, and that message is the only one the cloud peer sees from it.
  client.publish(sync::siteTopics("site-a").status, "marker", 6, 1, false)->wait_for(5000);
  BOOST_REQUIRE(acker.waitStatus("site-a", [](const std::string& s) { return s == "marker"; }));
  BOOST_TEST(acker.lastStatus("site-b").empty());

  // Nor may it read another site's acks: mosquitto grants the subscription but delivers nothing
  // the ACL does not let it read. The cloud acks site-b, then site-a; only site-a's arrives.
  client.start_consuming();
  client.subscribe("atoms/v1/+/ack", 1)->wait_for(5000);
  acker.publishAck("site-b", "for site-b");
  acker.publishAck("site-a", "for site-a");
  auto first = client.try_consume_message_for(std::chrono::seconds(10));
  BOOST_REQUIRE(first);
  BOOST_TEST(first->get_topic() == sync::siteTopics("site-a").ack);
  BOOST_TEST(first->to_string() == "for site-a");
  client.disconnect()->wait_for(5000);
}

BOOST_FIXTURE_TEST_CASE(resumesFromTheAckedSizeAfterARestartOfTheUplink, Fixture) {
  TestAcker acker(broker.plainUri(), broker.password(MosquittoBroker::kIngestUser), keysOf(site));
  BOOST_REQUIRE(acker.connected());
  std::uint64_t firstAcked = 0;
  std::uint64_t size = 0;
  {
    UplinkRig rig(site.dir, plainSettings(broker, site.site));
    BOOST_REQUIRE_MESSAGE(rig.error.empty(), rig.error);
    size = rig.append(600);
    BOOST_REQUIRE(eventually([&] { return rig.stats().ackedSize > 0; }));
    acker.setMode(TestAcker::Mode::kSilent);  // the cloud stops acking mid-backlog
    firstAcked = rig.stats().ackedSize;
  }
  BOOST_TEST_MESSAGE("first run acked " << firstAcked << " of " << size);
  acker.setMode(TestAcker::Mode::kAck);
  UplinkRig rig(site.dir, plainSettings(broker, site.site));
  BOOST_REQUIRE_MESSAGE(rig.error.empty(), rig.error);
  const auto start = rig.stats();
  BOOST_TEST(start.ackedSize >= firstAcked);  // resumed from the stored ack, not from 0
  BOOST_REQUIRE(acker.waitVerified(site.site, size));
  BOOST_REQUIRE(eventually([&] { return rig.stats().ackedSize == size; }));
  requireExactlyOnceInOrder(acker.entries(site.site), size);
}

BOOST_FIXTURE_TEST_CASE(drainsWhatWasAppendedWhileTheBrokerWasDown, Fixture) {
  TestAcker acker(broker.plainUri(), broker.password(MosquittoBroker::kIngestUser), keysOf(site));
  BOOST_REQUIRE(acker.connected());
  UplinkRig rig(site.dir, plainSettings(broker, site.site));
  BOOST_REQUIRE_MESSAGE(rig.error.empty(), rig.error);
  std::uint64_t size = rig.append(100);
  BOOST_REQUIRE(eventually([&] { return rig.stats().ackedSize == size; }));

  for (bool keepPersistence : {true, false}) {
    BOOST_TEST_CONTEXT("broker persistence kept: " << keepPersistence) {
      const auto lost = rig.stats().connectionsLost;
      if (keepPersistence) {
        BOOST_REQUIRE(broker.stop());
      } else {
        broker.kill();
      }
      BOOST_REQUIRE(eventually([&] { return rig.stats().connectionsLost > lost; }));
      size = rig.append(300);  // the box keeps working while the link is down
      BOOST_REQUIRE(eventually([&] { return rig.stats().connectFailures > 0; }));
      BOOST_TEST(rig.stats().ackedSize < size);
      BOOST_REQUIRE(broker.restart(keepPersistence));
      BOOST_REQUIRE(acker.waitVerified(site.site, size));
      BOOST_REQUIRE(eventually([&] { return rig.stats().ackedSize == size; }));
    }
  }
  requireExactlyOnceInOrder(acker.entries(site.site), size);
  BOOST_REQUIRE(acker.waitStatus(site.site, [&](const std::string& text) {
    auto st = sync::parseStatus(text);
    return st && st->online && st->backlogEntries() == 0 && st->acked == size;
  }));
}

BOOST_FIXTURE_TEST_CASE(refusesAndAuditsAnAckThatDoesNotMatchItsOwnTree, Fixture) {
  TestAcker acker(broker.plainUri(), broker.password(MosquittoBroker::kIngestUser), keysOf(site));
  BOOST_REQUIRE(acker.connected());
  acker.setMode(TestAcker::Mode::kSilent);  // only the forged acks below reach the box
  UplinkRig rig(site.dir, plainSettings(broker, site.site));
  BOOST_REQUIRE_MESSAGE(rig.error.empty(), rig.error);
  const std::uint64_t size = rig.append(64, 16);
  BOOST_REQUIRE(acker.waitVerified(site.site, size));
  BOOST_REQUIRE(eventually([&] { return rig.stats().connected; }));

  Hash32 wrong = acker.verifiedRoot(site.site);
  wrong[0] ^= 1;
  acker.publishAck(site.site, sync::ackJson(sync::Ack{site.site, size, wrong}));
  BOOST_REQUIRE(eventually([&] { return rig.stats().acksRefused == 1; }));
  // A size the box never signed (inside the log, between two batches, and beyond it).
  auto rootAt17 = rig.onOwner([](SiteStore& s) { return *s.log().tree().rootAt(17); });
  acker.publishAck(site.site, sync::ackJson(sync::Ack{site.site, 17, *rootAt17}));
  acker.publishAck(site.site, sync::ackJson(sync::Ack{site.site, size + 16, wrong}));
  // Another site's ack, and garbage.
  acker.publishAck(site.site,
                   sync::ackJson(sync::Ack{"site-b", size, acker.verifiedRoot(site.site)}));
  acker.publishAck(site.site, "{\"size\":1}");
  BOOST_REQUIRE(eventually([&] { return rig.stats().acksRefused == 5; }));
  const auto stats = rig.stats();
  BOOST_TEST(stats.ackedSize == 0u);  // nothing was marked synced
  BOOST_TEST(stats.acksAccepted == 0u);

  // The first refusal is in the audit log (later ones within a minute are counted, not logged).
  auto refused = rig.onOwner([](SiteStore& s) {
    std::vector<std::string> kinds;
    for (std::uint64_t i = 0; i < s.log().size(); ++i) {
      auto e = parseEntry(*s.log().entryText(i));
      if (e->kind == "sync.ack.refused") kinds.push_back(*s.log().entryText(i));
    }
    return kinds;
  });
  BOOST_REQUIRE(refused);
  BOOST_REQUIRE_EQUAL(refused->size(), 1u);
  BOOST_TEST(refused->front().find("does not match") != std::string::npos);

  // The real ack is still accepted afterwards (the audit entry made the log one longer).
  acker.setMode(TestAcker::Mode::kAck);
  const std::uint64_t grown = rig.stats().logSize;
  BOOST_REQUIRE(acker.waitVerified(site.site, grown, 30s));
  BOOST_REQUIRE(eventually([&] { return rig.stats().ackedSize == grown; }));
}

BOOST_FIXTURE_TEST_CASE(duplicateAcksAreHarmless, Fixture) {
  TestAcker acker(broker.plainUri(), broker.password(MosquittoBroker::kIngestUser), keysOf(site));
  BOOST_REQUIRE(acker.connected());
  UplinkRig rig(site.dir, plainSettings(broker, site.site));
  BOOST_REQUIRE_MESSAGE(rig.error.empty(), rig.error);
  const std::uint64_t size = rig.append(200);
  BOOST_REQUIRE(eventually([&] { return rig.stats().ackedSize == size; }));
  const auto before = rig.stats();
  const std::string ack = sync::ackJson(sync::Ack{site.site, size, acker.verifiedRoot(site.site)});
  for (int i = 0; i < 5; ++i) acker.publishAck(site.site, ack);
  // An old ack (a smaller signed size, redelivered late) is a duplicate too.
  auto old = rig.onOwner([](SiteStore& s) {
    const std::uint64_t n = s.log().signedSizes().front();
    return std::pair{n, *s.log().tree().rootAt(n)};
  });
  acker.publishAck(site.site, sync::ackJson(sync::Ack{site.site, old->first, old->second}));
  BOOST_REQUIRE(eventually([&] { return rig.stats().acksDuplicate >= before.acksDuplicate + 6; }));
  const auto after = rig.stats();
  BOOST_TEST(after.ackedSize == size);
  BOOST_TEST(after.acksRefused == 0u);
  BOOST_TEST(after.segmentsPublished == before.segmentsPublished);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::test
