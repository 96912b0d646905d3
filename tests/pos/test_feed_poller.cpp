// The poller with the simulated POS into a real sales book: polls read every order once however
// the polls fall (overlap, pages, late offline orders), the cursor survives, failures back off and
// a refused token halts; and the simulated POS is deterministic.
#include <boost/test/unit_test.hpp>
#include <map>

#include "drivers/pos/feed_poller.h"
#include "drivers/pos/simulated_pos.h"
#include "tests/pos/sales_site.h"

namespace atoms::pos::test {
namespace {

using namespace std::chrono;
using drivers::pos::FeedError;
using drivers::pos::FeedPoller;
using drivers::pos::FeedPollerOptions;
using drivers::pos::SimulatedPos;
using drivers::pos::SimulatedPosOptions;
using drivers::pos::SourceStatus;

const sys_seconds kDay{sys_days(2026y / 11 / 30)};

// Every order version the POS updated in [from, until), counted as the sales book counts them: the
// latest version of each order, returns subtracted.
std::int64_t expectedNet(const SimulatedPos& pos, PosTime from, PosTime until) {
  std::map<std::string, PosOrder> latest;
  for (const PosOrder& o : pos.ordersUpdated(from, until)) {
    auto& slot = latest[o.id];
    if (slot.id.empty() || o.version > slot.version) slot = o;
  }
  std::int64_t sum = 0;
  for (const auto& [id, o] : latest) {
    if (o.state == drivers::pos::OrderState::kCompleted) sum += o.netCents - o.returnedCents;
  }
  return sum;
}

SimulatedPosOptions siteOptions() {
  SimulatedPosOptions o;
  o.seed = 7;
  o.utcOffset = -8h;
  o.pageSize = 25;
  return o;
}

BOOST_AUTO_TEST_SUITE(feed_poller)

BOOST_AUTO_TEST_CASE(theSimulatedPosIsDeterministicAndHasSpecialOrders) {
  SimulatedPos a(siteOptions()), b(siteOptions());
  const PosTime from{kDay}, to{kDay + days(3)};
  const auto first = a.ordersUpdated(from, to);
  BOOST_TEST((first == b.ordersUpdated(from, to)));
  BOOST_TEST(first.size() > 300u);
  std::size_t voids = 0, returns = 0, late = 0;
  for (const PosOrder& o : first) {
    voids += o.state == drivers::pos::OrderState::kCanceled ? 1 : 0;
    returns += o.returnOf.empty() ? 0 : 1;
    late += o.updatedAt - o.at > hours(1) ? 1 : 0;
  }
  BOOST_TEST(voids > 0u);
  BOOST_TEST(returns > 0u);
  BOOST_TEST(late > 0u);
}

BOOST_AUTO_TEST_CASE(pollsEveryFewMinutesStoreEveryOrderOnce) {
  SalesSite site;
  SimulatedPos pos(siteOptions());
  std::vector<SourceStatus> statuses;
  FeedPoller poller(pos, *site.book, FeedPollerOptions{},
                    [&](const SourceStatus& s) { statuses.push_back(s); });
  // Three days of polls every 7 minutes (the first reads 72 hours back).
  PosTime now{kDay + days(3)};
  for (int i = 0; i < 3 * 24 * 60 / 7; ++i) {
    site.now = now;
    const auto next = poller.pollOnce(now);
    BOOST_TEST_REQUIRE(next.has_value());
    BOOST_TEST(next->count() == 60);
    now += minutes(7);
  }
  const std::int64_t stored = site.netCents(kDay - days(4), kDay + days(10));
  // The first poll read 72 hours back, less the overlap.
  BOOST_TEST(stored == expectedNet(pos, PosTime(kDay - minutes(10)), now - minutes(7)));
  BOOST_TEST(stored > 0);
  BOOST_TEST((statuses.back().kind == SourceStatus::Kind::kOk));
}

BOOST_AUTO_TEST_CASE(aLateOfflineOrderLandsInItsSaleIntervalAfterLaterPolls) {
  SalesSite site;
  SimulatedPos pos(siteOptions());
  FeedPoller poller(pos, *site.book, FeedPollerOptions{});
  PosTime now{kDay + days(1)};
  for (int i = 0; i < 24 * 60 / 5; ++i, now += minutes(5)) (void)poller.pollOnce(now);
  // A late order updated during the polled day but sold before it counts in its sale's quarter.
  std::optional<PosOrder> late;
  for (const PosOrder& o : pos.ordersUpdated(PosTime(kDay + days(1)), now)) {
    if (o.returnOf.empty() && o.version == 1 && o.updatedAt - o.at > hours(6)) late = o;
  }
  BOOST_TEST_REQUIRE(late.has_value());
  const sys_seconds quarter = intervalStart(late->at, site.zone);
  bool found = false;
  for (const SalesInterval& i : site.intervals(quarter, quarter + minutes(15))) {
    found = found || (i.revenueCenter == late->revenueCenter && i.netCents >= late->netCents - 0);
  }
  BOOST_TEST(found);
}

BOOST_AUTO_TEST_CASE(failuresBackOffAndRateLimitsWaitAsTold) {
  SalesSite site;
  SimulatedPos pos(siteOptions());
  FeedPollerOptions options;
  options.maxBackoff = minutes(4);
  FeedPoller poller(pos, *site.book, options);
  const PosTime now{kDay + hours(20)};
  pos.failNext(FeedError{FeedError::Kind::kUnavailable, "HTTP 503", {}}, 4);
  BOOST_TEST(poller.pollOnce(now).value().count() == 60);
  BOOST_TEST(poller.pollOnce(now).value().count() == 120);
  BOOST_TEST(poller.pollOnce(now).value().count() == 240);
  BOOST_TEST(poller.pollOnce(now).value().count() == 240);  // capped
  BOOST_TEST(poller.lastError() == "HTTP 503");
  pos.failNext(FeedError{FeedError::Kind::kRateLimited, "HTTP 429", seconds(17)});
  BOOST_TEST(poller.pollOnce(now).value().count() == 17);
  BOOST_TEST(poller.pollOnce(now).value().count() == 60);  // recovered
  BOOST_TEST(poller.lastError().empty());
}

BOOST_AUTO_TEST_CASE(aRefusedTokenHaltsPollingAndSaysSo) {
  SalesSite site;
  SimulatedPos pos(siteOptions());
  std::vector<SourceStatus> statuses;
  FeedPoller poller(pos, *site.book, FeedPollerOptions{},
                    [&](const SourceStatus& s) { statuses.push_back(s); });
  pos.failNext(FeedError{FeedError::Kind::kAuth, "Square refused the access token", {}});
  BOOST_TEST(!poller.pollOnce(PosTime{kDay}).has_value());
  BOOST_TEST(poller.halted());
  const int fetches = pos.fetches();
  BOOST_TEST(!poller.pollOnce(PosTime{kDay + hours(1)}).has_value());
  BOOST_TEST(pos.fetches() == fetches);  // nothing asked again
  BOOST_TEST_REQUIRE(statuses.size() == 1u);
  BOOST_TEST((statuses[0].kind == SourceStatus::Kind::kAuthFailed));
}

BOOST_AUTO_TEST_CASE(theCursorSurvivesARestartAndTheNextPollOverlapsIt) {
  SalesSite site;
  SimulatedPos pos(siteOptions());
  // What the pollers ask the POS.
  struct Recording final : drivers::pos::OrderFeed {
    explicit Recording(SimulatedPos& p) : pos(p) {}
    std::string source() const override { return pos.source(); }
    std::variant<drivers::pos::FeedPage, FeedError> fetch(
        const drivers::pos::FeedQuery& q) override {
      queries.push_back(q);
      return pos.fetch(q);
    }
    SimulatedPos& pos;
    std::vector<drivers::pos::FeedQuery> queries;
  } feed(pos);
  const PosTime now{kDay + hours(20)};
  {
    FeedPoller poller(feed, *site.book, FeedPollerOptions{});
    BOOST_TEST(poller.pollOnce(now).has_value());
  }
  BOOST_TEST(site.book->cursor("simulated").value().value() == "2026-11-30T20:00:00.000Z");
  BOOST_TEST((feed.queries.front().from == now - hours(72) - minutes(10)));
  feed.queries.clear();
  FeedPoller again(feed, *site.book, FeedPollerOptions{});
  BOOST_TEST(again.pollOnce(now + minutes(1)).has_value());
  BOOST_TEST((feed.queries.front().from == now - minutes(10)));
  BOOST_TEST((feed.queries.front().to == now + minutes(1)));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::pos::test
