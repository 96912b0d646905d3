#include <boost/test/unit_test.hpp>
// The ingest's parts without a broker: the sites file, alarms, the store (first run, key file,
// registration), and the Ingester's decisions across two store connections.
#include <sys/stat.h>

#include "store/audit_entry.h"
#include "sync/ingest/alarm.h"
#include "sync/ingest/embedded_ingest_store.h"
#include "sync/ingest/ingest_schema.h"
#include "sync/ingest/ingest_store.h"
#include "sync/ingest/ingester.h"
#include "sync/ingest/sites_file.h"
#include "sync/topics.h"
#include "tests/sync/test_ingest_support.h"

namespace atoms::test {
namespace {

using sync::ingest::IngestStore;
using sync::ingest::Verdict;

std::unique_ptr<IngestStore> openStore(const std::string& dir) {
  auto s = IngestStore::open(dir, IngestStore::Mode::kReadWrite);
  BOOST_REQUIRE_MESSAGE(s, s.message());
  return std::move(*s);
}

std::string now() { return formatTimestamp(std::chrono::system_clock::now()); }

}  // namespace

BOOST_AUTO_TEST_SUITE(ingest_parts)

BOOST_AUTO_TEST_CASE(sitesFileAcceptsHexKeysAndVerifierKeys) {
  SiteDir site;
  const auto key = siteKeyOf(site);
  auto parsed = sync::ingest::parseSitesFile(
      "[ {\"site\": \"site-a\", \"publicKey\": \"" + toHex(key.publicKey) + "\"},\n" +
      "  {\"publicKey\": \"" + site.verifierKey + "\", \"site\": \"site-a\"} ]");
  BOOST_TEST(!parsed);  // listed twice
  BOOST_TEST(parsed.message().find("record 2") != std::string::npos);
  auto one = sync::ingest::parseSitesFile("[{\"site\":\"site-a\",\"publicKey\":\"" +
                                          site.verifierKey + "\"}]");
  BOOST_REQUIRE_MESSAGE(one, one.message());
  BOOST_TEST(((*one)[0] == key));
}

BOOST_AUTO_TEST_CASE(sitesFileErrorsNameTheRecordAndField) {
  SiteDir site;
  const auto check = [](const std::string& text, const std::string& needle) {
    auto r = sync::ingest::parseSitesFile(text);
    BOOST_TEST_CONTEXT(text) {
      BOOST_TEST(!r);
      BOOST_TEST(r.message().find(needle) != std::string::npos, r.message());
    }
  };
  check("{}", "not a JSON array");
  check("[{\"site\":\"Bad Site\",\"publicKey\":\"00\"}]",
        "record 1 (\"Bad Site\"): field \"site\"");
  check("[{\"site\":\"site-a\",\"publicKey\":\"abc\"}]", "field \"publicKey\"");
  check("[{\"site\":\"site-a\"}]", "field \"publicKey\" must be a string");
  check("[{\"site\":\"site-a\",\"publicKey\":\"" + std::string(64, '0') + "\",\"x\":1}]",
        "unexpected field \"x\"");
  // A verifier key of another site is not this site's key.
  check("[{\"site\":\"site-b\",\"publicKey\":\"" + site.verifierKey + "\"}]",
        "expected \"atoms-edge/site-b\"");
}

BOOST_AUTO_TEST_CASE(alarmsRoundTrip) {
  sync::ingest::Alarm a{"site-a",
                        "fork",
                        10,
                        std::nullopt,
                        7,
                        std::string(64, 'a'),
                        "fork: two roots",
                        "2026-11-30T10:00:00.000Z"};
  auto back = sync::ingest::parseAlarm(sync::ingest::alarmJson(a));
  BOOST_REQUIRE_MESSAGE(back, back.message());
  BOOST_TEST((*back == a));
  BOOST_TEST(sync::ingest::alarmTopic("site-a") == "atoms/v1/site-a/alarm");
  BOOST_TEST(!sync::ingest::parseAlarm("{\"v\":1}"));
}

BOOST_AUTO_TEST_CASE(firstRunMakesAPrivateKeyAndTheSchemaAndReopens,
                     *boost::unit_test::precondition(OnlyForStore{false})) {
  TempDir tmp;
  const std::string dir = tmp.sub("cloud");
  { auto store = openStore(dir); }
  struct stat st {};
  BOOST_REQUIRE(::stat((dir + "/ingest.key").c_str(), &st) == 0);
  BOOST_TEST((st.st_mode & 0777) == 0600u);
  auto again = sync::ingest::EmbeddedIngestStore::open(dir, IngestStore::Mode::kReadWrite);
  BOOST_REQUIRE_MESSAGE(again, again.message());
  auto version = (*again)->db().prepare("SELECT max(version) FROM schema_migrations");
  BOOST_REQUIRE(version);
  BOOST_REQUIRE(*version->step());
  BOOST_TEST(version->columnInt64(0) == sync::ingest::ingestSchemaVersion());
  auto ro = IngestStore::open(dir, IngestStore::Mode::kReadOnly);
  BOOST_TEST(ro.ok(), ro.message());
  // Without its key the database is refused, never replaced.
  ::unlink((dir + "/ingest.key").c_str());
  auto nokey = IngestStore::open(dir, IngestStore::Mode::kReadWrite);
  BOOST_TEST(!nokey);
  BOOST_TEST(nokey.message().find("key file") != std::string::npos, nokey.message());
}

BOOST_AUTO_TEST_CASE(aSiteKeepsItsRegisteredKey) {
  TempDir tmp;
  SiteDir a;
  auto store = openStore(ingestStoreLocation(tmp, "cloud"));
  auto key = siteKeyOf(a);
  BOOST_TEST(*store->registerSites({key}, now()) == 1u);
  BOOST_TEST(*store->registerSites({key}, now()) == 0u);  // idempotent
  key.publicKey[0] ^= 1;
  auto changed = store->registerSites({key}, now());
  BOOST_TEST(!changed);
  BOOST_TEST(changed.message().find("another key") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(twoConnectionsOnOneStoreStoreEachSegmentOnce) {
  TempDir tmp;
  SiteDir site;
  std::vector<Segment> segs;
  {
    auto box = SiteStore::open(site.dir);
    BOOST_REQUIRE(box);
    appendEntries(**box, 50, 10);
    segs = *buildSegments((*box)->log(), 0, 50, 1);  // one batch each
  }
  const std::string dir = ingestStoreLocation(tmp, "cloud");
  auto s1 = openStore(dir);
  auto s2 = openStore(dir);
  BOOST_REQUIRE(s1->registerSites({siteKeyOf(site)}, now()));
  auto clock = [] { return std::chrono::system_clock::now(); };
  sync::ingest::Ingester one(*s1, clock), two(*s2, clock);
  const std::string topic = sync::siteTopics(site.site).audit;

  BOOST_TEST((one.handle(topic, segmentJson(segs[0])).verdict == Verdict::kAccepted));
  // The other connection sees the same segment as a duplicate and acks the stored size.
  auto dup = two.handle(topic, segmentJson(segs[0]));
  BOOST_TEST((dup.verdict == Verdict::kDuplicate));
  BOOST_REQUIRE(dup.ack);
  BOOST_TEST(dup.ack->size == segs[0].to);
  // And goes on from the state the first one stored; the first then catches up from the store.
  BOOST_TEST((two.handle(topic, segmentJson(segs[1])).verdict == Verdict::kAccepted));
  BOOST_TEST((one.handle(topic, segmentJson(segs[2])).verdict == Verdict::kAccepted));
  auto gap = one.handle(topic, segmentJson(segs[4]), false);
  BOOST_TEST((gap.verdict == Verdict::kGap));
  BOOST_TEST(!gap.evidence);  // not final: nothing recorded
  BOOST_TEST(!gap.ack);
  // Final: recorded, and the stored size acked again, which the box reads as "one went missing".
  auto finalGap = one.handle(topic, segmentJson(segs[4]), true);
  BOOST_TEST((finalGap.verdict == Verdict::kGap));
  BOOST_TEST(finalGap.evidence.has_value());
  BOOST_REQUIRE(finalGap.ack);
  BOOST_TEST(finalGap.ack->size == segs[2].to);
  BOOST_TEST((one.handle(topic, segmentJson(segs[3])).verdict == Verdict::kAccepted));
  BOOST_TEST((one.handle(topic, segmentJson(segs[4])).verdict == Verdict::kAccepted));
  BOOST_TEST(*s1->entryCount(site.site) == 50u);
  auto garbage = one.handle(topic, "not json");
  BOOST_TEST((garbage.verdict == Verdict::kInvalid));
  BOOST_TEST(garbage.alarm.has_value());
  BOOST_TEST((one.handle("atoms/v1/site-a/status", "x").verdict == Verdict::kNotAudit));
  BOOST_TEST(s1->evidence()->size() == 2u);  // the final gap and the garbage
  BOOST_TEST(s1->evidence(site.site)->size() == 2u);
  BOOST_TEST(storedEvidence(dir, site.site).size() == 2u);
}

BOOST_AUTO_TEST_CASE(thePostgresStoreMakesItsSchemaOnceAndNamesWhatItCannotUse,
                     *boost::unit_test::precondition(OnlyForStore{true})) {
  TempDir tmp;
  const std::string uri = ingestStoreLocation(tmp, "schema");
  // A read-only open of a database nobody prepared is refused, and creates nothing.
  auto bare = IngestStore::open(uri, IngestStore::Mode::kReadOnly);
  BOOST_TEST(!bare);
  BOOST_TEST(bare.message().find("is not an ingest store") != std::string::npos, bare.message());
  { auto first = openStore(uri); }
  auto second = openStore(uri);  // the schema is there: applied once, not again
  BOOST_TEST(second->describe() == uri);
  auto ro = IngestStore::open(uri, IngestStore::Mode::kReadOnly);
  BOOST_TEST(ro.ok(), ro.message());
  // A server that is not there: one line naming it, without the password.
  const std::string closed = "postgresql://ingest:s3cret@127.0.0.1:1/nothing";
  auto none = IngestStore::open(closed, IngestStore::Mode::kReadWrite);
  BOOST_REQUIRE(!none);
  BOOST_TEST(none.message().find("cannot connect to postgresql://ingest@127.0.0.1:1/nothing") == 0u,
             none.message());
  BOOST_TEST(none.message().find("s3cret") == std::string::npos);
  BOOST_TEST(IngestStore::isDatabaseUri("postgres://h/db"));
  BOOST_TEST(!IngestStore::isDatabaseUri("/var/lib/ingest"));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::test
