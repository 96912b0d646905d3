// The sales book over a real store: per-interval sums, idempotency by order id and version, voids,
// returns in the sale's interval (also when the sale comes after the return), late orders in the
// interval they were sold, one audit entry per batch that changed something, the cursor.
#include <boost/test/unit_test.hpp>

#include "domain/pos/sales_book.h"
#include "tests/pos/sales_site.h"

namespace atoms::pos {
namespace {

using namespace std::chrono;
using drivers::pos::OrderOutcome;
using drivers::pos::OrderState;

PosTime at(const std::string& text) { return drivers::pos::parsePosTime(text).value(); }

PosOrder sale(const std::string& id, const std::string& when, std::int64_t cents,
              std::int64_t covers = 2) {
  PosOrder o;
  o.id = id;
  o.at = at(when);
  o.updatedAt = o.at;
  o.netCents = cents;
  o.covers = covers;
  return o;
}

struct SalesSite : test::SalesSite {
  BatchOutcome record(std::vector<PosOrder> orders, std::optional<std::string> cursor = {}) {
    OrderBatch batch{"square", std::move(orders), std::move(cursor), "test batch"};
    auto r = recordOrders(*store, batch, zone, now);
    BOOST_TEST_REQUIRE(r.ok(), r.message());
    return *r;
  }
  std::vector<SalesInterval> day() {
    return intervals(sys_days(2026y / 11 / 30), sys_days(2026y / 12 / 2));
  }
};

BOOST_AUTO_TEST_SUITE(sales_book)

BOOST_AUTO_TEST_CASE(intervalsFollowSiteLocalQuarterHours) {
  const auto zone = site::TimeZone::locate("Asia/Kathmandu").value();  // +05:45
  const auto start = intervalStart(at("2026-11-30T10:20:00Z"), zone);  // 16:05 local
  BOOST_TEST(drivers::pos::formatPosTime(time_point_cast<milliseconds>(start)) ==
             "2026-11-30T10:15:00.000Z");  // 16:00 local
  const auto la = site::TimeZone::locate("America/Los_Angeles").value();
  BOOST_TEST((intervalStart(at("2026-11-30T17:14:59.999Z"), la) ==
              sys_seconds(sys_days(2026y / 11 / 30) + 17h)));
}

BOOST_AUTO_TEST_CASE(sumsSalesPerIntervalAndRevenueCenter) {
  SalesSite s;
  PosOrder bar = sale("B-1", "2026-11-30T18:05:00Z", 900, 1);
  bar.revenueCenter = "bar";
  const BatchOutcome out = s.record({sale("A-1", "2026-11-30T18:01:00Z", 2500),
                                     sale("A-2", "2026-11-30T18:14:00Z", 1000, 3), bar,
                                     sale("A-3", "2026-11-30T18:15:00Z", 700, 1)});
  BOOST_TEST(out.stored == 4);
  const auto rows = s.day();
  BOOST_TEST_REQUIRE(rows.size() == 3u);
  BOOST_TEST(rows[0].revenueCenter == "bar");
  BOOST_TEST(rows[0].netCents == 900);
  BOOST_TEST(
      (rows[1] == SalesInterval{sys_seconds(sys_days(2026y / 11 / 30) + 18h), "main", 3500, 2, 5}));
  BOOST_TEST((rows[2].start == sys_seconds(sys_days(2026y / 11 / 30) + 18h + 15min)));
  BOOST_TEST(s.imports() == 1u);
}

BOOST_AUTO_TEST_CASE(aRetriedBatchIsADuplicateAndWritesNoAuditEntry) {
  SalesSite s;
  s.record({sale("A-1", "2026-11-30T18:01:00Z", 2500)});
  const BatchOutcome again = s.record({sale("A-1", "2026-11-30T18:01:00Z", 2500)});
  BOOST_TEST(again.duplicates == 1);
  BOOST_TEST((again.outcomes == std::vector<OrderOutcome>{OrderOutcome::kDuplicate}));
  BOOST_TEST(s.day().at(0).netCents == 2500);
  BOOST_TEST(s.imports() == 1u);
}

BOOST_AUTO_TEST_CASE(aHigherVersionReplacesAndAVoidCountsNothing) {
  SalesSite s;
  s.record({sale("A-1", "2026-11-30T18:01:00Z", 2500)});
  PosOrder corrected = sale("A-1", "2026-11-30T18:01:00Z", 2000);
  corrected.version = 2;
  BOOST_TEST(s.record({corrected}).updated == 1);
  BOOST_TEST(s.day().at(0).netCents == 2000);
  PosOrder voided = corrected;
  voided.version = 3;
  voided.state = OrderState::kCanceled;
  s.record({voided});
  BOOST_TEST(s.day().empty());
  PosOrder stale = corrected;  // version 2 again, arriving late: changes nothing
  BOOST_TEST(s.record({stale}).duplicates == 1);
  BOOST_TEST(s.day().empty());
}

BOOST_AUTO_TEST_CASE(aReturnCountsInTheIntervalOfItsSale) {
  SalesSite s;
  PosOrder sold = sale("A-1", "2026-11-30T18:01:00Z", 2500);
  sold.revenueCenter = "patio";
  s.record({sold});
  PosOrder refund = sale("R-1", "2026-11-30T21:40:00Z", 0, 0);
  refund.returnOf = "A-1";
  refund.returnedCents = 800;
  s.record({refund});
  const auto rows = s.day();
  BOOST_TEST_REQUIRE(rows.size() == 1u);
  BOOST_TEST(rows[0].revenueCenter == "patio");
  BOOST_TEST(rows[0].netCents == 1700);
  BOOST_TEST(rows[0].transactions == 1);  // a return is not a transaction
}

BOOST_AUTO_TEST_CASE(aReturnBeforeItsSaleMovesThereWhenTheSaleArrives) {
  SalesSite s;
  PosOrder refund = sale("R-1", "2026-11-30T21:40:00Z", 0, 0);
  refund.returnOf = "A-1";
  refund.returnedCents = 800;
  s.record({refund});
  BOOST_TEST((s.day().at(0).start == sys_seconds(sys_days(2026y / 11 / 30) + 21h + 30min)));
  s.record({sale("A-1", "2026-11-30T18:01:00Z", 2500)});  // an offline sale, late
  const auto rows = s.day();
  BOOST_TEST_REQUIRE(rows.size() == 1u);
  BOOST_TEST((rows[0].start == sys_seconds(sys_days(2026y / 11 / 30) + 18h)));
  BOOST_TEST(rows[0].netCents == 1700);
}

BOOST_AUTO_TEST_CASE(aLateOfflineOrderLandsWhereItWasSold) {
  SalesSite s;
  s.now = sys_days(2026y / 12 / 3) + 17h;  // 71 hours after the sale
  s.record({sale("A-9", "2026-11-30T18:01:00Z", 1234)});
  BOOST_TEST((s.day().at(0).start == sys_seconds(sys_days(2026y / 11 / 30) + 18h)));
}

BOOST_AUTO_TEST_CASE(anInvalidOrderRefusesTheBatchAndStoresNothing) {
  SalesSite s;
  PosOrder bad = sale("", "2026-11-30T18:01:00Z", 100);
  OrderBatch batch{"square", {sale("A-1", "2026-11-30T18:01:00Z", 100), bad}, "c1", "bad"};
  auto r = recordOrders(*s.store, batch, s.zone, s.now);
  BOOST_TEST(!r.ok());
  BOOST_TEST(r.message().find("order 1") != std::string::npos);
  BOOST_TEST(s.day().empty());
  BOOST_TEST(!sourceCursor(s.store->db(), "square").value().has_value());
}

BOOST_AUTO_TEST_CASE(theCursorIsKeptWithTheBatchAndAnEmptyPollKeepsIt) {
  SalesSite s;
  s.record({sale("A-1", "2026-11-30T18:01:00Z", 100)}, "2026-11-30T18:01:00.000Z");
  s.record({});
  BOOST_TEST(sourceCursor(s.store->db(), "square").value().value() == "2026-11-30T18:01:00.000Z");
  BOOST_TEST((sourceLastContact(s.store->db(), "square").value().value() == s.now));
  BOOST_TEST(s.imports() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
}  // namespace atoms::pos
