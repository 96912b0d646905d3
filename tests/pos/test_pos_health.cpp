// POS health: fresh, failing since the first failure, halted after a refused token, stale after
// the limit since the last good contact; freshness() names the worst source.
#include <boost/test/unit_test.hpp>

#include "domain/pos/pos_health.h"

namespace atoms::pos {
namespace {

using namespace std::chrono;
using drivers::pos::SourceStatus;

const HealthTime kStart = sys_days(2026y / 11 / 30) + hours(18);

BOOST_AUTO_TEST_SUITE(pos_health)

BOOST_AUTO_TEST_CASE(nothingWatchedIsNotFresh) {
  PosHealth health;
  const PosFreshness f = health.freshness(kStart);
  BOOST_TEST(!f.fresh);
  BOOST_TEST(f.reason == "no POS is connected");
}

BOOST_AUTO_TEST_CASE(failingFromTheFirstFailureUntilAGoodContact) {
  PosHealth health;
  health.watch("square", minutes(5), std::nullopt, kStart);
  BOOST_TEST(!health.record({"square", SourceStatus::Kind::kOk, ""}, kStart));
  BOOST_TEST(health.freshness(kStart).fresh);
  BOOST_TEST(health.record({"square", SourceStatus::Kind::kFailing, "HTTP 503"}, kStart + 1min));
  BOOST_TEST(!health.record({"square", SourceStatus::Kind::kFailing, "HTTP 500"}, kStart + 2min));
  const PosFreshness f = health.freshness(kStart + 3min);
  BOOST_TEST(!f.fresh);
  BOOST_TEST((f.staleSince == kStart + 1min));
  BOOST_TEST(f.reason == "POS square is failing: HTTP 500");
  BOOST_TEST(health.record({"square", SourceStatus::Kind::kOk, ""}, kStart + 4min));
  BOOST_TEST(health.freshness(kStart + 4min).fresh);
}

BOOST_AUTO_TEST_CASE(staleAfterTheLimitSinceTheLastGoodContact) {
  PosHealth health;
  health.watch("square", minutes(5), kStart, kStart + 1min);
  health.watch("push:bar", seconds(0), std::nullopt, kStart);
  BOOST_TEST(health.freshness(kStart + 5min).fresh);
  const PosFreshness f = health.freshness(kStart + 12min);
  BOOST_TEST(!f.fresh);
  BOOST_TEST((f.staleSince == kStart));
  BOOST_TEST(f.reason == "POS square is stale: no data for 12 minutes");
  const auto all = health.sources(kStart + 12min);
  BOOST_TEST_REQUIRE(all.size() == 2u);
  BOOST_TEST((all[0].state == SourceState::kFresh));  // push:bar: silence is not an outage
}

BOOST_AUTO_TEST_CASE(aRefusedTokenHaltsUntilAGoodContact) {
  PosHealth health;
  health.watch("square", minutes(5), kStart, kStart);
  BOOST_TEST(
      health.record({"square", SourceStatus::Kind::kAuthFailed, "token refused"}, kStart + 1min));
  const auto all = health.sources(kStart + 2h);
  BOOST_TEST((all.at(0).state == SourceState::kHalted));
  BOOST_TEST((all.at(0).since == kStart + 1min));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::pos
