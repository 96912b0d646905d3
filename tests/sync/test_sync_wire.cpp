#include <boost/test/unit_test.hpp>
// The small pieces of the sync protocol: topics, ack and status JSON, backoff, the acked state,
// retention, the worker thread.
#include <future>

#include "store/audit_entry.h"
#include "store/merkle.h"
#include "store/site_store.h"
#include "store/state_dir.h"
#include "sync/ack.h"
#include "sync/backoff.h"
#include "sync/entry_time.h"
#include "sync/retention.h"
#include "sync/status_report.h"
#include "sync/sync_state.h"
#include "sync/topics.h"
#include "sync/worker_thread.h"
#include "tests/support/temp_dir.h"

namespace atoms::sync {
namespace {

using namespace std::chrono_literals;

Hash32 someRoot() {
  Hash32 h{};
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<std::uint8_t>(i * 7);
  return h;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sync_wire)

BOOST_AUTO_TEST_CASE(topicsAreNamedPerSite) {
  const SiteTopics t = siteTopics("store-12");
  BOOST_TEST(t.audit == "atoms/v1/store-12/audit");
  BOOST_TEST(t.ack == "atoms/v1/store-12/ack");
  BOOST_TEST(t.status == "atoms/v1/store-12/status");
  BOOST_TEST(t.cmd == "atoms/v1/store-12/cmd");
  BOOST_TEST(t.cmdResult == "atoms/v1/store-12/cmd/result");
  BOOST_TEST(siteOfTopic("atoms/v1/store-12/audit", "audit").value_or("") == "store-12");
  BOOST_TEST(!siteOfTopic("atoms/v1/store-12/audit/x", "audit"));
  BOOST_TEST(!siteOfTopic("atoms/v1//audit", "audit"));
  BOOST_TEST(!siteOfTopic("atoms/v2/s/audit", "audit"));
  BOOST_TEST(boxClientId("store-12") == "atoms-edge-store-12");
}

BOOST_AUTO_TEST_CASE(ackJsonIsCanonicalAndRoundTrips) {
  const Ack ack{"site-a", 96, someRoot()};
  const std::string text = ackJson(ack);
  BOOST_TEST(text ==
             "{\"root\":\"" + toBase64(someRoot()) + "\",\"site\":\"site-a\",\"size\":96,\"v\":1}");
  auto back = parseAck(text);
  BOOST_REQUIRE_MESSAGE(back, back.message());
  BOOST_TEST((*back == ack));
}

BOOST_AUTO_TEST_CASE(parseAckNamesWhatIsWrong) {
  const std::string root = toBase64(someRoot());
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{\"size\":1}", "field \"root\" is missing"},
      {"{\"root\":\"" + root + "\",\"site\":\"a\",\"size\":1,\"v\":2}", "field \"v\" must be 1"},
      {"{\"root\":\"" + root + "\",\"site\":\"a\",\"size\":-1,\"v\":1}", "field \"size\""},
      {"{\"root\":\"AAAA\",\"site\":\"a\",\"size\":1,\"v\":1}", "field \"root\""},
      {"{\"root\":\"" + root + "\",\"site\":\"\",\"size\":1,\"v\":1}", "field \"site\""},
      {"{\"extra\":1,\"root\":\"" + root + "\",\"site\":\"a\",\"size\":1,\"v\":1}",
       "unexpected field \"extra\""},
      {"{\"v\":1, \"size\":1}", "not canonical"},
      {std::string(2000, ' '), "more than 1024"},
      {"[]", "not a JSON object"},
  };
  for (const auto& [text, expected] : cases) {
    auto r = parseAck(text);
    BOOST_TEST_CONTEXT(text) {
      BOOST_REQUIRE(!r);
      BOOST_TEST(r.message().find(expected) != std::string::npos, r.message());
      BOOST_TEST(r.message().starts_with("ack: "));
    }
  }
}

BOOST_AUTO_TEST_CASE(statusJsonOnlineAndOfflineRoundTrip) {
  StatusReport r;
  r.site = "site-a";
  r.ts = "2026-11-29T17:00:00.000Z";
  r.size = 120;
  r.acked = 100;
  r.oldest = "2026-11-29T16:59:00.000Z";
  r.backlogAgeSeconds = 60;
  const std::string text = statusJson(r);
  BOOST_TEST(text ==
             "{\"acked\":100,\"backlog\":{\"age_s\":60,\"entries\":20,\"oldest\":\"2026-11-29T16:"
             "59:00.000Z\"},\"site\":\"site-a\",\"size\":120,\"state\":\"online\",\"ts\":\"2026-"
             "11-29T17:00:00.000Z\",\"v\":1}");
  auto back = parseStatus(text);
  BOOST_REQUIRE_MESSAGE(back, back.message());
  BOOST_TEST((*back == r));

  BOOST_TEST(offlineStatusJson("site-a") == "{\"site\":\"site-a\",\"state\":\"offline\",\"v\":1}");
  auto off = parseStatus(offlineStatusJson("site-a"));
  BOOST_REQUIRE(off);
  BOOST_TEST(!off->online);
  BOOST_TEST(!parseStatus("offline"));
  BOOST_TEST(!parseStatus("{\"site\":\"a\",\"state\":\"gone\",\"v\":1}"));
}

BOOST_AUTO_TEST_CASE(backoffDoublesUpToTheCapWithJitterInTheUpperHalf) {
  std::uint64_t next = 0;
  // A source that walks through the whole range: low, high, middle values.
  std::vector<std::uint64_t> draws = {0, ~std::uint64_t{0}, 12345, 0, 999, 7, 1, 2, 3, 4};
  Backoff b({100ms, 1000ms}, [&] { return draws[next++ % draws.size()]; });
  std::int64_t ceiling = 100;
  for (int i = 0; i < 10; ++i) {
    const auto d = b.next().count();
    BOOST_TEST_CONTEXT("attempt " << i << " ceiling " << ceiling) {
      BOOST_TEST(d >= ceiling / 2);
      BOOST_TEST(d <= ceiling);
    }
    ceiling = std::min<std::int64_t>(ceiling * 2, 1000);
  }
  BOOST_TEST(b.attempts() == 10u);
  b.reset();
  BOOST_TEST(b.next().count() <= 100);
}

BOOST_AUTO_TEST_CASE(backoffIsSpreadByTheRandomSource) {
  std::uint64_t a = 0, z = ~std::uint64_t{0} - 5;
  Backoff low({1000ms, 1000ms}, [&] { return a++; });
  Backoff high({1000ms, 1000ms}, [&] { return z++; });
  BOOST_TEST(low.next().count() != high.next().count());
}

BOOST_AUTO_TEST_CASE(parseTimestampReadsEntryTimes) {
  auto t = parseTimestamp("2026-11-29T17:00:01.250Z");
  BOOST_REQUIRE(t);
  BOOST_TEST(formatTimestamp(*t) == "2026-11-29T17:00:01.250Z");
  BOOST_TEST(!parseTimestamp("2026-11-29 17:00:01Z"));
}

// Found by the command fuzz target: a command expiring in 3026 overflowed system_clock.
BOOST_AUTO_TEST_CASE(parseTimestampRefusesYearsTheClockCannotHold) {
  auto far = parseTimestamp("3026-11-30T01:00:00.000Z");
  BOOST_REQUIRE(!far);
  BOOST_TEST(far.message() == "timestamp 3026-11-30T01:00:00.000Z: the year must be 1970 to 2200");
  BOOST_TEST(parseTimestamp("2200-12-31T23:59:59.999Z").ok());
  BOOST_TEST(!parseTimestamp("2201-01-01T00:00:00.000Z"));
  BOOST_TEST(!parseTimestamp("1969-12-31T23:59:59.999Z"));
  BOOST_TEST(parseTimestamp("1970-01-01T00:00:00.000Z").ok());
}

struct StoreFixture {
  StoreFixture() {
    BOOST_REQUIRE(initStateDir(tmp.sub("state"), InitOptions{"site-a"}));
    auto opened = SiteStore::open(tmp.sub("state"));
    BOOST_REQUIRE_MESSAGE(opened, opened.message());
    store = std::move(*opened);
  }
  // One batch of `n` entries at time t.
  void batch(int n, std::chrono::system_clock::time_point t) {
    auto b = store->log().begin();
    BOOST_REQUIRE(b);
    for (int i = 0; i < n; ++i) {
      BOOST_REQUIRE(b->add(formatTimestamp(t), "test.append", "test", json::Object{{"i", i}}));
    }
    BOOST_REQUIRE(b->commit());
  }
  atoms::testing::TempDir tmp;
  std::unique_ptr<SiteStore> store;
};

BOOST_FIXTURE_TEST_CASE(ackedStateStartsEmptyAndIsReplaced, StoreFixture) {
  auto empty = loadAckedState(store->db());
  BOOST_REQUIRE(empty);
  BOOST_TEST(empty->size == 0u);
  BOOST_TEST(empty->root == emptyRoot());
  BOOST_REQUIRE(saveAckedState(store->db(), AckedState{5, someRoot()}));
  BOOST_REQUIRE(saveAckedState(store->db(), AckedState{9, someRoot()}));
  auto now = loadAckedState(store->db());
  BOOST_REQUIRE(now);
  BOOST_TEST(now->size == 9u);
  BOOST_TEST(now->root == someRoot());
}

BOOST_FIXTURE_TEST_CASE(retentionPrunesOnlyAckedNotesOlderThanTheCutoff, StoreFixture) {
  const auto day0 = std::chrono::sys_days{std::chrono::year{2026} / 1 / 1};
  for (int d = 0; d < 10; ++d) batch(2, day0 + std::chrono::days(d));  // sizes 2, 4, ..., 20
  auto count = [&] {
    auto s = store->db().prepare("SELECT count(*) FROM audit_checkpoint");
    (void)s->step();
    return s->columnInt64(0);
  };
  BOOST_REQUIRE_EQUAL(count(), 10);
  // Acked up to 12 (day 5); cutoff after day 7: only acked notes can go, so the boundary is 12.
  auto r = pruneSyncedCheckpoints(store->log(), store->db(), 12, day0 + std::chrono::days(7));
  BOOST_REQUIRE_MESSAGE(r, r.message());
  BOOST_TEST(r->boundary == 12u);
  BOOST_TEST(r->pruned == 5u);  // 2, 4, 6, 8, 10
  BOOST_TEST(count() == 5);
  // Acked everything; cutoff on day 3 (sizes 2..8 are old enough, 8 is the boundary).
  r = pruneSyncedCheckpoints(store->log(), store->db(), 20, day0 + std::chrono::days(3));
  BOOST_REQUIRE(r);
  BOOST_TEST(r->boundary == 8u);
  BOOST_TEST(r->pruned == 0u);  // already gone
  // Nothing acked: nothing pruned.
  r = pruneSyncedCheckpoints(store->log(), store->db(), 0, day0 + std::chrono::days(100));
  BOOST_REQUIRE(r);
  BOOST_TEST(r->pruned == 0u);
  // The log still opens and verifies after pruning.
  store.reset();
  auto reopened = SiteStore::open(tmp.sub("state"));
  BOOST_REQUIRE_MESSAGE(reopened, reopened.message());
  BOOST_TEST((*reopened)->log().size() == 20u);
}

BOOST_AUTO_TEST_CASE(workerRunsTasksInOrderAndTimersByDeadline) {
  WorkerThread worker;
  std::vector<int> order;
  std::promise<void> done;
  worker.post([&] {
    worker.runAfter(30ms, [&] {
      order.push_back(3);
      done.set_value();
    });
    worker.runAfter(0ms, [&] { order.push_back(2); });
    order.push_back(1);
  });
  BOOST_REQUIRE(done.get_future().wait_for(10s) == std::future_status::ready);
  BOOST_TEST((order == std::vector<int>{1, 2, 3}));
  BOOST_TEST(worker.call([] { return 42; }).value_or(0) == 42);
  worker.post([] { throw std::runtime_error("boom"); });
  BOOST_TEST(worker.call([] { return 1; }).value_or(0) == 1);  // still running
  BOOST_TEST(worker.failedTasks() == 1u);
  worker.stop();
  BOOST_TEST(!worker.post([] {}));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::sync
