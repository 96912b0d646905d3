// Crash test: a child process appends batches to the audit log and is killed with SIGKILL at
// random points, many times. After every kill the log must open, verify end to end, hold every
// entry the child reported durable (each exactly once, in order), and continue its chain.

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <random>
#include <string>
#include <vector>

#include "store/audit_entry.h"
#include "store/log_verifier.h"
#include "store/site_store.h"
#include "tests/support/build_paths.h"
#include "tests/support/durable_child.h"
#include "tests/support/temp_dir.h"

namespace atoms {
namespace {

BOOST_AUTO_TEST_SUITE(crash)

BOOST_AUTO_TEST_CASE(logSurvivesSigkillAtRandomPoints) {
  testing::TempDir tmp;
  const std::string dir = tmp.sub("state");
  BOOST_REQUIRE(initStateDir(dir, {"crash-site"}).ok());

  std::mt19937 rng(20261129);
  std::uint64_t durable = 0;
  for (int round = 0; round < 30; ++round) {
    testing::DurableChild child({atoms::testing::appendChild(), dir, std::to_string(rng())});
    // Round 0 kills during start-up; the others after a random number of commits, so the kill
    // lands at a random point of the next batch (writing rows, signing, committing, printing).
    const int lines = round == 0 ? 0 : static_cast<int>(rng() % 12);
    const std::vector<std::string> ids = child.readDurable(lines);
    const std::uint64_t reported = ids.empty() ? 0 : std::stoull(ids.back());
    child.kill();
    durable = std::max(durable, reported);

    auto store = SiteStore::open(dir);
    BOOST_REQUIRE_MESSAGE(store.ok(), "round " << round << ": " << store.message());
    AuditLog& log = (*store)->log();
    BOOST_TEST_REQUIRE(log.size() >= durable, "round " << round << ": lost durable entries");
    BOOST_TEST(log.signedSize() == log.size());

    VerifyReport report = verifyDatabase((*store)->db(), (*store)->verifierKey(), "crash-site");
    BOOST_TEST_REQUIRE(report.ok(), "round " << round << ": " << report.problem);
    BOOST_TEST(report.entries == log.size());

    // Every entry present exactly once, in order: body.n == seq.
    auto texts = log.entryTexts(0, log.size());
    BOOST_REQUIRE(texts.ok());
    for (std::uint64_t seq = 0; seq < texts->size(); ++seq) {
      auto entry = parseEntry((*texts)[seq]);
      BOOST_REQUIRE(entry.ok());
      const json::Value* n = entry->body.find("n");
      if (entry->kind == "test.append") {
        BOOST_REQUIRE(n != nullptr);
        BOOST_TEST(n->asInt() == static_cast<std::int64_t>(seq));
      }
    }

    // The chain continues from here.
    const std::uint64_t before = log.size();
    auto seq = log.append(formatTimestamp({}), "test.resume", "test", json::Object{});
    BOOST_REQUIRE_MESSAGE(seq.ok(), seq.message());
    BOOST_TEST(*seq == before);
    BOOST_TEST(log.size() == before + 1);
    durable = log.size();
  }
  BOOST_TEST(durable > 30u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms
