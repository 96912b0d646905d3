// bench_sync: how fast a long offline backlog drains through a local mosquitto, against the
// broker's own limit, in one run.
//
//   1. build an N-entry log (default 1,000,000, batches of 256 as the engine writes them);
//   2. the uplink (MqttUplink over Paho) publishes it as segments to the broker, a test cloud peer
//      verifies every segment (SegmentVerifier) and acks: time until the box holds the ack for
//      the whole log;
//   3. the same segment bytes published by `mosquitto_pub -l -q 1` (one message per line, QoS 1,
//      waiting for every PUBACK), to a topic the same peer subscribes to: the broker's limit;
//   4. the cloud side's verification rate alone: SegmentVerifier over the same segments.
//
// Usage: bench_sync [--entries N] [--segment-bytes B] [--window W]. Prints figures; asserts
// nothing (a benchmark is not a timed test).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "store/state_dir.h"
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
  std::uint64_t entries = 1000000;
  std::uint64_t segmentBytes = 1024 * 1024;
  std::uint64_t window = 8;
  bench::parseOptions(
      argc, argv,
      {{"--entries", &entries}, {"--segment-bytes", &segmentBytes}, {"--window", &window}});

  testing::MosquittoBroker broker;
  if (Status s = broker.start(); !s) die(s.message());
  test::SiteDir site;
  auto t = Clock::now();
  {
    auto store = SiteStore::open(site.dir);
    if (!store) die(store.message());
    test::appendEntries(**store, entries, 256, 200);
  }
  std::printf("sync benchmark: %llu entries, segments <= %zu bytes, window %zu\n",
              static_cast<unsigned long long>(entries), segmentBytes, window);
  std::printf("built the log in %.1f s\n", secondsSince(t));

  test::TestAcker acker(broker.plainUri(), broker.password(testing::MosquittoBroker::kIngestUser),
                        {{site.site, *VerifierKey::parse(site.verifierKey)}});
  if (!acker.connected()) die("the cloud peer did not connect");

  // 2. The uplink, from opening the store to holding the ack for everything.
  sync::UplinkOptions options = test::UplinkRig::testOptions();
  options.maxSegmentBytes = segmentBytes;
  options.window = window;
  options.ackTimeout = std::chrono::seconds(120);
  t = Clock::now();
  test::UplinkRig rig(site.dir, test::plainSettings(broker, site.site), options);
  if (!rig.error.empty()) die(rig.error);
  const auto deadline = std::chrono::seconds(3600);
  if (!test::eventually([&] { return rig.stats().ackedSize == entries; }, deadline)) {
    die("the backlog did not drain");
  }
  const double uplink = secondsSince(t);
  const auto stats = rig.stats();
  std::printf("uplink: %llu entries in %llu segments fully acked in %.2f s (%.0f entries/s)\n",
              static_cast<unsigned long long>(entries),
              static_cast<unsigned long long>(stats.segmentsPublished), uplink,
              static_cast<double>(entries) / uplink);

  // The same bytes, one segment per line (canonical JSON has no raw newline).
  const std::string file = site.tmp.file("segments.txt");
  std::uint64_t bytes = 0;
  auto segments = rig.onOwner([&](SiteStore& store) {
    return buildSegments(store.log(), 0, store.log().signedSize(), segmentBytes);
  });
  if (!segments || !*segments) die("cannot rebuild the segments");
  {
    std::ofstream out(file, std::ios::binary);
    for (const Segment& s : **segments) {
      const std::string text = segmentJson(s);
      bytes += text.size();
      out << text << '\n';
    }
  }
  std::printf("segment bytes: %.1f MB in %zu segments\n", static_cast<double>(bytes) / 1e6,
              (*segments)->size());

  // 3. mosquitto_pub, same bytes, QoS 1, as the ingest user to another site's audit topic (the
  //    peer is subscribed to it and, holding no key for that site, drops the messages).
  const std::string uri = broker.plainUri();
  const std::string port = uri.substr(uri.rfind(':') + 1);
  const std::string cmd = "mosquitto_pub -h 127.0.0.1 -p " + port + " -u " +
                          testing::MosquittoBroker::kIngestUser + " -P " +
                          broker.password(testing::MosquittoBroker::kIngestUser) + " -q 1 -t " +
                          sync::siteTopics("site-b").audit + " -l < " + file;
  t = Clock::now();
  if (std::system(cmd.c_str()) != 0) die("mosquitto_pub failed");
  const double raw = secondsSince(t);
  std::printf("mosquitto_pub -q 1: the same %zu messages in %.2f s (%.1f MB/s)\n",
              (*segments)->size(), raw, static_cast<double>(bytes) / 1e6 / raw);
  std::printf("uplink / mosquitto_pub time: %.2f\n", uplink / raw);

  // 4. Verification alone.
  SegmentVerifier verifier(*VerifierKey::parse(site.verifierKey));
  t = Clock::now();
  for (const Segment& s : **segments) {
    auto parsed = parseSegment(segmentJson(s));
    if (!parsed || !verifier.accept(*parsed)) die("a segment did not verify");
  }
  const double verify = secondsSince(t);
  std::printf("cloud-side parse + verify: %.2f s (%.0f entries/s)\n", verify,
              static_cast<double>(entries) / verify);
  return 0;
}

}  // namespace
}  // namespace atoms

int main(int argc, char** argv) { return atoms::run(argc, argv); }
