#include <boost/test/unit_test.hpp>
// `atoms-edge serve` with sync on, as a child process against a real mosquitto: SIGKILLed again
// and again in the middle of publishing a backlog, the cloud peer still ends up with every entry
// exactly once, in order, verified, and the box's backlog reaches zero.
#include <signal.h>

#include "store/audit_entry.h"
#include "sync/status_report.h"
#include "sync/sync_state.h"
#include "tests/daemon/helpers.h"
#include "tests/sync/mqtt_fixtures.h"

namespace atoms::test {
namespace {

using namespace std::chrono_literals;

std::string serveConfig(const SiteDir& site, const MosquittoBroker& broker) {
  return site.tmp.write("atoms-edge.conf",
                        "state.dir = " + site.dir + "\n" + "sync.broker = " + broker.plainUri() +
                            "\n" + "sync.username = " + site.site + "\n" +
                            "sync.password_file = " + broker.passwordFile(site.site) + "\n" +
                            "sync.max_segment_bytes = 4096\n"
                            "sync.window = 3\n"
                            "sync.poll_interval_ms = 50\n"
                            "sync.ack_timeout_s = 2\n"
                            "sync.status_interval_s = 1\n"
                            "sync.backoff_min_ms = 50\n"
                            "sync.backoff_max_ms = 500\n");
}

bool isOffline(const std::string& text) {
  auto st = sync::parseStatus(text);
  return st && !st->online;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(serve_with_sync)

BOOST_AUTO_TEST_CASE(sigkilledMidBacklogRepeatedlyTheCloudStillGetsEveryEntryOnceInOrder) {
  testing::BrokerOptions options;
  options.failed = currentTestFailed;
  MosquittoBroker broker(options);
  BOOST_REQUIRE_MESSAGE(broker.start(), broker.log());
  SiteDir site;
  std::uint64_t size = 0;
  {
    auto store = SiteStore::open(site.dir);
    BOOST_REQUIRE_MESSAGE(store, store.message());
    size = appendEntries(**store, 3000, 8);
  }
  TestAcker acker(broker.plainUri(), broker.password(MosquittoBroker::kIngestUser),
                  {{site.site, *VerifierKey::parse(site.verifierKey)}});
  BOOST_REQUIRE(acker.connected());
  const std::string config = serveConfig(site, broker);

  constexpr int kKills = 5;
  for (int round = 0; round < kKills; ++round) {
    BOOST_TEST_CONTEXT("round " << round) {
      const std::uint64_t before = acker.verified(site.site);
      ChildProcess serve({edgeBinary(), "serve", "--config", config});
      BOOST_REQUIRE_MESSAGE(serve.waitForStderr("msg=\"connected to the broker\"", 20s),
                            serve.err());
      // Kill it once it has made some progress, while segments are still going out.
      BOOST_REQUIRE_MESSAGE(acker.waitVerified(site.site, std::min(size, before + 300), 30s),
                            serve.err());
      serve.signal(SIGKILL);
      BOOST_REQUIRE(serve.wait(10s).value_or(0) == 128 + SIGKILL);
      // The broker publishes the last will: the box is offline.
      BOOST_REQUIRE(acker.waitStatus(site.site, isOffline, 10s));
      BOOST_TEST_MESSAGE("round " << round << ": verified " << acker.verified(site.site) << " of "
                                  << size);
    }
  }
  BOOST_TEST(acker.verified(site.site) < size);  // the kills really were mid-backlog

  ChildProcess serve({edgeBinary(), "serve", "--config", config});
  BOOST_REQUIRE_MESSAGE(acker.waitVerified(site.site, size, 60s), serve.err());
  BOOST_REQUIRE(acker.waitStatus(site.site, [&](const std::string& text) {
    auto st = sync::parseStatus(text);
    return st && st->online && st->acked == size && st->backlogEntries() == 0;
  }));
  serve.signal(SIGTERM);
  BOOST_REQUIRE(serve.wait(20s).value_or(-1) == 0);
  BOOST_REQUIRE(acker.waitStatus(site.site, isOffline, 10s));  // a clean stop says so too
  BOOST_TEST_MESSAGE("serve log of the last run:\n" << serve.err());

  const std::vector<std::string> entries = acker.entries(site.site);
  BOOST_REQUIRE_EQUAL(entries.size(), size);
  for (std::uint64_t i = 0; i < size; ++i) {
    auto e = parseEntry(entries[i]);
    BOOST_REQUIRE(e);
    BOOST_REQUIRE_EQUAL(e->seq, i);
    BOOST_REQUIRE_EQUAL(e->body.find("n")->asInt(), static_cast<std::int64_t>(i));
  }
  const auto issues = acker.issues(site.site);
  BOOST_TEST(issues.count("fork") == 0u);
  BOOST_TEST(issues.count("invalid") == 0u);
  BOOST_TEST(issues.count("unparsable") == 0u);
  auto store = SiteStore::open(site.dir);
  BOOST_REQUIRE_MESSAGE(store, store.message());
  auto acked = sync::loadAckedState((*store)->db());
  BOOST_REQUIRE(acked);
  BOOST_TEST(acked->size == size);
}

BOOST_AUTO_TEST_CASE(serveRefusesToStartWhenThePasswordFileIsMissing) {
  SiteDir site;
  const std::string config = site.tmp.write(
      "atoms-edge.conf", "state.dir = " + site.dir +
                             "\nsync.broker = tcp://127.0.0.1:1\nsync.username = site-a\n"
                             "sync.password_file = " +
                             site.tmp.file("absent") + "\n");
  auto r = runEdge({"serve", "--config", config});
  BOOST_TEST(r.status == 78);
  BOOST_TEST(contains(r.err, "sync.password_file"));
}

BOOST_AUTO_TEST_CASE(serveWorksOfflineWhenTheBrokerIsUnreachable) {
  SiteDir site;
  const std::string config = site.tmp.write(
      "atoms-edge.conf", "state.dir = " + site.dir +
                             "\nsync.broker = tcp://127.0.0.1:1\n"
                             "sync.backoff_min_ms = 50\nsync.backoff_max_ms = 100\n");
  ChildProcess serve({edgeBinary(), "serve", "--config", config});
  BOOST_REQUIRE_MESSAGE(serve.waitForStderr("msg=\"ready\"", 20s), serve.err());
  BOOST_REQUIRE_MESSAGE(serve.waitForStderr("cannot connect to the broker", 20s), serve.err());
  serve.signal(SIGTERM);
  BOOST_TEST(serve.wait(20s).value_or(-1) == 0);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::test
