// The Square poller against the fake Square server over loopback: the search request Square
// expects, pagination, returns in their sale's interval, late offline orders, 429 with
// Retry-After, 5xx, an expired token that halts polling; and the parser's refusals.
#include <boost/test/unit_test.hpp>

#include "base/canonical_json.h"
#include "drivers/pos/feed_poller.h"
#include "drivers/pos/square_feed.h"
#include "drivers/pos/square_orders.h"
#include "tests/pos/sales_site.h"
#include "tests/support/fake_square.h"

namespace atoms::pos::test {
namespace {

using namespace std::chrono;
using drivers::pos::FakeSquare;
using drivers::pos::FakeSquareFailure;
using drivers::pos::FakeSquareOptions;
using drivers::pos::FakeSquareOrder;
using drivers::pos::FeedError;
using drivers::pos::FeedPoller;
using drivers::pos::FeedPollerOptions;
using drivers::pos::SourceStatus;
using drivers::pos::SquareConfig;
using drivers::pos::SquareFeed;

const sys_seconds kSquareDay{sys_days(2026y / 11 / 30)};

FakeSquareOrder squareSale(const std::string& id, const std::string& closed,
                           std::int64_t totalCents, const std::string& updated = "") {
  FakeSquareOrder o;
  o.id = id;
  o.closedAt = closed;
  o.updatedAt = updated.empty() ? closed : updated;
  o.totalCents = totalCents;
  o.taxCents = totalCents / 11;
  o.tipCents = 100;
  return o;
}

struct SquareSite : SalesSite {
  explicit SquareSite(FakeSquareOptions options = {}) : fake(options) {
    BOOST_TEST_REQUIRE(fake.start().ok());
  }
  std::unique_ptr<SquareFeed> feed() {
    SquareConfig c;
    c.baseUrl = fake.baseUrl();
    c.locationIds = {"L-MAIN"};
    c.accessToken = fake.token();
    BOOST_TEST_REQUIRE(drivers::pos::validateSquareConfig(c).ok());
    return std::make_unique<SquareFeed>(c);
  }
  FakeSquare fake;
};

BOOST_AUTO_TEST_SUITE(square_feed)

BOOST_AUTO_TEST_CASE(sendsTheSearchSquareDocuments) {
  SquareSite site;
  auto feed = site.feed();
  FeedPoller poller(*feed, *site.book, FeedPollerOptions{});
  BOOST_TEST(poller.pollOnce(PosTime(kSquareDay + hours(20))).has_value());
  const auto requests = site.fake.requests();
  BOOST_TEST_REQUIRE(requests.size() == 1u);
  const json::Value body = json::parse(requests[0]).value();
  BOOST_TEST(json::canonical(*body.find("location_ids")) == R"(["L-MAIN"])");
  BOOST_TEST(json::canonical(*body.find("query")) ==
             R"({"filter":{"date_time_filter":{"updated_at":{"end_at":"2026-11-30T20:00:00.000Z",)"
             R"("start_at":"2026-11-27T19:50:00.000Z"}},"state_filter":{"states":["OPEN",)"
             R"("COMPLETED","CANCELED"]}},"sort":{"sort_field":"UPDATED_AT","sort_order":"ASC"}})");
}

BOOST_AUTO_TEST_CASE(readsEveryPageAndStoresNetSales) {
  FakeSquareOptions options;
  options.pageSize = 3;
  SquareSite site(options);
  for (int i = 0; i < 10; ++i) {
    site.fake.addOrder(squareSale("O-" + std::to_string(i),
                                  "2026-11-30T19:0" + std::to_string(i) + ":00.000Z", 1100));
  }
  auto feed = site.feed();
  FeedPoller poller(*feed, *site.book, FeedPollerOptions{});
  BOOST_TEST(poller.pollOnce(PosTime(kSquareDay + hours(20))).has_value());
  BOOST_TEST(site.fake.searches() == 4);  // 3 + 3 + 3 + 1
  // Each: 1100 total less 100 tax less 100 tip.
  BOOST_TEST(site.netCents(kSquareDay, kSquareDay + days(1)) == 10 * 900);
  BOOST_TEST(site.imports() == 4u);  // one per page
}

BOOST_AUTO_TEST_CASE(aReturnAndALateOfflineOrderLandWhereTheyBelong) {
  SquareSite site;
  site.fake.addOrder(squareSale("SALE-1", "2026-11-30T19:05:00.000Z", 2200));
  auto feed = site.feed();
  FeedPoller poller(*feed, *site.book, FeedPollerOptions{});
  BOOST_TEST(poller.pollOnce(PosTime(kSquareDay + hours(20))).has_value());
  // Two days later: a return of SALE-1, and an offline sale of the 30th reaching Square now.
  FakeSquareOrder ret;
  ret.id = "RET-1";
  ret.closedAt = ret.updatedAt = "2026-12-02T18:00:00.000Z";
  ret.returnOf = "SALE-1";
  ret.returnedTotalCents = 1100;
  ret.returnedTaxCents = 100;
  site.fake.addOrder(ret);
  site.fake.addOrder(
      squareSale("OFFLINE-1", "2026-11-30T19:10:00.000Z", 1200, "2026-12-02T18:30:00.000Z"));
  site.now = kSquareDay + days(2) + hours(19);
  BOOST_TEST(poller.pollOnce(PosTime(kSquareDay + days(2) + hours(19))).has_value());
  const auto rows = site.intervals(kSquareDay, kSquareDay + days(3));
  BOOST_TEST_REQUIRE(rows.size() == 1u);
  BOOST_TEST((rows[0].start == kSquareDay + hours(19)));
  // 2200 less 200 tax and 100 tip, 1000 returned (1100 less 100 tax), the offline sale net.
  BOOST_TEST(rows[0].netCents == 1900 - 1000 + (1200 - 109 - 100));
  BOOST_TEST(rows[0].transactions == 2);
}

BOOST_AUTO_TEST_CASE(aVoidReplacesTheSale) {
  SquareSite site;
  site.fake.addOrder(squareSale("SALE-1", "2026-11-30T19:05:00.000Z", 2200));
  auto feed = site.feed();
  FeedPoller poller(*feed, *site.book, FeedPollerOptions{});
  BOOST_TEST(poller.pollOnce(PosTime(kSquareDay + hours(20))).has_value());
  FakeSquareOrder voided =
      squareSale("SALE-1", "2026-11-30T19:05:00.000Z", 2200, "2026-11-30T20:03:00.000Z");
  voided.state = "CANCELED";
  voided.version = 2;
  site.fake.addOrder(voided);
  BOOST_TEST(poller.pollOnce(PosTime(kSquareDay + hours(20) + minutes(5))).has_value());
  BOOST_TEST(site.intervals(kSquareDay, kSquareDay + days(1)).empty());
}

BOOST_AUTO_TEST_CASE(rateLimitsAndServerErrorsBackOffThenRecover) {
  SquareSite site;
  site.fake.addOrder(squareSale("SALE-1", "2026-11-30T19:05:00.000Z", 2200));
  auto feed = site.feed();
  std::vector<SourceStatus> statuses;
  FeedPoller poller(*feed, *site.book, FeedPollerOptions{},
                    [&](const SourceStatus& s) { statuses.push_back(s); });
  site.fake.failNext(FakeSquareFailure{429, 30});
  site.fake.failNext(FakeSquareFailure{500, {}});
  const PosTime now{kSquareDay + hours(20)};
  BOOST_TEST(poller.pollOnce(now).value().count() == 30);
  BOOST_TEST(poller.lastError().find("HTTP 429") != std::string::npos);
  BOOST_TEST(poller.pollOnce(now).value().count() == 120);
  BOOST_TEST(poller.lastError().find("HTTP 500") != std::string::npos);
  BOOST_TEST(poller.pollOnce(now).value().count() == 60);
  BOOST_TEST(site.netCents(kSquareDay, kSquareDay + days(1)) == 1900);
  BOOST_TEST_REQUIRE(statuses.size() == 3u);
  BOOST_TEST((statuses[1].kind == SourceStatus::Kind::kFailing));
  BOOST_TEST((statuses[2].kind == SourceStatus::Kind::kOk));
}

BOOST_AUTO_TEST_CASE(anExpiredTokenStopsPollingWithAClearMessage) {
  SquareSite site;
  auto feed = site.feed();
  std::vector<SourceStatus> statuses;
  FeedPoller poller(*feed, *site.book, FeedPollerOptions{},
                    [&](const SourceStatus& s) { statuses.push_back(s); });
  site.fake.expireToken();
  BOOST_TEST(!poller.pollOnce(PosTime(kSquareDay + hours(20))).has_value());
  BOOST_TEST(!poller.pollOnce(PosTime(kSquareDay + hours(21))).has_value());
  BOOST_TEST(site.fake.searches() == 1);
  BOOST_TEST_REQUIRE(statuses.size() == 1u);
  BOOST_TEST((statuses[0].kind == SourceStatus::Kind::kAuthFailed));
  BOOST_TEST(statuses[0].detail.find("ACCESS_TOKEN_EXPIRED") != std::string::npos);
  BOOST_TEST(statuses[0].detail.find("pos.square.access_token_file") != std::string::npos);
  BOOST_TEST(statuses[0].detail.find(site.fake.token()) == std::string::npos);
}

BOOST_AUTO_TEST_CASE(anUnreadableOrderIsNamedAndNothingIsStored) {
  SquareSite site;
  site.fake.addOrder(squareSale("SALE-1", "2026-11-30T19:05:00.000Z", 2200));
  json::Object bad = squareSale("SALE-2", "2026-11-30T19:06:00.000Z", 100).toJson().asObject();
  bad["total_money"] = json::Object{{"amount", "12.00"}, {"currency", "USD"}};
  site.fake.addOrderJson(bad);
  auto feed = site.feed();
  FeedPoller poller(*feed, *site.book, FeedPollerOptions{});
  BOOST_TEST(poller.pollOnce(PosTime(kSquareDay + hours(20))).has_value());
  BOOST_TEST(poller.lastError() ==
             "Square order 1 (id 'SALE-2'): total_money.amount is not an integer");
  BOOST_TEST(site.intervals(kSquareDay, kSquareDay + days(1)).empty());
}

BOOST_AUTO_TEST_CASE(theParserRefusesAnotherCurrencyAndReadsOpenOrders) {
  json::Object o = squareSale("X", "2026-11-30T19:06:00.000Z", 100).toJson().asObject();
  o["total_money"] = json::Object{{"amount", 100}, {"currency", "EUR"}};
  auto r = drivers::pos::square::parseOrder(json::Value(o), "USD", "Square order 0");
  BOOST_TEST(r.message() == "Square order 0 (id 'X'): total_money is in 'EUR', not USD");
  o = squareSale("Y", "", 100, "2026-11-30T19:06:00.000Z").toJson().asObject();
  o["state"] = "OPEN";
  o["created_at"] = "2026-11-30T19:01:00Z";
  auto open = drivers::pos::square::parseOrder(json::Value(o), "USD", "Square order 0");
  BOOST_TEST_REQUIRE(open.ok(), open.message());
  BOOST_TEST((open->state == drivers::pos::OrderState::kOpen));
  BOOST_TEST(drivers::pos::formatPosTime(open->at) == "2026-11-30T19:01:00.000Z");
}

BOOST_AUTO_TEST_CASE(theConfigurationIsChecked) {
  SquareConfig c;
  c.locationIds = {"L"};
  c.accessToken = "t";
  BOOST_TEST(drivers::pos::validateSquareConfig(c).ok());
  c.baseUrl = "http://square.example.com";
  BOOST_TEST(drivers::pos::validateSquareConfig(c).message().find("pos.square.base_url") == 0u);
  c.baseUrl = "https://connect.squareup.com";
  c.locationIds.clear();
  BOOST_TEST(drivers::pos::validateSquareConfig(c).message().find("pos.square.location_ids") == 0u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::pos::test
