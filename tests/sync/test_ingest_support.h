// Helpers of the ingest tests (test_ingest_*.cpp): an ingest (IngestService over Paho) on its own
// WorkerThread against the test broker, a read-only look into an ingest store, and a plain MQTT
// client for publishing by hand and watching topics. Waiting is on conditions with deadlines.
#pragma once

#include <mqtt/async_client.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "sync/ingest/ingest_service.h"
#include "sync/ingest/ingest_store.h"
#include "sync/ingest/ingester.h"
#include "sync/ingest/sites_file.h"
#include "tests/sync/mqtt_fixtures.h"

namespace atoms::test {

// An ingest process in miniature: store, ingester and service on one worker thread, connected as
// the broker's "ingest" user with client id clientId.
struct IngestRig {
  IngestRig(const MosquittoBroker& broker, const std::string& storeDir,
            const std::vector<sync::ingest::SiteKey>& sites, const std::string& clientId,
            sync::ingest::IngestOptions options = {});
  ~IngestRig();
  sync::ingest::IngestStats stats();
  // Waits until the service is connected and its subscription delivers: publishes a probe segment
  // on atoms/v1/zz-probe/audit (an unregistered site: recorded as such, nothing else) until
  // this ingester has received a message.
  bool ready(const MosquittoBroker& broker,
             std::chrono::milliseconds deadline = std::chrono::seconds(20));

  sync::WorkerThread worker;
  std::unique_ptr<sync::ingest::IngestStore> store;
  std::unique_ptr<sync::ingest::Ingester> ingester;
  std::unique_ptr<sync::ingest::IngestService> service;
  std::string error;  // why it could not start (empty when it did)
};

// True when this run of the ingest tests is for the PostgreSQL store (ATOMS_TEST_INGEST_STORE=
// postgres, as ctest's sync_mqtt_postgres.* entries set it); false for the embedded store.
bool ingestTestsOnPostgres();
// Where a test's ingest store lives: the directory `name` under `tmp` (not created), or, for the
// PostgreSQL run, a fresh database on this process's PostgreSQL test server (its URI).
std::string ingestStoreLocation(const TempDir& tmp, const std::string& name);
// Boost.Test preconditions: a test that only applies to one store.
struct OnlyForStore {
  bool postgres;
  boost::test_tools::assertion_result operator()(boost::unit_test::test_unit_id) const;
};

// A started test broker, a box's state directory and an ingest store (not created yet).
struct IngestFixture {
  IngestFixture() : broker(brokerOptions()) {
    Status s = broker.start();
    BOOST_REQUIRE_MESSAGE(s, s.message());
  }
  static testing::BrokerOptions brokerOptions() {
    testing::BrokerOptions o;
    o.failed = currentTestFailed;
    return o;
  }
  MosquittoBroker broker;
  SiteDir site;
  TempDir cloud;
  std::string storeDir = ingestStoreLocation(cloud, "ingest");
};

// The registration of a SiteDir.
sync::ingest::SiteKey siteKeyOf(const SiteDir& site);

// Read-only views of an ingest store, each through a fresh connection.
std::uint64_t storedEntryCount(const std::string& storeDir, const std::string& site);
std::vector<std::string> storedEntries(const std::string& storeDir, const std::string& site);
std::uint64_t verifiedSize(const std::string& storeDir, const std::string& site);
std::vector<sync::ingest::EvidenceRecord> storedEvidence(const std::string& storeDir,
                                                         const std::string& site);

// A plain MQTT 5 client (test thread; may wait) for a user of the test broker.
class MqttPeer {
 public:
  MqttPeer(const MosquittoBroker& broker, const std::string& user, const std::string& clientId);
  ~MqttPeer();
  // QoS 1; true when the broker acknowledged it.
  bool publish(const std::string& topic, const std::string& payload, bool retained = false);
  // Subscribes (QoS 1) and collects what arrives.
  bool subscribe(const std::string& filter);
  // Waits until a message on topic satisfies pred; returns its payload ("" after the deadline).
  std::string waitFor(const std::string& topic, const std::function<bool(const std::string&)>& pred,
                      std::chrono::milliseconds deadline = std::chrono::seconds(20));
  std::vector<std::string> received(const std::string& topic);

 private:
  std::unique_ptr<mqtt::async_client> client_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::pair<std::string, std::string>> messages_;
};

}  // namespace atoms::test
