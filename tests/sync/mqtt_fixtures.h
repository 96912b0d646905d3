// Fixtures of the MQTT sync tests (test_sync_mqtt) and the sync benchmark: a test cloud peer
// (TestAcker) that verifies segments with SegmentVerifier and publishes acks, and an uplink running
// on its own WorkerThread (the site directory and CloudRecord are in sync_fixtures.h). Waiting is
// always on a condition with a deadline.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "store/site_store.h"
#include "sync/mqtt_uplink.h"
#include "sync/paho_transport.h"
#include "sync/segment.h"
#include "sync/worker_thread.h"
#include "tests/support/mosquitto_broker.h"
#include "tests/sync/sync_fixtures.h"

namespace atoms::test {

using atoms::testing::MosquittoBroker;
using Clock = std::chrono::steady_clock;

// Polls cond every few milliseconds until it holds or the deadline passes. For state that has no
// notification of its own (another thread's stats); never used to wait a fixed time.
bool eventually(const std::function<bool()>& cond,
                std::chrono::milliseconds deadline = std::chrono::seconds(30));

// The cloud peer of the tests: connects as the broker's "ingest" user, subscribes to
// atoms/v1/+/audit and atoms/v1/+/status, verifies each site's segments in order and acks the
// verified size (also after a duplicate, as the protocol asks). Keeps every accepted entry text.
class TestAcker {
 public:
  enum class Mode { kAck, kSilent };

  TestAcker(const std::string& uri, const std::string& password,
            std::map<std::string, VerifierKey> sites);
  ~TestAcker();

  bool connected(std::chrono::milliseconds deadline = std::chrono::seconds(10));
  void setMode(Mode mode);
  // Publishes a raw payload on a site's ack topic (tests of refused acks); waits for PUBACK
  // (the test thread is not a Paho callback).
  void publishAck(const std::string& site, const std::string& payload);

  // Waits until the verified size of site reaches at least size.
  bool waitVerified(const std::string& site, std::uint64_t size,
                    std::chrono::milliseconds deadline = std::chrono::seconds(60));
  bool waitStatus(const std::string& site, const std::function<bool(const std::string&)>& pred,
                  std::chrono::milliseconds deadline = std::chrono::seconds(30));

  std::uint64_t verified(const std::string& site);
  Hash32 verifiedRoot(const std::string& site);
  std::vector<std::string> entries(const std::string& site);
  std::map<std::string, std::uint64_t> issues(const std::string& site);  // issue name -> count
  std::uint64_t segments(const std::string& site);
  std::string lastStatus(const std::string& site);

 private:
  void onMessage(const std::string& topic, const std::string& payload);
  template <class P>
  bool waitFor(P pred, std::chrono::milliseconds deadline) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, deadline, pred);
  }

  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::mutex mutex_;
  std::condition_variable changed_;
  CloudRecord record_;  // guarded by mutex_
  Mode mode_ = Mode::kAck;
};

// An MqttUplink on its own WorkerThread over a PahoTransport, for a state directory.
struct UplinkRig {
  UplinkRig(const std::string& stateDir, sync::MqttSettings settings,
            sync::UplinkOptions options = testOptions());
  ~UplinkRig();
  static sync::UplinkOptions testOptions();

  // Runs fn(store) on the worker.
  template <class F>
  auto onOwner(F fn) {
    return worker.call([this, fn = std::move(fn)]() mutable { return fn(*store); });
  }
  sync::UplinkStats stats();
  std::uint64_t append(std::uint64_t entries, std::size_t batch = 16);

  sync::WorkerThread worker;
  std::unique_ptr<SiteStore> store;
  std::unique_ptr<sync::MqttUplink> uplink;
  std::string error;  // why the rig could not start (empty when it did)
};

// Settings for site over the broker's plain listener with its password.
sync::MqttSettings plainSettings(const MosquittoBroker& broker, const std::string& site);
// Client-certificate TLS settings for site.
sync::MqttSettings certSettings(const MosquittoBroker& broker, const std::string& site);

// For BrokerOptions::failed: whether the current Boost test case has failed.
bool currentTestFailed();

}  // namespace atoms::test
