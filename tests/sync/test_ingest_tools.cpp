#include <boost/test/unit_test.hpp>
// The operator tools of `atoms-edge ingest` (docs/sync-ingest.md sections 4 and 5), through the
// real binary after a real sync (box uplink -> mosquitto -> ingest): --report, --report --json,
// and --export, whose output is byte-identical to the box's export-segments of the same range.
#include "base/canonical_json.h"
#include "tests/daemon/helpers.h"
#include "tests/sync/test_ingest_support.h"

namespace atoms::test {
namespace {

using namespace std::chrono_literals;

struct IngestToolsFixture : IngestFixture {
  // The box's uplink drains `entries` new entries into an ingest on storeDir; returns the size
  // acked. The box and the ingest are stopped when it returns.
  std::uint64_t syncedSize(std::uint64_t entries) {
    IngestRig ingest(broker, storeDir, {siteKeyOf(site)}, "ingest-tools");
    BOOST_REQUIRE_MESSAGE(ingest.error.empty(), ingest.error);
    BOOST_REQUIRE(ingest.ready(broker));
    UplinkRig box(site.dir, plainSettings(broker, site.site));
    BOOST_REQUIRE_MESSAGE(box.error.empty(), box.error);
    const std::uint64_t size = box.append(entries);
    BOOST_REQUIRE(eventually([&] { return box.stats().ackedSize == size; }, 60s));
    return size;
  }
};

std::string toolsDecimal(std::uint64_t n) { return std::to_string(n); }

}  // namespace

BOOST_AUTO_TEST_SUITE(ingest_operator_tools)

BOOST_FIXTURE_TEST_CASE(theIngestExportEqualsTheBoxExportByteForByte, IngestToolsFixture) {
  const std::uint64_t size = syncedSize(300);

  auto cloudAll = runEdge({"ingest", "--store", storeDir, "--export", site.site});
  BOOST_REQUIRE_MESSAGE(cloudAll.status == 0, cloudAll.err);
  auto boxAll = runEdge(
      {"export-segments", "--state-dir", site.dir, "--from", "0", "--to", toolsDecimal(size)});
  BOOST_REQUIRE_MESSAGE(boxAll.status == 0, boxAll.err);
  BOOST_TEST(!cloudAll.out.empty());
  BOOST_TEST(cloudAll.out == boxAll.out);

  // A range from a checkpoint the ingest stored (a segment boundary of the uplink), as one segment:
  // the consistency proof from there agrees too.
  std::uint64_t mid = 0;
  {
    auto store =
        sync::ingest::IngestStore::open(storeDir, sync::ingest::IngestStore::Mode::kReadOnly);
    BOOST_REQUIRE_MESSAGE(store, store.message());
    auto sizes = (*store)->checkpointSizes(site.site);
    BOOST_REQUIRE(sizes);
    BOOST_REQUIRE(sizes->size() > 3u);
    mid = (*sizes)[sizes->size() / 2];
  }
  const std::vector<std::string> range{"--from",           toolsDecimal(mid), "--to",
                                       toolsDecimal(size), "--max-bytes",     "100000000"};
  std::vector<std::string> cloudArgs{"ingest", "--store", storeDir, "--export", site.site};
  std::vector<std::string> boxArgs{"export-segments", "--state-dir", site.dir};
  cloudArgs.insert(cloudArgs.end(), range.begin(), range.end());
  boxArgs.insert(boxArgs.end(), range.begin(), range.end());
  auto cloudPart = runEdge(cloudArgs);
  BOOST_REQUIRE_MESSAGE(cloudPart.status == 0, cloudPart.err);
  auto boxPart = runEdge(boxArgs);
  BOOST_REQUIRE_MESSAGE(boxPart.status == 0, boxPart.err);
  BOOST_TEST(std::count(cloudPart.out.begin(), cloudPart.out.end(), '\n') == 1);
  BOOST_TEST(cloudPart.out == boxPart.out);
}

BOOST_FIXTURE_TEST_CASE(anExportOfAnUnknownSiteOrPastTheStoredSizeIsOneLineAndNothingElse,
                        IngestToolsFixture) {
  const std::uint64_t size = syncedSize(40);

  auto unknown = runEdge({"ingest", "--store", storeDir, "--export", "site-z"});
  BOOST_TEST(unknown.status != 0);
  BOOST_TEST(unknown.out.empty());
  BOOST_TEST(unknown.err == "atoms-edge ingest: site site-z is not registered in this store\n");

  auto past = runEdge(
      {"ingest", "--store", storeDir, "--export", site.site, "--to", toolsDecimal(size + 16)});
  BOOST_TEST(past.status != 0);
  BOOST_TEST(past.out.empty());
  BOOST_TEST(past.err == "atoms-edge ingest: site " + site.site + " has " + toolsDecimal(size) +
                             " entries stored; --to " + toolsDecimal(size + 16) +
                             " is past them\n");

  auto between = runEdge({"ingest", "--store", storeDir, "--export", site.site, "--from", "1"});
  BOOST_TEST(between.status != 0);
  BOOST_TEST(contains(between.err,
                      "--from 1 is not 0 or a stored checkpoint (nearest stored "
                      "checkpoints: 0 and "));
  BOOST_TEST(std::count(between.err.begin(), between.err.end(), '\n') == 1);
}

BOOST_FIXTURE_TEST_CASE(theReportShowsEachSiteStoredAckedAndItsDuplicates, IngestToolsFixture) {
  const std::uint64_t size = syncedSize(60);

  auto text = runEdge({"ingest", "--store", storeDir, "--report"});
  BOOST_REQUIRE_MESSAGE(text.status == 0, text.err);
  BOOST_TEST(contains(text.out, "sites 1 "));
  BOOST_TEST(contains(text.out, "site " + site.site + " entries " + toolsDecimal(size) +
                                    " verified " + toolsDecimal(size) + " root "));
  BOOST_TEST(contains(text.out, " acked " + toolsDecimal(size) + " at "));
  BOOST_TEST(contains(text.out, " gaps 0 forks 0 invalid 0 alarms 0\n"));

  auto js = runEdge({"ingest", "--store", storeDir, "--report", "--json"});
  BOOST_REQUIRE_MESSAGE(js.status == 0, js.err);
  auto parsed = json::parse(js.out.substr(0, js.out.find('\n')));
  BOOST_REQUIRE_MESSAGE(parsed, parsed.message());
  const json::Value* sites = parsed->find("sites");
  BOOST_REQUIRE(sites != nullptr);
  BOOST_REQUIRE(sites->isArray());
  BOOST_REQUIRE(sites->asArray().size() == 1u);
  const json::Object& s = sites->asArray().front().asObject();
  BOOST_TEST(s.at("site").asString() == site.site);
  BOOST_TEST(s.at("entries").asInt() == static_cast<std::int64_t>(size));
  BOOST_TEST(s.at("verifiedSize").asInt() == static_cast<std::int64_t>(size));
  BOOST_TEST(s.at("ackedSize").asInt() == static_cast<std::int64_t>(size));
  BOOST_TEST(s.at("forks").asInt() == 0);
  BOOST_TEST(s.at("alarms").asInt() == 0);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace atoms::test
