// bench_ingest: the cloud ingest's verification rate (docs/benchmarks.md).
//
//   1. build an N-entry log (default 200,000, batches of 256 as the engine writes them) and cut it
//      into segments of B bytes (default 1 MiB) as the uplink does;
//   2. SegmentVerifier alone over those segments: the verification cost (checkpoint signature,
//      every entry parsed and chained, Merkle root, consistency proof);
//   3. the Ingester (sync/ingest/ingester.h) over the same payloads into a fresh ingest store:
//      parse + verify + store the entries and checkpoint + commit, per segment, as
//      `atoms-edge ingest` does for every message (no broker: the broker's share is bench_sync);
//   4. the same payloads once more: every one a duplicate (checked against the store, re-acked).
//
// Usage: bench_ingest [--entries N] [--segment-bytes B]. Prints figures; asserts nothing.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "store/audit_entry.h"
#include "sync/ingest/ingest_store.h"
#include "sync/ingest/ingester.h"
#include "sync/segment.h"
#include "sync/topics.h"
#include "tests/bench/bench_support.h"
#include "tests/sync/mqtt_fixtures.h"

namespace atoms {
namespace {

using bench::Clock;
using bench::die;
using bench::must;
using bench::secondsSince;

int run(int argc, char** argv) {
  std::uint64_t entries = 200000;
  std::uint64_t segmentBytes = 1024 * 1024;
  bench::parseOptions(argc, argv, {{"--entries", &entries}, {"--segment-bytes", &segmentBytes}});

  if (!initSodium()) die("cannot initialise libsodium");

  test::SiteDir site;
  std::vector<std::string> payloads;
  std::uint64_t payloadBytes = 0;
  std::vector<Segment> segments;
  {
    auto store = SiteStore::open(site.dir);
    if (!store) die(store.message());
    auto start = Clock::now();
    test::appendEntries(**store, entries, 256);
    std::printf("log: %llu entries appended in %.2f s\n", static_cast<unsigned long long>(entries),
                secondsSince(start));
    auto segs = buildSegments((*store)->log(), 0, entries, segmentBytes);
    if (!segs) die(segs.message());
    segments = std::move(*segs);
    for (const Segment& s : segments) {
      payloads.push_back(segmentJson(s));
      payloadBytes += payloads.back().size();
    }
  }
  std::printf("segments: %zu of at most %zu bytes, %.1f MB in all\n", segments.size(), segmentBytes,
              static_cast<double>(payloadBytes) / 1e6);

  auto key = VerifierKey::parse(site.verifierKey);
  if (!key) die(key.message());
  {
    auto start = Clock::now();
    SegmentVerifier verifier(*key);
    for (const std::string& p : payloads) {
      auto seg = parseSegment(p);
      if (!seg) die(seg.message());
      if (auto a = verifier.accept(*seg); !a) die(a.message());
    }
    const double s = secondsSince(start);
    std::printf("parse + verify only (SegmentVerifier): %.2f s, %.0f entries/s, %.1f MB/s\n", s,
                static_cast<double>(entries) / s, static_cast<double>(payloadBytes) / 1e6 / s);
  }

  test::TempDir cloud;
  auto opened = sync::ingest::IngestStore::open(cloud.sub("ingest"),
                                                sync::ingest::IngestStore::Mode::kReadWrite);
  if (!opened) die(opened.message());
  auto& store = **opened;
  if (auto r = store.registerSites({{site.site, key->publicKey()}},
                                   formatTimestamp(std::chrono::system_clock::now()));
      !r) {
    die(r.message());
  }
  sync::ingest::Ingester ingester(store, [] { return std::chrono::system_clock::now(); });
  const std::string topic = sync::siteTopics(site.site).audit;
  for (const char* pass : {"ingest (parse + verify + store + commit)", "duplicates (re-acked)"}) {
    auto start = Clock::now();
    for (const std::string& p : payloads) {
      auto out = ingester.handle(topic, p);
      if (!out.ack) die(std::string("not acked: ") + out.detail);
    }
    const double s = secondsSince(start);
    std::printf("%s: %.2f s, %.0f entries/s, %.1f segments/s\n", pass, s,
                static_cast<double>(entries) / s, static_cast<double>(payloads.size()) / s);
  }
  auto stored = store.entryCount(site.site);
  if (!stored || *stored != entries) die("the store does not hold every entry once");
  return 0;
}

}  // namespace
}  // namespace atoms

int main(int argc, char** argv) { return atoms::run(argc, argv); }
