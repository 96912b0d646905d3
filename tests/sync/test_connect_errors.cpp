#include <boost/test/unit_test.hpp>
// The one-line reasons PahoTransport gives (for the box's uplink and the cloud ingest alike) when
// the broker refuses the password, the broker is unreachable, and TLS fails for an unknown CA or
// for a certificate of another host, against a real mosquitto (password file, ACL, a test CA made
// by openssl at run time). Mosquitto 2.0 grants every subscription (its ACL applies on delivery),
// so a refused SUBACK cannot be shown here (docs/sync-ingest.md, section 3).
#include <chrono>
#include <condition_variable>
#include <mutex>

#include "sync/paho_transport.h"
#include "sync/worker_thread.h"
#include "tests/daemon/helpers.h"
#include "tests/sync/mqtt_fixtures.h"

namespace atoms::test {
namespace {

using namespace std::chrono_literals;

// What one connection attempt reported: "connected", or the first connect failure.
std::string firstFailureOf(sync::MqttSettings settings) {
  settings.clientId = "errors-probe";
  settings.sessionExpiry = 0s;
  sync::WorkerThread worker;
  std::mutex mutex;
  std::condition_variable changed;
  std::string failure;
  auto report = [&](const std::string& text) {
    std::lock_guard lock(mutex);
    if (failure.empty()) failure = text.empty() ? "(empty reason)" : text;
    changed.notify_all();
  };
  std::unique_ptr<sync::PahoTransport> transport;
  auto created = worker.call([&]() -> std::string {
    auto t = sync::PahoTransport::create(settings, worker);
    if (!t) return t.message();
    transport = std::move(*t);
    transport->setEvents(sync::TransportEvents{
        .connected = [&](bool) { report("connected"); },
        .connectFailed = [&](const std::string& why) { report("connect: " + why); },
    });
    if (Status s = transport->connect(); !s) return s.message();
    return {};
  });
  BOOST_REQUIRE(created);
  BOOST_REQUIRE_MESSAGE(created->empty(), *created);
  std::string result;
  {
    std::unique_lock lock(mutex);
    changed.wait_for(lock, 30s, [&] { return !failure.empty(); });
    result = failure;
  }
  (void)worker.call([&] {
    transport.reset();
    return true;
  });
  worker.stop();
  return result;
}

struct ErrorsFixture {
  explicit ErrorsFixture(testing::BrokerOptions o = {}) : broker(withFailed(std::move(o))) {
    Status s = broker.start();
    BOOST_REQUIRE_MESSAGE(s, s.message());
  }
  static testing::BrokerOptions withFailed(testing::BrokerOptions o) {
    o.failed = currentTestFailed;
    return o;
  }
  sync::MqttSettings ingestSettings(const std::string& uri) const {
    sync::MqttSettings s;
    s.uri = uri;
    s.username = MosquittoBroker::kIngestUser;
    s.password = broker.password(MosquittoBroker::kIngestUser);
    return s;
  }
  MosquittoBroker broker;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(mqtt_connect_errors)

BOOST_FIXTURE_TEST_CASE(aWrongPasswordSaysTheBrokerRefusedTheCredentials, ErrorsFixture) {
  sync::MqttSettings s = ingestSettings(broker.plainUri());
  s.password = "not-the-password";
  const std::string why = firstFailureOf(s);
  BOOST_TEST_MESSAGE(why);
  BOOST_TEST(why.starts_with("connect: the broker refused the connection: "));
  // Mosquitto answers a wrong password with "not authorised".
  BOOST_TEST(why ==
             "connect: the broker refused the connection: not authorised (a wrong user "
             "name or password, or a user the broker does not let connect) (CONNACK "
             "reason 0x87)");
  BOOST_TEST(!contains(why, "\n"));

  s.mqttVersion = 4;
  const std::string why311 = firstFailureOf(s);
  BOOST_TEST_MESSAGE(why311);
  BOOST_TEST(why311.starts_with("connect: the broker refused the connection: "));
  BOOST_TEST(contains(why311, "(CONNACK return code "));
  BOOST_TEST(!contains(why311, "\n"));
}

BOOST_FIXTURE_TEST_CASE(aBrokerThatIsNotListeningIsUnreachable, ErrorsFixture) {
  const std::string uri = broker.plainUri();
  BOOST_REQUIRE(broker.stop());
  const std::string why = firstFailureOf(ingestSettings(uri));
  BOOST_TEST_MESSAGE(why);
  BOOST_TEST(why == "connect: the broker " + uri.substr(std::string("tcp://").size()) +
                        " is unreachable: Connection refused");
}

BOOST_FIXTURE_TEST_CASE(anUnknownCaIsNamedWithOpensslsReason, ErrorsFixture) {
  sync::MqttSettings s = ingestSettings(broker.tlsPasswordUri());
  s.caFile = broker.wrongCaFile();
  const std::string why = firstFailureOf(s);
  BOOST_TEST_MESSAGE(why);
  // OpenSSL's reason follows (here "self-signed certificate in certificate chain").
  BOOST_TEST(
      why.starts_with("connect: TLS: the broker's certificate is not trusted by the CA "
                      "file " +
                      broker.wrongCaFile() + " (unknown CA; OpenSSL: "));
  BOOST_TEST(!contains(why, "mismatch"));
}

struct OtherHostFixture : ErrorsFixture {
  OtherHostFixture() : ErrorsFixture(otherHost()) {}
  static testing::BrokerOptions otherHost() {
    testing::BrokerOptions o;
    o.serverAltNames = "DNS:broker.invalid";
    return o;
  }
};

BOOST_FIXTURE_TEST_CASE(aCertificateOfAnotherHostIsAHostNameMismatch, OtherHostFixture) {
  sync::MqttSettings s = ingestSettings(broker.tlsPasswordUri());
  s.caFile = broker.caFile();
  const std::string why = firstFailureOf(s);
  BOOST_TEST_MESSAGE(why);
  BOOST_TEST(why ==
             "connect: TLS: the broker's certificate is not issued for 127.0.0.1 (host "
             "name mismatch; OpenSSL: IP address mismatch)");

  // The right CA and host still connect: the probe is not in the way.
  sync::MqttSettings ok = ingestSettings(broker.plainUri());
  BOOST_TEST(firstFailureOf(ok) == "connected");
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::test
