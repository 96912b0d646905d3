// bench_ingest: the cloud ingest's verification and store rates (docs/benchmarks.md).
//
//   1. build S site logs of N/S entries each (default N 200,000, S 3; batches of 256 as the engine
//      writes them) and cut them into segments of B bytes (default 1 MiB) as the uplink does;
//   2. SHA-256 alone over the entry texts (the floor under any verification), then
//      SegmentVerifier alone over the segments: the verification cost (checkpoint signature,
//      every entry parsed and chained, Merkle root, consistency proof);
//   3. the Ingester (sync/ingest/ingester.h) over the same payloads into a fresh store, as
//      `atoms-edge ingest` does for every message (no broker: the broker's share is bench_sync):
//      parse + verify + store the entries and checkpoint + commit, per segment; then the same
//      payloads once more, every one a duplicate (checked against the store, re-acked);
//   4. W workers (default 3), each a thread with its own connection and Ingester like a process,
//      the sites' segments shared among them in order per site;
//   for the embedded store and, with --postgres 1, a PostgreSQL store on a server this program
//   starts (tests/support/postgres_server.h; fsync off, as a test server).
//
// Usage: bench_ingest [--entries N] [--sites S] [--workers W] [--segment-bytes B]
//                     [--postgres 0|1]. Prints figures beside the goals; asserts nothing.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "base/bytes.h"
#include "store/audit_entry.h"
#include "sync/ingest/ingest_store.h"
#include "sync/ingest/ingester.h"
#include "sync/segment.h"
#include "sync/topics.h"
#include "tests/bench/bench_support.h"
#include "tests/support/postgres_server.h"
#include "tests/sync/mqtt_fixtures.h"

