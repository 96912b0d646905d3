#include "tests/sync/mqtt_fixtures.h"

#include <mqtt/async_client.h>
#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <boost/test/framework.hpp>
#include <boost/test/results_collector.hpp>
#include <boost/test/tree/test_unit.hpp>
#include <random>

#include "sync/topics.h"

namespace atoms::test {

bool eventually(const std::function<bool()>& cond, std::chrono::milliseconds deadline) {
  const auto until = Clock::now() + deadline;
  while (!cond()) {
    if (Clock::now() >= until) return false;
    ::poll(nullptr, 0, 10);
  }
  return true;
}

bool currentTestFailed() {
  try {
    const auto id = boost::unit_test::framework::current_test_case().p_id;
    return !boost::unit_test::results_collector.results(id).passed();
  } catch (...) {
    return false;
  }
}

// ------------------------------------------------------------------------------------------
// TestAcker

struct TestAcker::Impl {
  std::unique_ptr<mqtt::async_client> client;
  std::atomic<bool> up{false};
  std::mutex tokensMutex;
  std::vector<mqtt::token_ptr> subscribed;  // the SUBSCRIBE tokens of the last connection
};

TestAcker::TestAcker(const std::string& uri, const std::string& password,
                     std::map<std::string, VerifierKey> sites)
    : impl_(std::make_unique<Impl>()), record_(std::move(sites)) {
  static std::atomic<int> counter{0};
  const std::string id =
      "test-ingest-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
  impl_->client = std::make_unique<mqtt::async_client>(uri, id, mqtt::create_options(5), nullptr);
  impl_->client->set_connected_handler([this](const std::string&) {
    try {
      // No waiting here: this runs on Paho's thread.
      auto audit = impl_->client->subscribe("atoms/v1/+/audit", 1);
      auto status = impl_->client->subscribe("atoms/v1/+/status", 1);
      {
        std::lock_guard lock(impl_->tokensMutex);
        impl_->subscribed = {audit, status};
      }
      impl_->up = true;
      changed_.notify_all();
    } catch (...) {
    }
  });
  impl_->client->set_connection_lost_handler([this](const std::string&) { impl_->up = false; });
  impl_->client->set_message_callback([this](mqtt::const_message_ptr m) {
    try {
      onMessage(m->get_topic(), m->to_string());
    } catch (...) {
    }
  });
  auto opts =
      mqtt::connect_options_builder()
          .mqtt_version(5)
          .clean_start(false)
          .properties({{mqtt::property::SESSION_EXPIRY_INTERVAL, 3600}})
          .user_name(MosquittoBroker::kIngestUser)
          .password(password)
          .automatic_reconnect(std::chrono::milliseconds(50), std::chrono::milliseconds(500))
          .finalize();
  impl_->client->connect(opts);  // completion shows in connected()
}

TestAcker::~TestAcker() {
  try {
    impl_->client->disable_callbacks();
    if (impl_->client->is_connected()) impl_->client->disconnect()->wait_for(2000);
  } catch (...) {
  }
}

bool TestAcker::connected(std::chrono::milliseconds deadline) {
  if (!waitFor([this] { return impl_->up.load(); }, deadline)) return false;
  std::vector<mqtt::token_ptr> tokens;
  {
    std::lock_guard lock(impl_->tokensMutex);
    tokens = impl_->subscribed;
  }
  for (const auto& t : tokens) {
    if (!t->wait_for(deadline)) return false;
  }
  return true;
}

void TestAcker::setMode(Mode mode) {
  std::lock_guard lock(mutex_);
  mode_ = mode;
}

void TestAcker::publishAck(const std::string& site, const std::string& payload) {
  impl_->client->publish(sync::siteTopics(site).ack, payload.data(), payload.size(), 1, false)
      ->wait_for(5000);
}

void TestAcker::onMessage(const std::string& topic, const std::string& payload) {
  std::lock_guard lock(mutex_);
  if (auto ack = record_.receive(topic, payload, mode_ == Mode::kAck)) {
    impl_->client->publish(ack->topic, ack->payload.data(), ack->payload.size(), 1, false);
  }
  changed_.notify_all();
}

bool TestAcker::waitVerified(const std::string& site, std::uint64_t size,
                             std::chrono::milliseconds deadline) {
  return waitFor([&] { return record_.holds(site) && record_.verified(site) >= size; }, deadline);
}

bool TestAcker::waitStatus(const std::string& site,
                           const std::function<bool(const std::string&)>& pred,
                           std::chrono::milliseconds deadline) {
  return waitFor(
      [&] {
        auto status = record_.status(site);
        return status && pred(*status);
      },
      deadline);
}

std::uint64_t TestAcker::verified(const std::string& site) {
  std::lock_guard lock(mutex_);
  return record_.verified(site);
}
Hash32 TestAcker::verifiedRoot(const std::string& site) {
  std::lock_guard lock(mutex_);
  return record_.verifiedRoot(site);
}
std::vector<std::string> TestAcker::entries(const std::string& site) {
  std::lock_guard lock(mutex_);
  return record_.entries(site);
}
std::map<std::string, std::uint64_t> TestAcker::issues(const std::string& site) {
  std::lock_guard lock(mutex_);
  return record_.issues(site);
}
std::uint64_t TestAcker::segments(const std::string& site) {
  std::lock_guard lock(mutex_);
  return record_.segments(site);
}
std::string TestAcker::lastStatus(const std::string& site) {
  std::lock_guard lock(mutex_);
  return record_.status(site).value_or("");
}

// ------------------------------------------------------------------------------------------
// UplinkRig

sync::UplinkOptions UplinkRig::testOptions() {
  sync::UplinkOptions o;
  o.maxSegmentBytes = 4096;
  o.window = 4;
  o.pollInterval = std::chrono::milliseconds(50);
  o.ackTimeout = std::chrono::milliseconds(2000);
  o.statusInterval = std::chrono::milliseconds(500);
  o.disconnectTimeout = std::chrono::milliseconds(1000);
  o.backoff = {std::chrono::milliseconds(50), std::chrono::milliseconds(400)};
  o.retention = std::chrono::hours(0);
  return o;
}

UplinkRig::UplinkRig(const std::string& stateDir, sync::MqttSettings settings,
                     sync::UplinkOptions options) {
  auto started = worker.call(
      [&]() -> std::string {
        auto opened = SiteStore::open(stateDir);
        if (!opened) return opened.message();
        store = std::move(*opened);
        settings.clientId = sync::boxClientId(store->identity().siteId);
        settings.will = sync::MqttMessage{sync::siteTopics(store->identity().siteId).status,
                                          sync::offlineStatusJson(store->identity().siteId)};
        auto transport = sync::PahoTransport::create(settings, worker);
        if (!transport) return transport.message();
        auto rng = std::make_shared<std::mt19937_64>(7);
        auto created = sync::MqttUplink::create(
            sync::MqttUplink::Deps{store->log(), store->db(), std::move(*transport), worker,
                                   [] { return std::chrono::system_clock::now(); },
                                   [rng] { return (*rng)(); }, nullptr},
            options);
        if (!created) return created.message();
        uplink = std::move(*created);
        uplink->start();
        return {};
      },
      std::chrono::minutes(10));  // opening a million-entry log on a busy machine takes a while
  error = started ? *started : "the worker did not answer";
}

UplinkRig::~UplinkRig() {
  (void)worker.call([this] {
    uplink.reset();
    store.reset();
    return true;
  });
  worker.stop();
}

sync::UplinkStats UplinkRig::stats() {
  auto s = worker.call([this] { return uplink ? uplink->stats() : sync::UplinkStats{}; });
  return s ? *s : sync::UplinkStats{};
}

std::uint64_t UplinkRig::append(std::uint64_t entries, std::size_t batch) {
  auto size = worker.call([this, entries, batch] {
    const std::uint64_t n = appendEntries(*store, entries, batch);
    if (uplink) uplink->poke();
    return n;
  });
  return size ? *size : 0;
}

sync::MqttSettings plainSettings(const MosquittoBroker& broker, const std::string& site) {
  sync::MqttSettings s;
  s.uri = broker.plainUri();
  s.username = site;
  s.password = broker.password(site);
  return s;
}

sync::MqttSettings certSettings(const MosquittoBroker& broker, const std::string& site) {
  sync::MqttSettings s;
  s.uri = broker.tlsCertUri();
  s.caFile = broker.caFile();
  s.clientCert = broker.clientCert(site).cert;
  s.clientKey = broker.clientCert(site).key;
  return s;
}

}  // namespace atoms::test
