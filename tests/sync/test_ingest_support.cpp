#include "tests/sync/test_ingest_support.h"

#include <unistd.h>

#include <random>
#include <stdexcept>

#include "store/audit_entry.h"
#include "sync/paho_transport.h"
#include "tests/support/postgres_server.h"

namespace atoms::test {

using sync::ingest::IngestStore;

bool ingestTestsOnPostgres() {
  const char* store = std::getenv("ATOMS_TEST_INGEST_STORE");
  return store != nullptr && std::string(store) == "postgres";
}

std::string ingestStoreLocation(const TempDir& tmp, const std::string& name) {
  if (!ingestTestsOnPostgres()) return tmp.sub(name);
  auto server = testing::PostgresServer::shared();
  if (!server) throw std::runtime_error(server.message());
  static int created = 0;
  auto uri = (*server)->createDatabase(name + "_" + std::to_string(++created));
  if (!uri) throw std::runtime_error(uri.message());
  return *uri;
}

boost::test_tools::assertion_result OnlyForStore::operator()(boost::unit_test::test_unit_id) const {
  boost::test_tools::assertion_result applies(postgres == ingestTestsOnPostgres());
  applies.message() << "only for the " << (postgres ? "PostgreSQL" : "embedded") << " store";
  return applies;
}

IngestRig::IngestRig(const MosquittoBroker& broker, const std::string& storeDir,
                     const std::vector<sync::ingest::SiteKey>& sites, const std::string& clientId,
                     sync::ingest::IngestOptions options) {
  auto started = worker.call([&]() -> std::string {
    auto opened = IngestStore::open(storeDir, IngestStore::Mode::kReadWrite);
    if (!opened) return opened.message();
    store = std::move(*opened);
    if (auto added = store->registerSites(sites, formatTimestamp(std::chrono::system_clock::now()));
        !added) {
      return added.message();
    }
    ingester = std::make_unique<sync::ingest::Ingester>(
        *store, [] { return std::chrono::system_clock::now(); });
    sync::MqttSettings settings;
    settings.uri = broker.plainUri();
    settings.clientId = clientId;
    settings.username = MosquittoBroker::kIngestUser;
    settings.password = broker.password(MosquittoBroker::kIngestUser);
    settings.sessionExpiry = std::chrono::seconds(600);
    auto transport = sync::PahoTransport::create(settings, worker);
    if (!transport) return transport.message();
    auto rng = std::make_shared<std::mt19937_64>(11);
    options.backoff = {std::chrono::milliseconds(50), std::chrono::milliseconds(400)};
    auto created = sync::ingest::IngestService::create(
        sync::ingest::IngestService::Deps{*ingester, std::move(*transport), worker,
                                          [rng] { return (*rng)(); }, nullptr},
        options);
    if (!created) return created.message();
    service = std::move(*created);
    service->start();
    return {};
  });
  error = started ? *started : "the worker did not answer";
}

IngestRig::~IngestRig() {
  (void)worker.call([this] {
    service.reset();
    ingester.reset();
    store.reset();
    return true;
  });
  worker.stop();
}

sync::ingest::IngestStats IngestRig::stats() {
  auto s = worker.call([this] { return service ? service->stats() : sync::ingest::IngestStats{}; });
  return s ? *s : sync::ingest::IngestStats{};
}

bool IngestRig::ready(const MosquittoBroker& broker, std::chrono::milliseconds deadline) {
  const auto until = Clock::now() + deadline;
  if (!eventually([this] { return stats().connected; }, deadline)) return false;
  // The SUBACK has no event of its own: a message that arrives proves the subscription.
  MqttPeer probe(broker, MosquittoBroker::kIngestUser, "probe-" + std::to_string(::getpid()));
  while (Clock::now() < until) {
    probe.publish("atoms/v1/zz-probe/audit", "probe");
    if (eventually([this] { return stats().messages > 0; }, std::chrono::milliseconds(200))) {
      return true;
    }
  }
  return false;
}

sync::ingest::SiteKey siteKeyOf(const SiteDir& site) {
  auto key = VerifierKey::parse(site.verifierKey);
  if (!key) throw std::runtime_error(key.message());
  return sync::ingest::SiteKey{site.site, key->publicKey()};
}

namespace {
std::unique_ptr<IngestStore> openView(const std::string& dir) {
  auto s = IngestStore::open(dir, IngestStore::Mode::kReadOnly);
  if (!s) throw std::runtime_error(s.message());
  return std::move(*s);
}
}  // namespace

std::uint64_t storedEntryCount(const std::string& dir, const std::string& site) {
  auto n = openView(dir)->entryCount(site);
  if (!n) throw std::runtime_error(n.message());
  return *n;
}

std::vector<std::string> storedEntries(const std::string& dir, const std::string& site) {
  auto e = openView(dir)->entries(site, 0, std::uint64_t{1} << 53);
  if (!e) throw std::runtime_error(e.message());
  return *e;
}

std::uint64_t verifiedSize(const std::string& dir, const std::string& site) {
  auto rec = openView(dir)->loadSite(site);
  if (!rec) throw std::runtime_error(rec.message());
  return *rec ? (*rec)->state.size : 0;
}

std::vector<sync::ingest::EvidenceRecord> storedEvidence(const std::string& dir,
                                                         const std::string& site) {
  auto e = openView(dir)->evidence(site);
  if (!e) throw std::runtime_error(e.message());
  return *e;
}

MqttPeer::MqttPeer(const MosquittoBroker& broker, const std::string& user,
                   const std::string& clientId) {
  client_ = std::make_unique<mqtt::async_client>(broker.plainUri(), clientId,
                                                 mqtt::create_options(5), nullptr);
  client_->set_message_callback([this](mqtt::const_message_ptr m) {
    try {
      std::lock_guard lock(mutex_);
      messages_.emplace_back(m->get_topic(), m->to_string());
      changed_.notify_all();
    } catch (...) {
    }
  });
  client_
      ->connect(mqtt::connect_options_builder()
                    .mqtt_version(5)
                    .clean_start(true)
                    .user_name(user)
                    .password(broker.password(user))
                    .finalize())
      ->wait_for(std::chrono::seconds(10));
}

MqttPeer::~MqttPeer() {
  try {
    client_->disable_callbacks();
    if (client_->is_connected()) client_->disconnect()->wait_for(2000);
  } catch (...) {
  }
}

bool MqttPeer::publish(const std::string& topic, const std::string& payload, bool retained) {
  try {
    auto tok = client_->publish(topic, payload.data(), payload.size(), 1, retained);
    return tok->wait_for(std::chrono::seconds(10)) && tok->get_reason_code() < 0x80;
  } catch (...) {
    return false;
  }
}

bool MqttPeer::subscribe(const std::string& filter) {
  try {
    return client_->subscribe(filter, 1)->wait_for(std::chrono::seconds(10));
  } catch (...) {
    return false;
  }
}

std::string MqttPeer::waitFor(const std::string& topic,
                              const std::function<bool(const std::string&)>& pred,
                              std::chrono::milliseconds deadline) {
  std::unique_lock lock(mutex_);
  std::string found;
  changed_.wait_for(lock, deadline, [&] {
    for (const auto& [t, p] : messages_) {
      if (t == topic && pred(p)) {
        found = p;
        return true;
      }
    }
    return false;
  });
  return found;
}

std::vector<std::string> MqttPeer::received(const std::string& topic) {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (const auto& [t, p] : messages_) {
    if (t == topic) out.push_back(p);
  }
  return out;
}

}  // namespace atoms::test