namespace atoms {
namespace {

using bench::Clock;
using bench::die;
using bench::must;
using bench::secondsSince;

constexpr double kVerifyGoal = 500000;  // entries/s, issue "Sync" item 5
constexpr double kIngestGoal = 100000;  // entries/s per worker, embedded store

struct SiteLog {
  std::unique_ptr<test::SiteDir> dir;
  sync::ingest::SiteKey key;
  std::string topic;
  std::vector<std::string> payloads;
  std::vector<std::string> entryTexts;
};

// Every site's payloads through `workers` threads, each with its own store and Ingester: worker
// w takes sites w, w+W, ...; returns seconds.
double ingestAll(const std::string& location, const std::vector<SiteLog>& sites,
                 std::uint64_t workers) {
  std::vector<std::unique_ptr<sync::ingest::IngestStore>> stores;
  for (std::uint64_t w = 0; w < workers; ++w) {
    stores.push_back(
        must(sync::ingest::IngestStore::open(location, sync::ingest::IngestStore::Mode::kReadWrite),
             "open the ingest store"));
  }
  std::atomic<bool> failed{false};
  const auto start = Clock::now();
  std::vector<std::thread> threads;
  for (std::uint64_t w = 0; w < workers; ++w) {
    threads.emplace_back([&, w] {
      sync::ingest::Ingester ingester(*stores[w], [] { return std::chrono::system_clock::now(); });
      for (std::size_t s = w; s < sites.size(); s += workers) {
        for (const std::string& p : sites[s].payloads) {
          auto out = ingester.handle(sites[s].topic, p);
          if (!out.ack) {
            std::fprintf(stderr, "not acked: %s\n", out.detail.c_str());
            failed = true;
            return;
          }
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  if (failed) die("a segment was not acked");
  return secondsSince(start);
}

// One worker into a fresh store, then every segment again (all duplicates).
void measureOneWorker(const char* name, const std::string& location,
                      const std::vector<SiteLog>& sites, std::uint64_t entries) {
  std::vector<sync::ingest::SiteKey> keys;
  for (const SiteLog& s : sites) keys.push_back(s.key);
  {
    auto store =
        must(sync::ingest::IngestStore::open(location, sync::ingest::IngestStore::Mode::kReadWrite),
             "open the ingest store");
    must(store->registerSites(keys, formatTimestamp(std::chrono::system_clock::now())),
         "register the sites");
  }
  const double one = ingestAll(location, sites, 1);
  std::printf("%s, 1 worker (parse + verify + store + commit): %.2f s, %.0f entries/s%s\n", name,
              one, static_cast<double>(entries) / one,
              std::string(name) == "embedded"
                  ? (" (goal " + std::to_string(static_cast<int>(kIngestGoal)) + ")").c_str()
                  : "");
  const double dup = ingestAll(location, sites, 1);
  std::printf("%s, 1 worker, every segment again (duplicates, re-acked): %.2f s, %.0f entries/s\n",
              name, dup, static_cast<double>(entries) / dup);
}

int run(int argc, char** argv) {
  std::uint64_t entries = 200000;
  std::uint64_t siteCount = 3;
  std::uint64_t workers = 3;
  std::uint64_t segmentBytes = 1024 * 1024;
  std::uint64_t postgres = 0;
  bench::parseOptions(argc, argv,
                      {{"--entries", &entries},
                       {"--sites", &siteCount},
                       {"--workers", &workers},
                       {"--segment-bytes", &segmentBytes},
                       {"--postgres", &postgres}});
  if (siteCount == 0 || workers == 0) die("--sites and --workers must be at least 1");
  if (!initSodium()) die("cannot initialise libsodium");

  std::vector<SiteLog> sites;
  std::uint64_t payloadBytes = 0, segmentCount = 0;
  {
    const auto start = Clock::now();
    for (std::uint64_t i = 0; i < siteCount; ++i) {
      SiteLog log;
      log.dir = std::make_unique<test::SiteDir>("site-" + std::to_string(i + 1));
      auto key = must(VerifierKey::parse(log.dir->verifierKey), "the site's verifier key");
      log.key = {log.dir->site, key.publicKey()};
      log.topic = sync::siteTopics(log.dir->site).audit;
      auto store = must(SiteStore::open(log.dir->dir), "open the site");
      const std::uint64_t n = entries / siteCount + (i < entries % siteCount ? 1 : 0);
      test::appendEntries(*store, n, 256);
      for (const Segment& s :
           must(buildSegments(store->log(), 0, n, segmentBytes), "cut the segments")) {
        log.payloads.push_back(segmentJson(s));
        payloadBytes += log.payloads.back().size();
        log.entryTexts.insert(log.entryTexts.end(), s.entries.begin(), s.entries.end());
        ++segmentCount;
      }
      sites.push_back(std::move(log));
    }
    std::printf("logs: %llu entries over %llu sites appended and cut in %.2f s\n",
                static_cast<unsigned long long>(entries),
                static_cast<unsigned long long>(siteCount), secondsSince(start));
  }
  std::printf("segments: %llu of at most %llu bytes, %.1f MB in all\n",
              static_cast<unsigned long long>(segmentCount),
              static_cast<unsigned long long>(segmentBytes),
              static_cast<double>(payloadBytes) / 1e6);

  {
    const auto start = Clock::now();
    std::uint64_t hashed = 0;
    for (const SiteLog& s : sites) {
      for (const std::string& t : s.entryTexts) {
        hashed += sha256Prefixed(0, asBytes(t))[0];  // a leaf hash, as the verifier computes
      }
    }
    const double sec = secondsSince(start);
    std::printf("SHA-256 of every entry text alone: %.2f s, %.0f entries/s (checksum %llu)\n", sec,
                static_cast<double>(entries) / sec, static_cast<unsigned long long>(hashed));
  }
  {
    const auto start = Clock::now();
    std::uint64_t parsed = 0;
    for (const SiteLog& s : sites) {
      for (const std::string& p : s.payloads)
        parsed += must(parseSegment(p), "parse").entries.size();
    }
    const double sec = secondsSince(start);
    std::printf(
        "the segments' JSON alone (parseSegment, part of the next figure): %.2f s, %.0f "
        "entries/s\n",
        sec, static_cast<double>(parsed) / sec);
  }
  {
    const auto start = Clock::now();
    for (const SiteLog& s : sites) {
      SegmentVerifier verifier(must(VerifierKey::parse(s.dir->verifierKey), "key"));
      for (const std::string& p : s.payloads) {
        auto seg = must(parseSegment(p), "parse a segment");
        must(verifier.accept(seg), "verify a segment");
      }
    }
    const double sec = secondsSince(start);
    std::printf(
        "parse + verify only (SegmentVerifier): %.2f s, %.0f entries/s (goal %.0f), "
        "%.1f MB/s\n",
        sec, static_cast<double>(entries) / sec, kVerifyGoal,
        static_cast<double>(payloadBytes) / 1e6 / sec);
  }

  test::TempDir cloud;
  std::vector<std::pair<std::string, std::vector<std::string>>> stores = {
      {"embedded", {cloud.sub("one"), cloud.sub("many")}}};
  std::unique_ptr<testing::PostgresServer> server;
  if (postgres != 0) {
    server = std::make_unique<testing::PostgresServer>();
    must(server->start(), "start PostgreSQL");
    stores.push_back({"postgresql",
                      {must(server->createDatabase("bench_one"), "create a database"),
                       must(server->createDatabase("bench_many"), "create a database")}});
  }
  for (const auto& [name, locations] : stores) {
    measureOneWorker(name.c_str(), locations[0], sites, entries);
    std::vector<sync::ingest::SiteKey> keys;
    for (const SiteLog& s : sites) keys.push_back(s.key);
    {
      auto store = must(sync::ingest::IngestStore::open(
                            locations[1], sync::ingest::IngestStore::Mode::kReadWrite),
                        "open the ingest store");
      must(store->registerSites(keys, formatTimestamp(std::chrono::system_clock::now())),
           "register the sites");
    }
    const double sec = ingestAll(locations[1], sites, workers);
    std::printf("%s, %llu workers on one store (sites shared among them): %.2f s, %.0f entries/s\n",
                name.c_str(), static_cast<unsigned long long>(workers), sec,
                static_cast<double>(entries) / sec);
    auto check = must(
        sync::ingest::IngestStore::open(locations[1], sync::ingest::IngestStore::Mode::kReadOnly),
        "reopen");
    for (const SiteLog& s : sites) {
      if (must(check->entryCount(s.key.site), "count") != s.entryTexts.size()) {
        die("the store does not hold every entry once");
      }
    }
  }
  return 0;
}

}  // namespace
}  // namespace atoms

int main(int argc, char** argv) { return atoms::run(argc, argv); }
